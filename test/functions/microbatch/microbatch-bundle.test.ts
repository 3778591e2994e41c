/**
 * The micro-batch function as Lambda runs it: the esbuild bundle of functions/microbatch/clickstream.ts,
 * loaded by plain Node in Lambda-like containers (test/support/lambda-container.ts) and invoked with
 * EventBridge Scheduler events, against DynamoDB Local, s3rver and the Kafka mock cluster.
 *
 * The canonical job runs over five rounds of clicks, through invocations that overlap, that run out
 * of time budget mid-batch and that are killed at their timeout mid-batch; the Delta table it
 * writes must equal the batch query's result over the clicks the stream counts (see click-rounds.ts
 * for why that set is known exactly whatever the batch cuts were).
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type RowObject, SluiceSession, type StreamingQueryProgress } from '../../../core/index.js';
import { DynamoDbCheckpointStore } from '../../../core/aws/index.js';
import { clickstreamQuery } from '../../../examples/clickstream-query.js';
import { bundleFunction, FUNCTION_ENTRIES } from '../../../functions/build.js';
import type { MicroBatchResult } from '../../../functions/microbatch/handler.js';
import {
  createBucket,
  createCheckpointTable,
  dynamoClient,
  s3Client,
} from '../../support/aws-clients.js';
import { startHttpRelay } from '../../support/http-relay.js';
import { produce } from '../../support/kafka-producer.js';
import {
  type InvocationOutcome,
  LambdaContainer,
  LambdaInitError,
} from '../../support/lambda-container.js';
import { deltaTableRows } from '../../support/delta-table-rows.js';
import { localLambdaEnvironment } from '../../support/local-lambda-environment.js';
import { tempDir } from '../../support/temp-dir.js';
import { uniqueName } from '../../support/unique-name.js';
import { type Click, clickRounds, fates } from './click-rounds.js';

/** An EventBridge Scheduler invocation's payload, as the construct's schedule sends it. */
function scheduledEvent(): Record<string, string> {
  return { queryId, scheduledTime: new Date().toISOString() };
}

/** The Lambda timeout of a normal invocation: far more than its 2-second trigger period needs. */
const TIMEOUT_MS = 30_000;
/**
 * How long the slow relay holds each S3 PUT. A batch writes in at least three waves, one after
 * another (state deltas, the state manifest, the Delta log entry), so it takes 7.5 s or more.
 */
const SLOW_PUT_MS = 2_500;

let bundle: string;
let env: Record<string, string>;
let queryId: string;
let checkpointTable: string;
let lakeBucket: string;
let topic: string;

beforeAll(async () => {
  let stateBucket: string;
  [{ file: bundle }, checkpointTable, lakeBucket, stateBucket] = await Promise.all([
    bundleFunction(FUNCTION_ENTRIES.clickstream, tempDir('sluice-bundle-')),
    createCheckpointTable(uniqueName('checkpoint')),
    createBucket(uniqueName('lake')),
    createBucket(uniqueName('state')),
  ]);
  queryId = uniqueName('clicks');
  topic = uniqueName('clicks');
  env = {
    SLUICE_QUERY_ID: queryId,
    SLUICE_CHECKPOINT_TABLE: checkpointTable,
    SLUICE_STATE_BUCKET: stateBucket,
    SLUICE_SOURCE: JSON.stringify({
      kind: 'kafka',
      bootstrapServers: inject('kafkaBootstrapServers').split(','),
      topic,
      startingOffsets: 'earliest',
      maxOffsetsPerTrigger: 200,
    }),
    SLUICE_SINK: JSON.stringify({ kind: 'delta', bucket: lakeBucket, path: 'tables/clicks' }),
    SLUICE_TRIGGER_INTERVAL: '500 milliseconds',
    SLUICE_SCHEDULE_INTERVAL: '2 seconds',
    SLUICE_SAFETY_MARGIN_MS: '1000',
    // short, so that the lease of the invocation killed in round 3 soon expires
    SLUICE_LEASE_MS: '3000',
    ...localLambdaEnvironment({ dynamoDb: inject('dynamoDbEndpoint'), s3: inject('s3Endpoint') }),
  };
});

/** Produces a round of clicks, spread over the topic's 4 partitions. */
async function produceRound(round: readonly Click[]): Promise<void> {
  await produce(
    topic,
    round.map((c, i) => ({ partition: i % 4, key: c.user, value: c.value })),
  );
}

/** The handler's result, failing with the container's stderr when the invocation did not return. */
function resultOf(outcome: InvocationOutcome, container: LambdaContainer): MicroBatchResult {
  if (outcome.kind !== 'result') {
    throw new Error(
      `The invocation ended with ${JSON.stringify(outcome)}; stderr:\n${container.errors.join('\n')}`,
    );
  }
  return outcome.value as MicroBatchResult;
}

