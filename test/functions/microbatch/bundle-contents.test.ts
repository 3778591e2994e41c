/**
 * What the function's bundle carries of the DynamoDB SDK: the commands the engine sends and not the
 * rest of the client; and none of the SQL front end, which only the SQL entry loads. The sink registry's lazily loaded DynamoDB adapter must stay out of the bundle
 * (the function's session gives its own), since a bundled lazy import keeps every export of the SDK.
 */
import path from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { FUNCTION_ENTRIES } from '../../../functions/build.js';
import { BUNDLE_OPTIONS } from '../../../functions/bundle-options.js';
import { tempDir } from '../../support/temp-dir.js';

/** The source files that put code into the bundle of `entry`. */
async function bundledFiles(entry: string): Promise<string[]> {
  const result = await build({
    ...BUNDLE_OPTIONS,
    sourcemap: false,
    metafile: true,
    entryPoints: [entry],
    outfile: path.join(tempDir(), 'index.mjs'),
  });
  const [output] = Object.values(result.metafile.outputs);
  return Object.entries(output.inputs)
    .filter(([, input]) => input.bytesInOutput > 0)
    .map(([file]) => file);
}

/** The DynamoDB SDK's command modules that put code into the bundle of `entry`. */
async function bundledDynamoDbCommands(entry: string): Promise<string[]> {
  return (await bundledFiles(entry))
    .map((file) => /client-dynamodb\/dist-es\/commands\/(\w+)Command\.js$/.exec(file)?.[1])
    .filter((command): command is string => command !== undefined)
    .sort();
}

describe("the micro-batch function's bundle", () => {
  it('carries the DynamoDB commands the engine sends and none of the others', async () => {
    const commands = await bundledDynamoDbCommands(FUNCTION_ENTRIES.clickstream);
    const sent = ['BatchWriteItem', 'DescribeTable', 'PutItem', 'TransactWriteItems', 'UpdateItem'];
    expect(commands).toEqual(expect.arrayContaining(sent));
    const neverSent = [
      'CreateBackup',
      'CreateTable',
      'DeleteTable',
      'ExecuteStatement',
      'ListTables',
    ];
    expect(commands.filter((c) => neverSent.includes(c))).toEqual([]);
  });

  it('carries none of the SQL front end: the query uses no SQL, so the parser stays out', async () => {
    const files = await bundledFiles(FUNCTION_ENTRIES.clickstream);
    expect(files.some((f) => f.startsWith('core/api/'))).toBe(true);
    expect(files.filter((f) => f.startsWith('core/sql/'))).toEqual([]);
  });
});
