/**
 * State as a table on a deployed query's checkpoint (DynamoDB Local and s3rver): format('statestore')
 * and format('state-metadata') with the options checkpointTable, queryId and stateLocation give the
 * rows the operator would load (snapshots, delta files and the changes its commits carry), equal to
 * what the same query's local checkpoint gives.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { awsCheckpointBackend, awsCheckpointBackends } from '../../core/aws/index.js';
import { type RowObject, SluiceSession } from '../../core/index.js';
import {
  createBucket,
  createCheckpointTable,
  dynamoClient,
  s3Client,
} from '../support/aws-clients.js';
import { countsCheckpoint, countsOnBackend } from '../support/counts-checkpoint.js';
import { uniqueName } from '../support/unique-name.js';

/** Batches of keys drawn from 60, some repeated, and a batch of noise that changes no state. */
const BATCHES: string[][] = Array.from({ length: 9 }, (_, b) =>
  b === 4 ? ['noise'] : Array.from({ length: 25 }, (_, i) => `k${(b * 17 + i * 7) % 60}`),
);
/** Small enough that some versions spill to delta files; a snapshot every 3 versions. */
const OPTIONS = { inlineStateMaxBytes: 900, snapshotInterval: 3 };

/** The counts after the first `batches` batches, computed from the input. */
function expectedCounts(batches: number): string[] {
  const counts = new Map<string, number>();
  for (const keys of BATCHES.slice(0, batches)) {
    for (const k of keys) if (k !== 'noise') counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return [...counts].map(([k, n]) => `${k}=${n}`).sort();
}

/** `key=count` for each row, from the value column's JSON. */
const counts = (rows: RowObject[]) =>
  rows
    .map((r) => JSON.parse(r.value as string) as [string[], number[]])
    .map(([[k], [n]]) => `${k}=${n}`)
    .sort();

/** The rows as comparable text, partition included. */
const sorted = (rows: RowObject[]) => rows.map((r) => JSON.stringify(r)).sort();

describe("read.format('statestore') on a deployed query's checkpoint", () => {
  let table: string;
  let bucket: string;
  let local: string;
  const queryId = uniqueName('state-table');
  const session = new SluiceSession({
    checkpointBackends: awsCheckpointBackends({
      clients: { dynamodb: dynamoClient(), s3: s3Client() },
    }),
  });
  const deployed = (
    format: 'statestore' | 'state-metadata',
    options: Record<string, number> = {},
  ) => {
    const reader = session.read
      .format(format)
      .option('checkpointTable', table)
      .option('queryId', queryId)
      .option('stateLocation', `s3://${bucket}/deployed`);
    for (const [name, value] of Object.entries(options)) reader.option(name, value);
    return reader.load();
  };

  beforeAll(async () => {
    [table, bucket] = await Promise.all([
      createCheckpointTable(uniqueName('checkpoints')),
      createBucket(uniqueName('state')),
    ]);
    const backend = awsCheckpointBackend({
      tableName: table,
      bucket,
      queryId,
      prefix: 'deployed',
      clients: { dynamodb: dynamoClient(), s3: s3Client() },
    });
    [local] = await Promise.all([
      countsCheckpoint(BATCHES, OPTIONS.inlineStateMaxBytes, OPTIONS.snapshotInterval),
      countsOnBackend(backend, BATCHES, OPTIONS),
    ]);
  }, 120_000);

  it('reads the latest version as the local checkpoint of the same input gives it', async () => {
    const rows = await deployed('statestore').collect();
    expect(counts(rows)).toEqual(expectedCounts(BATCHES.length));
    const localRows = await session.read.format('statestore').load(local).collect();
    expect(sorted(rows)).toEqual(sorted(localRows));
  });

  it('reads every older batch by batchId, the batch without state changes included', async () => {
    for (let batchId = 0; batchId < BATCHES.length; batchId++) {
      const rows = await deployed('statestore', { batchId }).collect();
      expect(counts(rows), `batch ${batchId}`).toEqual(expectedCounts(batchId + 1));
      const localRows = await session.read
        .format('statestore')
        .option('batchId', batchId)
        .load(local)
        .collect();
      expect(sorted(rows), `batch ${batchId}`).toEqual(sorted(localRows));
    }
  });

  it("lists the stores with format('state-metadata'), as the local checkpoint does", async () => {
    const rows = await deployed('state-metadata').collect();
    expect(rows).toEqual([
      {
        operatorId: 0,
        operatorName: 'aggregate',
        stateStoreName: 'default',
        numPartitions: 3,
        minBatchId: 0,
        maxBatchId: BATCHES.length - 1,
      },
    ]);
    expect(rows).toEqual(await session.read.format('state-metadata').load(local).collect());
  });

  it('names the missing store and the stores the deployed checkpoint holds', async () => {
    await expect(deployed('statestore', { operatorId: 3 }).collect()).rejects.toThrow(
      /has no operator 3 store 'default' at batch 8; it holds operator 0/,
    );
  });
});
