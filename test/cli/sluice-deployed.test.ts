/**
 * `sluice status` and `sluice history` on a deployed query's DynamoDB checkpoint (DynamoDB Local),
 * found by table and query id, with the SDK's own endpoint, region and credential settings.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { awsBackend } from '../aws/aws-backend.js';
import { countCategories } from '../support/category-counts.js';
import { at } from '../support/events.js';
import { uniqueName } from '../support/unique-name.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const CLI = path.join(REPO, 'cli', 'sluice.ts');

/** Runs `sluice args` against the run's DynamoDB Local; resolves with its exit status and output. */
function sluice(args: readonly string[]) {
  return new Promise<{ status: number; stdout: string; stderr: string }>((resolve) =>
    execFile(
      process.execPath,
      ['--import', 'tsx', CLI, ...args],
      {
        cwd: REPO,
        env: {
          ...process.env,
          AWS_ENDPOINT_URL_DYNAMODB: inject('dynamoDbEndpoint'),
          AWS_REGION: 'us-east-1',
          AWS_ACCESS_KEY_ID: 'sluicetest',
          AWS_SECRET_ACCESS_KEY: 'sluicetest',
        },
      },
      (error, stdout, stderr) =>
        resolve({ status: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

describe('sluice on a deployed query', () => {
  it('status shows the lease holder and last batch from the DynamoDB checkpoint; history its batches', async () => {
    const queryId = uniqueName('deployed');
    const backend = await awsBackend(queryId);
    const query = await countCategories(backend, [
      [{ ts: at('10:00:00'), category: 'a', user: 'u1' }],
    ]);
    // an invocation holds the lease now
    await backend.checkpoint.acquireLease('invocation-7', 60_000);
    const table = backend.checkpoint.location.split('/')[2];

    const [status, history, state] = await Promise.all([
      sluice(['status', '--table', table, '--query-id', queryId]),
      sluice(['history', '--table', table, '--query-id', queryId, '--json']),
      sluice(['state', '--table', table, '--query-id', queryId, '--operator', '0']),
    ]);
    expect(status.status).toBe(0);
    expect(status.stdout).toMatch(/^last committed batch: 0$/m);
    expect(status.stdout).toMatch(/^lease: invocation-7 until \d{4}-.*Z$/m);
    expect(status.stdout).toMatch(/^last progress: batch 0 \| 1 rows in \| 1 out/m);
    expect(JSON.parse(history.stdout)).toMatchObject({ id: query.id, batchId: 0, numInputRows: 1 });
    expect(state.status).toBe(2);
    expect(state.stderr).toMatch(
      /^sluice: reading a deployed query's state needs its bucket: add --bucket B/,
    );
  }, 60_000);
});