/** Every result the job's invocations returned, in order. */
const results: MicroBatchResult[] = [];

async function invoke(container: LambdaContainer, remainingMs = TIMEOUT_MS) {
  const result = resultOf(await container.invoke(scheduledEvent(), { remainingMs }), container);
  results.push(result);
  return result;
}

/**
 * Invokes `container` until an invocation gets the query: the lease of an invocation killed at its
 * timeout is held until it expires, at most SLUICE_LEASE_MS after the kill.
 */
async function invokeWhenFree(container: LambdaContainer): Promise<MicroBatchResult> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const result = await invoke(container);
    if (result.stoppedBecause !== 'lease-held') return result;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('The query stayed leased for 10 seconds after its holder was killed.');
}

/** Invokes `container` until an invocation finds no new input. */
async function drain(container: LambdaContainer): Promise<void> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const result = await invoke(container);
    if (result.stoppedBecause !== 'lease-held' && result.numInputRows === 0) return;
  }
  throw new Error('The query did not catch up with its input within 10 invocations.');
}

/** The progress records of the batches a container committed, from its log lines. */
function committedProgress(container: LambdaContainer): StreamingQueryProgress[] {
  return container
    .jsonLines()
    .filter((l) => l.message === 'batch committed')
    .map((l) => l.progress as StreamingQueryProgress);
}

/** Rows of the canonical query's result as sorted comparable strings. */
function canonical(rows: readonly RowObject[]): string[] {
  return rows
    .map((r) => {
      const w = r.window as { start: number; end: number };
      return JSON.stringify([w.start, w.end, r.category, r.count]);
    })
    .sort();
}

