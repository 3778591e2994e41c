/**
 * Bundles the Lambda functions with esbuild: one minified ESM file per function entry, with its
 * source map, that needs nothing but the Node.js runtime. The AWS SDK goes into the bundle too, so a
 * function never depends on the SDK version a Lambda runtime happens to ship.
 *
 * The options are in bundle-options.ts; infra/function-bundling.ts gives CDK's NodejsFunction the
 * same settings.
 *
 * `npm run build:functions` writes every entry of FUNCTION_ENTRIES to dist/functions/<name>/index.mjs.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { BUNDLE_OPTIONS } from './bundle-options.js';

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
