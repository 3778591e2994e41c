/**
 * `sluice status`, `sluice history` and `sluice state` on a deployed query's checkpoint (DynamoDB
 * Local and s3rver), found by table and query id (and for state, its bucket and prefix), with the
 * SDK's own endpoint, region and credential settings.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { awsBackend } from '../aws/aws-backend.js';
import { countCategories } from '../support/category-counts.js';
import { countsOnBackend } from '../support/counts-checkpoint.js';
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
          AWS_ENDPOINT_URL_S3: inject('s3Endpoint'),
          AWS_REGION: 'us-east-1',
          // s3rver checks signatures against its one key pair; DynamoDB Local takes any
          AWS_ACCESS_KEY_ID: 'S3RVER',
          AWS_SECRET_ACCESS_KEY: 'S3RVER',
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

  it("state prints a deployed query's store from DynamoDB and S3, the changes its commits carry included", async () => {
    const queryId = uniqueName('deployed-state');
    const backend = await awsBackend(queryId);
    // the first batch spills to state files (a 300-byte commit budget); the second, one change
    // among many keys of one partition (below the snapshot rule's share), stays inline
    const letters = [...'abcdefghijklmnopqrstuvwxyz'];
    await countsOnBackend(backend, [letters, ['a']], {
      inlineStateMaxBytes: 300,
      numStatePartitions: 1,
    });
    expect((await backend.checkpoint.latestCommit())?.inlineState).toBeDefined();
    const table = backend.checkpoint.location.split('/')[2];
    const deployed = ['--table', table, '--query-id', queryId];
    const bucket = backend.stateObjects.location.split('/')[2];
    const location = [...deployed, '--bucket', bucket, '--prefix', 'queries'];
    const [latest, first] = await Promise.all([
      sluice(['state', ...location, '--operator', '0', '--json']),
      sluice(['state', ...location, '--operator', '0', '--batch', '0', '--json']),
    ]);
    const counts = (stdout: string) =>
      stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { key: string; value: [string[], number[]] })
        .map((r) => `${r.value[0][0]}=${r.value[1][0]}`)
        .sort();
    expect([latest.status, first.status]).toEqual([0, 0]);
    expect(counts(latest.stdout)).toEqual(letters.map((l) => `${l}=${l === 'a' ? 2 : 1}`));
    expect(counts(first.stdout)).toEqual(letters.map((l) => `${l}=1`));
  }, 60_000);
});