describe('the micro-batch function bundle', () => {
  it('fails its cold start, naming the setting, when the configuration is invalid', async () => {
    const start = LambdaContainer.start({
      bundle,
      env: { ...env, SLUICE_SINK: JSON.stringify({ kind: 'delta', bucket: 'Lake_Bucket' }) },
    });
    await expect(start).rejects.toBeInstanceOf(LambdaInitError);
    await expect(start).rejects.toMatchObject({
      errorType: 'InvalidOptionError',
      errorMessage: expect.stringMatching(/^SLUICE_SINK is invalid: bucket: .*bucket name.*path/),
    });
  });

  // The containers of the job, kept for the observability test that follows.
  const containers: LambdaContainer[] = [];
  afterAll(async () => {
    await Promise.all(containers.map((c) => c.stop()));
  });
  async function container(overrides: Record<string, string> = {}): Promise<LambdaContainer> {
    const started = await LambdaContainer.start({ bundle, env: { ...env, ...overrides } });
    containers.push(started);
    return started;
  }

  it(
    "runs the canonical job through overlapping, cut-off and killed invocations into a Delta table equal to the batch query's result",
    { timeout: 240_000 },
    async () => {
      const rounds = clickRounds(4, 500);
      const fate = fates(rounds);
      const slowPuts = { count: 0 };
      const slowS3 = await startHttpRelay({
        target: inject('s3Endpoint'),
        delayMs: (request) => (request.method === 'PUT' ? SLOW_PUT_MS : 0),
        onRequest: (request) => {
          if (request.method === 'PUT') slowPuts.count++;
        },
      });
      try {
        // Round 0, one container: a trigger interval shorter than the schedule's period runs
        // several batches per invocation.
        const a = await container();
        await produceRound(rounds[0]);
        const first = await invoke(a);
        expect(first.batchesCommitted).toBeGreaterThanOrEqual(2);
        await drain(a);

        // Round 1: two invocations at once. One runs the query; the other finds the lease held.
        const b = await container();
        await produceRound(rounds[1]);
        const both = await Promise.all([invoke(a), invoke(b)]);
        expect(both.map((r) => r.stoppedBecause).filter((s) => s === 'lease-held')).toHaveLength(1);
        expect(both.find((r) => r.stoppedBecause === 'lease-held')!.batchesCommitted).toBe(0);
        await drain(a);

        // Round 2: an invocation whose remaining time runs out during its batch (S3 writes are
        // slow) abandons the batch before its commit; the next invocation re-runs it.
        // (state in S3 objects, not in the commit, so that the batch writes them)
        const c = await container({
          AWS_ENDPOINT_URL_S3: slowS3.endpoint,
          SLUICE_INLINE_STATE_MAX_BYTES: '0',
        });
        await produceRound(rounds[2]);
        slowPuts.count = 0;
        const cutOff = resultOf(
          await c.invoke(scheduledEvent(), { remainingMs: 6_000, killAfterMs: 60_000 }),
          c,
        );
        expect(cutOff).toMatchObject({ stoppedBecause: 'abandoned', batchesCommitted: 0 });
        expect(slowPuts.count).toBeGreaterThan(0);
        const abandoned = c.jsonLines().find((l) => l.kind === 'abandoned');
        expect(abandoned).toMatchObject({ level: 'WARN', queryId });
        const resumed = await invoke(a);
        expect(resumed.batchIds[0]).toBe(abandoned!.batchId);
        await drain(a);

        // Round 3: an invocation killed at its timeout in the middle of its batch. The batch's
        // intent is in the checkpoint; the next invocation runs exactly that batch.
        const d = await container({
          AWS_ENDPOINT_URL_S3: slowS3.endpoint,
          SLUICE_INLINE_STATE_MAX_BYTES: '0',
        });
        await produceRound(rounds[3]);
        slowPuts.count = 0;
        const killed = await d.invoke(scheduledEvent(), { remainingMs: 5_000 });
        expect(killed.kind).toBe('timeout');
        expect(slowPuts.count).toBeGreaterThan(0);
        const checkpoint = new DynamoDbCheckpointStore({
          client: dynamoClient(),
          tableName: checkpointTable,
          queryId,
        });
        const interrupted = (await checkpoint.latestCommit())!.batchId + 1;
        const intent = await checkpoint.getIntent(interrupted);
        expect(intent).toBeDefined();
        const rerun = await invokeWhenFree(a);
        expect(rerun.batchIds[0]).toBe(interrupted);
        const rerunProgress = committedProgress(a).find((p) => p.batchId === interrupted)!;
        expect(rerunProgress.sources[0].endOffset).toEqual(intent!.end[0]);
        await drain(a);

        // Round 4: a click a day later moves the watermark past every window.
        await produceRound(rounds[4]);
        await drain(a);
      } finally {
        await slowS3.stop();
      }

      const batchIds = results.flatMap((r) => r.batchIds);
      expect(batchIds).toEqual(batchIds.map((_, i) => i)); // each batch committed once, in order
      const clicks = rounds.flat();
      expect(results.reduce((n, r) => n + r.numInputRows, 0)).toBe(clicks.length);
      const counted = clicks.filter((_, i) => fate.flat()[i] === 'counted');
      const dropped = clicks.length - counted.length;
      expect(dropped).toBeGreaterThan(0);
      const progress = containers.flatMap(committedProgress);
      expect(progress.reduce((n, p) => n + p.lateRowsDropped, 0)).toBe(dropped);

      const written = canonical(await deltaTableRows(s3Client(), lakeBucket, 'tables/clicks'));
      const session = new SluiceSession();
      // The batch query over the counted clicks; the last click's window is still open.
      const input = session.createDataFrame(
        counted.slice(0, -1).map((c) => ({ value: c.value })),
        'value STRING',
      );
      const expected = canonical(await clickstreamQuery.query(input, session).collect());
      expect(expected.length).toBeGreaterThan(10);
      expect(written).toEqual(expected);
    },
  );

  it("logs JSON lines with the query id, the batch id and each batch's progress, and publishes the alarms' metrics in one EMF document per committing invocation", () => {
    const [a] = containers;
    expect(a).toBeDefined();
    const lines = a.jsonLines();
    const logs = lines.filter((l) => !('_aws' in l));
    expect(logs.length).toBeGreaterThan(10);
    for (const log of logs) expect(log).toMatchObject({ queryId, service: 'sluice-microbatch' });
    const committed = logs.filter((l) => l.message === 'batch committed');
    for (const log of committed) {
      expect(log.batchId).toBe((log.progress as StreamingQueryProgress).batchId);
      expect(log.function_request_id).toEqual(expect.any(String));
    }
    const loads = committed.map((l) => (l.progress as StreamingQueryProgress).stateLoad);
    expect(loads[0]).toBe('cold');
    expect(loads).toContain('warm');

    // one EMF document per invocation that committed a batch, none from the others
    const documents = lines.filter((l) => '_aws' in l);
    const committing = new Set(committed.map((l) => l.function_request_id));
    expect(documents).toHaveLength(committing.size);
    for (const document of documents) {
      expect(document._aws).toMatchObject({
        CloudWatchMetrics: [{ Namespace: 'Sluice', Dimensions: [['QueryId']] }],
      });
      expect(document.QueryId).toBe(queryId);
    }
    const metricNames = new Set(
      documents.flatMap((d) =>
        (
          d._aws as { CloudWatchMetrics: { Metrics: { Name: string }[] }[] }
        ).CloudWatchMetrics[0].Metrics.map((m) => m.Name),
      ),
    );
    // by default only the metrics the alarms read
    expect([...metricNames].sort()).toEqual(
      expect.arrayContaining(['BatchesCommitted', 'WatermarkDelayMs']),
    );
    for (const name of metricNames) {
      expect(['BatchesCommitted', 'SourceLagRecords', 'WatermarkDelayMs']).toContain(name);
    }
    const batches = documents.flatMap((d) => [d.BatchesCommitted].flat() as number[]);
    expect(batches.reduce((n, v) => n + v, 0)).toBe(committed.length);
  });
});
