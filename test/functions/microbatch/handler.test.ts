/**
 * microBatchHandler in process: what fails the cold start (when the entry module calls it), and an
 * invocation that fails for real, which must reject (so Lambda retries it or sends it to the
 * dead-letter queue) after logging the error and publishing its metrics.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
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
  it('rejects with the error after logging it and publishing its metrics', async () => {
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
    expect(lines.find((l) => '_aws' in l)).toMatchObject({ QueryId: queryId, BatchesCommitted: 0 });
  });
});
