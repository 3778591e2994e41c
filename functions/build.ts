/**
 * Bundles the Lambda functions with esbuild: one minified ESM file per function entry, with its
 * source map, that needs nothing but the Node.js runtime. The AWS SDK goes into the bundle too, so a
 * function never depends on the SDK version a Lambda runtime happens to ship.
 *
 * ESM because the engine and some dependencies are ESM-only; the CommonJS dependencies esbuild
 * inlines (kafkajs, parts of the SDK) call `require` for Node's built-in modules, which an ES module
 * does not have, so the banner creates one. infra/function-bundling.ts gives CDK's NodejsFunction the
 * same settings.
 *
 * `npm run build:functions` writes every entry of FUNCTION_ENTRIES to dist/functions/<name>/index.mjs.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type BuildOptions } from 'esbuild';

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

const FUNCTIONS_DIR = path.dirname(fileURLToPath(import.meta.url));

/** The function entries, by the name of their output directory. */
export const FUNCTION_ENTRIES: Readonly<Record<string, string>> = {
  clickstream: path.join(FUNCTIONS_DIR, 'microbatch', 'clickstream.ts'),
};

/** What a bundle build produced. */
export interface FunctionBundle {
  /** The bundle, `index.mjs` (Lambda handler `index.handler`). */
  readonly file: string;
  /** Its size in bytes, minified, before compression. */
  readonly bytes: number;
}

/** Bundles `entry` into `outDir`/index.mjs (and index.mjs.map). */
export async function bundleFunction(entry: string, outDir: string): Promise<FunctionBundle> {
  const file = path.join(outDir, 'index.mjs');
  await build({ ...BUNDLE_OPTIONS, entryPoints: [entry], outfile: file });
  return { file, bytes: statSync(file).size };
}

/** Bundles every function into `outDir`/<name>/. */
export async function bundleAll(outDir: string): Promise<Record<string, FunctionBundle>> {
  const bundles: Record<string, FunctionBundle> = {};
  for (const [name, entry] of Object.entries(FUNCTION_ENTRIES)) {
    bundles[name] = await bundleFunction(entry, path.join(outDir, name));
  }
  return bundles;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const outDir = path.resolve('dist', 'functions');
  for (const [name, bundle] of Object.entries(await bundleAll(outDir))) {
    console.log(`${name}: ${path.relative(process.cwd(), bundle.file)} (${bundle.bytes} bytes)`);
  }
}
