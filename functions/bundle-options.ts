/**
 * The esbuild options every Lambda function is bundled with, here and by CDK's NodejsFunction
 * (infra/function-bundling.ts). A file of their own so that the CDK entry of the package reads them
 * without loading esbuild.
 *
 * ESM because the engine and some dependencies are ESM-only; the CommonJS dependencies esbuild
 * inlines (kafkajs, parts of the SDK) call `require` for Node's built-in modules, which an ES module
 * does not have, so the banner creates one.
 */
import type { BuildOptions } from 'esbuild';

/** The esbuild options every function is bundled with. */
export const BUNDLE_OPTIONS = {
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'esm',
  minify: true,
  sourcemap: true,
  // ESM builds of packages that ship both (the SDK's, for one) tree-shake better
  mainFields: ['module', 'main'],
  banner: {
    js: "import { createRequire as sluiceCreateRequire } from 'node:module'; const require = sluiceCreateRequire(import.meta.url);",
  },
  // error names (`new.target.name`) and stack frames stay readable in the logs
  keepNames: true,
  legalComments: 'none',
  logLevel: 'warning',
} as const satisfies BuildOptions;
