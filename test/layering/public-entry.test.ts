import path from 'node:path';
import * as esbuild from 'esbuild';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const AWS_PACKAGES = /node_modules\/(@aws-sdk\/|@smithy\/|aws-msk-iam-sasl-signer-js\/)/;

/**
 * The files an entry loads when it is imported: its bundle's inputs with every dynamic import left
 * out, since those load only when the code that needs them runs.
 */
async function staticInputs(entry: string): Promise<string[]> {
  const result = await esbuild.build({
    entryPoints: [path.join(root, entry)],
    absWorkingDir: root,
    bundle: true,
    platform: 'node',
    format: 'esm',
    write: false,
    metafile: true,
    logLevel: 'silent',
    plugins: [
      {
        name: 'dynamic-imports-stay-lazy',
        setup(build) {
          build.onResolve({ filter: /.*/ }, (args) =>
            args.kind === 'dynamic-import' ? { path: args.path, external: true } : undefined,
          );
        },
      },
    ],
  });
  return Object.keys(result.metafile.inputs);
}

describe('entries', () => {
  it('importing the public entry loads no AWS SDK and no MSK signer', async () => {
    const inputs = await staticInputs('core/index.ts');
    expect(inputs.some((i) => i.includes('core/api/dataframe.ts'))).toBe(true);
    expect(inputs.filter((i) => AWS_PACKAGES.test(i))).toEqual([]);
  });

  it('the SQL parser is loaded by the SQL entry only', async () => {
    const sql = (inputs: string[]) => inputs.filter((i) => i.startsWith('core/sql/'));
    expect(sql(await staticInputs('core/index.ts'))).toEqual([]);
    expect(sql(await staticInputs('core/sql/index.ts'))).toContain('core/sql/sql-parser.ts');
  });

  it('the AWS entry is where the SDK is loaded', async () => {
    const inputs = await staticInputs('core/aws/index.ts');
    expect(inputs.some((i) => i.includes('node_modules/@aws-sdk/client-dynamodb/'))).toBe(true);
    expect(inputs.some((i) => i.includes('node_modules/@aws-sdk/client-s3/'))).toBe(true);
  });
});
