/**
 * microBatchHandler in process: what fails the cold start (when the entry module calls it), and an
 * invocation that fails for real, which must reject (so Lambda retries it or sends it to the
 * dead-letter queue) after logging the error and publishing the metrics of what it committed.
 */
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { DeleteCommand, DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  CheckpointError,
  col,
  InvalidOptionError,
  SourceError,
  UnsupportedOperationError,
} from '../../../core/index.js';
import { clickstreamQuery } from '../../../examples/clickstream-query.js';
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

const KAFKA = { kind: 'kafka', bootstrapServers: ['127.0.0.1:9092'], topic: 'clicks' };
const DELTA = { kind: 'delta', bucket: 'lake-bucket', path: 'tables/clicks' };

function environment(changes: Record<string, string> = {}) {
  return {
    [ENV.queryId]: 'clicks',
    [ENV.checkpointTable]: 'sluice-checkpoints',
    [ENV.stateBucket]: 'sluice-state',
    [ENV.source]: JSON.stringify(KAFKA),
    [ENV.sink]: JSON.stringify(DELTA),
    ...changes,
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('microBatchHandler at cold start', () => {
  it("names SLUICE_SINK when the Kafka sink refuses the configuration's options", () => {
    // MSK IAM authenticates over TLS only
    const sink = { ...KAFKA, topic: 'counts', sasl: { mechanism: 'aws-msk-iam' } };
    const build = () =>
      microBatchHandler(clickstreamQuery, {
        env: environment({ [ENV.sink]: JSON.stringify(sink) }),
      });
    expect(build).toThrow(InvalidOptionError);
    expect(build).toThrow(/^SLUICE_SINK: /);
  });

  it("names SLUICE_SOURCE when the Kafka source refuses the configuration's options", () => {
    const source = { ...KAFKA, maxOffsetsPerTrigger: 100, minOffsetsPerTrigger: 1_000 };
    expect(() =>
      microBatchHandler(clickstreamQuery, {
        env: environment({ [ENV.source]: JSON.stringify(source) }),
      }),
    ).toThrow(/^SLUICE_SOURCE: .*minOffsetsPerTrigger/);
  });

  it('refuses a query its output mode cannot run, before any invocation', () => {
    const unbounded = defineQuery({
      outputMode: 'append',
      // an aggregation without a watermark never finalizes a row, so append mode cannot write it
      query: (input) => input.groupBy(col('topic')).count(),
    });
    expect(() => microBatchHandler(unbounded, { env: environment() })).toThrow(
      UnsupportedOperationError,
    );
  });
});

describe('a micro-batch invocation that fails', () => {
  it('rejects with the error after logging it, publishing no metrics when it committed nothing', async () => {
    const [table, state, lake] = await Promise.all([
      createCheckpointTable(uniqueName('checkpoint')),
      createBucket(uniqueName('state')),
      createBucket(uniqueName('lake')),
    ]);
    const queryId = uniqueName('unreachable');
    const handler = microBatchHandler(clickstreamQuery, {
      env: environment({
        [ENV.queryId]: queryId,
        [ENV.checkpointTable]: table,
        [ENV.stateBucket]: state,
        [ENV.sink]: JSON.stringify({ ...DELTA, bucket: lake }),
        // nothing listens on port 1
        [ENV.source]: JSON.stringify({ ...KAFKA, bootstrapServers: ['127.0.0.1:1'] }),
      }),
      clients: { s3: s3Client(), dynamodb: dynamoClient() },
    });
    const written: string[] = [];
    const capture = (chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    };
    vi.spyOn(process.stdout, 'write').mockImplementation(capture);
    vi.spyOn(process.stderr, 'write').mockImplementation(capture);

    await expect(handler({}, lambdaContext(30_000))).rejects.toBeInstanceOf(SourceError);

    vi.restoreAllMocks();
    const lines = written
      .join('')
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.find((l) => l.message === 'invocation failed')).toMatchObject({
      level: 'ERROR',
      queryId,
      function_request_id: 'request-1',
      error: { name: 'SourceError', message: expect.stringContaining('127.0.0.1:1') },
    });
    // it committed nothing, so it publishes no metrics: the stalled alarm reads no data as no batch
    expect(lines.filter((l) => '_aws' in l)).toEqual([]);
  });
});

/** The failed invocations below log their error; the test reads the error itself. */
function quietLogs(): void {
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
}

describe('an invocation whose checkpoint head is damaged', () => {
  /** A handler over two S3 objects of clicks that has committed its first batches, and its head item. */
  async function committedHandler() {
    const [table, state, input, out] = await Promise.all([
      createCheckpointTable(uniqueName('checkpoint')),
      createBucket(uniqueName('state')),
      createBucket(uniqueName('in')),
      createBucket(uniqueName('out')),
    ]);
    for (const minute of [0, 1]) {
      const ts = `2026-11-29T10:0${minute}:00Z`;
      await s3Client().send(
        new PutObjectCommand({
          Bucket: input,
          Key: `clicks/part-${minute}.json`,
          Body: `${JSON.stringify({ ts, category: 'books', user: 'u1', page: '/' })}\n`,
        }),
      );
    }
    const queryId = uniqueName('head');
    const handler = microBatchHandler(clickstreamQuery, {
      env: environment({
        [ENV.queryId]: queryId,
        [ENV.checkpointTable]: table,
        [ENV.stateBucket]: state,
        [ENV.source]: JSON.stringify({
          kind: 's3-files',
          bucket: input,
          prefix: 'clicks',
          format: 'text',
          maxFilesPerTrigger: 1,
        }),
        [ENV.sink]: JSON.stringify({ kind: 'files', bucket: out, path: 'counts', format: 'json' }),
      }),
      clients: { s3: s3Client(), dynamodb: dynamoClient() },
    });
    const first = await handler({}, lambdaContext(30_000));
    expect(first.batchesCommitted).toBeGreaterThan(0);
    const head = { TableName: table, Key: { pk: `query#${queryId}`, sk: 'head' } };
    return { handler, head, documents: DynamoDBDocumentClient.from(dynamoClient()) };
  }

  it('rejects, naming the head item and how to recover, when the head item was deleted', async () => {
    const { handler, head, documents } = await committedHandler();
    await documents.send(new DeleteCommand(head));
    quietLogs();
    for (let attempt = 0; attempt < 2; attempt++) {
      const error = await handler({}, lambdaContext(30_000)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CheckpointError);
      expect((error as Error).message).toMatch(
        /^dynamodb:\/\/\S+ item head is missing or has no commit, but commit#\d{20} exists: the head item was deleted.*Recover by writing the head back/,
      );
    }
  });

  it("rejects, naming the head item and how to recover, when the head's batchId disagrees with its record", async () => {
    const { handler, head, documents } = await committedHandler();
    await documents.send(
      new UpdateCommand({
        ...head,
        UpdateExpression: 'SET batchId = batchId + :more',
        ExpressionAttributeValues: { ':more': 5 },
      }),
    );
    quietLogs();
    const error = await handler({}, lambdaContext(30_000)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckpointError);
    expect((error as Error).message).toMatch(
      /^dynamodb:\/\/\S+ item head has batchId \d+ but its record is the commit of batch \d+.*Set the head's batchId/,
    );
  });
});
