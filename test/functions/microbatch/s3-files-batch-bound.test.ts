/**
 * The function's S3 files source reads a bounded batch: each batch takes new objects only while
 * their bytes stay within maxBytesPerTrigger (64 MiB when the configuration sets none), so a prefix
 * that holds far more than a function's memory is read over several batches.
 */
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { col } from '../../../core/index.js';
import { ENV } from '../../../functions/microbatch/configuration.js';
import { microBatchHandler } from '../../../functions/microbatch/handler.js';
import { defineQuery } from '../../../functions/microbatch/query-module.js';
import {
  createBucket,
  createCheckpointTable,
  dynamoClient,
  s3Client,
} from '../../support/aws-clients.js';
import { lambdaContext } from '../../support/lambda-context.js';
import { uniqueName } from '../../support/unique-name.js';

const LINES_PER_OBJECT = 50;

/** Each line of the input as one output row. */
const passThrough = defineQuery({
  outputMode: 'append',
  query: (lines) => lines.select(col('value')),
});

/** Three objects of LINES_PER_OBJECT equal lines each; returns the bucket and one object's size. */
async function threeObjects(): Promise<{ bucket: string; objectBytes: number }> {
  const bucket = await createBucket(uniqueName('in'));
  const body = Array.from(
    { length: LINES_PER_OBJECT },
    (_, i) => `line ${String(i).padStart(4, '0')}`,
  )
    .join('\n')
    .concat('\n');
  for (const name of ['a', 'b', 'c']) {
    await s3Client().send(
      new PutObjectCommand({ Bucket: bucket, Key: `lines/${name}.txt`, Body: body }),
    );
  }
  return { bucket, objectBytes: Buffer.byteLength(body) };
}

/** The input rows of each batch the function commits, one invocation after another, until it idles. */
async function rowsPerBatch(source: object): Promise<number[]> {
  const [table, state, out] = await Promise.all([
    createCheckpointTable(uniqueName('checkpoint')),
    createBucket(uniqueName('state')),
    createBucket(uniqueName('out')),
  ]);
  const handler = microBatchHandler(passThrough, {
    env: {
      [ENV.queryId]: uniqueName('bound'),
      [ENV.checkpointTable]: table,
      [ENV.stateBucket]: state,
      [ENV.source]: JSON.stringify(source),
      [ENV.sink]: JSON.stringify({ kind: 'files', bucket: out, path: 'lines', format: 'json' }),
    },
    clients: { s3: s3Client(), dynamodb: dynamoClient() },
  });
  const rows: number[] = [];
  for (let i = 0; i < 10; i++) {
    const result = await handler({}, lambdaContext(60_000));
    if (result.batchesCommitted === 0) return rows;
    rows.push(result.numInputRows);
  }
  throw new Error('the query still committed batches after 10 invocations');
}

describe("the function's S3 files source", () => {
  it('reads no more objects in a batch than maxBytesPerTrigger admits', async () => {
    const { bucket, objectBytes } = await threeObjects();
    const source = { kind: 's3-files', bucket, prefix: 'lines', format: 'text' };
    expect(await rowsPerBatch({ ...source, maxBytesPerTrigger: objectBytes * 2 })).toEqual([
      2 * LINES_PER_OBJECT,
      LINES_PER_OBJECT,
    ]);
  });

  it('reads a small prefix in one batch under the default bound', async () => {
    const { bucket } = await threeObjects();
    const source = { kind: 's3-files', bucket, prefix: 'lines', format: 'text' };
    expect(await rowsPerBatch(source)).toEqual([3 * LINES_PER_OBJECT]);
  });
});
