/**
 * Scale-out benchmark (`npm run bench:scale`): the canonical clickstream job (clicks per category in
 * ten-minute tumbling windows, a fifteen-minute watermark, appended to a Delta table) run as 1, 2 and
 * 4 shards, each shard the micro-batch function's bundle in a Lambda-like container of its own (a
 * separate OS process), all against DynamoDB Local, s3rver and the Kafka mock cluster, which this
 * benchmark starts. Relays in front of DynamoDB and S3 add a fixed latency to every request, as the
 * network between Lambda and AWS does, so that a shard waits on I/O as on Lambda and not only on
 * this machine's two cores. It prints figures (it asserts no timings) and ends with one JSON line:
 * {"shards": 4, "exact": B, "events_per_s_1": N, "events_per_s_4": N, "speedup_4_vs_1": R}.
 *
 * The query counts a category parsed out of each event, which the engine cannot know the topic's
 * partitioning follows, so with more than one shard it runs split at a repartition stage
 * (docs/repartition-stage.md): N shards are N stage-1 containers, which parse the events and write
 * them to the repartition topic keyed by category, and N stage-2 containers, which read that topic,
 * hold the counts and append to the Delta table, all running at once as their schedules would invoke
 * them. The events go to the source's partitions by category (spread so that the partitions carry
 * about the same number of events). Events are at most ten minutes out of order, under the
 * watermark's fifteen, so that no row is late and the streamed counts can be compared with the batch
 * query's: a last event of every category, far ahead, closes every window in every stage-2 shard.
 *
 * Each run has its own query id, topic and Delta table. It first drains the first WARM_UP_EVENTS
 * events, untimed, so that every container has compiled its code and opened its connections, as the
 * containers of a job that has run a while have: Lambda keeps a container for many invocations, and
 * eight cold containers compiling at once on two cores measured this machine, not the shards. Then
 * the rest of the events arrive, and the run's time is from the first invocation after that to the
 * end of the last: every shard is invoked again as soon as its invocation ends, until one commits no
 * batch (a stage-2 shard: one that starts after every stage-1 shard has finished). Events per second
 * count the timed events. `exact` is whether every run's table equals the batch query's result over
 * all the events.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CompressionTypes, Kafka, logLevel, Partitioners } from 'kafkajs';
import { type RowObject, SluiceSession } from '../core/index.js';
import { clickCounts } from '../examples/clickstream-query.js';
import { bundleFunction, FUNCTION_ENTRIES } from '../functions/build.js';
import { ENV } from '../functions/microbatch/configuration.js';
import type { MicroBatchResult } from '../functions/microbatch/handler.js';
import { launchAwsServices } from '../test/support/aws-services-launcher.js';
import { deltaTableRows } from '../test/support/delta-table-rows.js';
import { startHttpRelay } from '../test/support/http-relay.js';
import { startKafkaMockCluster } from '../test/support/kafka-mock-cluster.js';
import { LambdaContainer } from '../test/support/lambda-container.js';
import {
  createLocalBucket,
  createLocalCheckpointTable,
  localS3Client,
} from '../test/support/local-aws-clients.js';
import { localLambdaEnvironment } from '../test/support/local-lambda-environment.js';
import { type ClickEvent, generateClickEvents } from './clickstream-events.js';

/** Events per run: `SLUICE_BENCH_EVENTS` if set, else 200,000 (about five hours of clicks). */
const EVENTS = Number(process.env.SLUICE_BENCH_EVENTS ?? 200_000);
/** Events each run drains before its timed part (module doc). */
const WARM_UP_EVENTS = 20_000;
const SHARD_COUNTS = [1, 2, 4] as const;
/** The mock cluster's partitions of a new topic: one per shard at the most shards. */
const PARTITIONS = 4;
/** A round trip between Lambda and S3 or DynamoDB in the same region. */
const AWS_LATENCY_MS = 20;
/** Events a batch reads at most, so that every shard runs several batches. */
const MAX_OFFSETS_PER_TRIGGER = 10_000;
const TOPIC = 'clicks';
const PRODUCE_BATCH = 5_000;
const TIMEOUT_MS = 120_000;
/** How long a stage-2 shard that found nothing waits before it is invoked again. */
const IDLE_WAIT_MS = 100;
const STATE_BUCKET = 'sluice-state';
const LAKE_BUCKET = 'sluice-lake';
/** How far ahead of the last event the closing events are: far past the watermark's fifteen minutes. */
const CLOSING_AHEAD_MS = 24 * 60 * 60 * 1000;

/** What one run measured. */
interface Run {
  readonly shards: number;
  readonly seconds: number;
  readonly invocations: number;
  readonly batches: number;
  readonly exact: boolean;
}

/** The fewest events a run takes: the warm-up and a thousand timed ones. */
const MIN_EVENTS = WARM_UP_EVENTS + 1_000;

if (!Number.isInteger(EVENTS) || EVENTS < MIN_EVENTS) {
  throw new RangeError(
    `SLUICE_BENCH_EVENTS is ${JSON.stringify(process.env.SLUICE_BENCH_EVENTS)}: set it to an integer of at least ${MIN_EVENTS.toLocaleString('en')} (${WARM_UP_EVENTS.toLocaleString('en')} of them are the warm-up), or unset it for 200,000.`,
  );
}

/**
 * The partition of each category: the most frequent first, each to the partition with the fewest
 * events so far, so that no shard gets much more than its share.
 */
function categoryPartitions(events: readonly ClickEvent[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const e of events) counts.set(e.category, (counts.get(e.category) ?? 0) + 1);
  const load = new Array<number>(PARTITIONS).fill(0);
  const partitions = new Map<string, number>();
  for (const [category, n] of [...counts].sort((a, b) => b[1] - a[1])) {
    const p = load.indexOf(Math.min(...load));
    partitions.set(category, p);
    load[p] += n;
  }
  return partitions;
}

/**
 * The events, then one event of every category far ahead of them, which closes every window of its
 * category wherever it is counted: a shard's watermark follows the rows it reads.
 */
function eventsWithClosing(events: readonly ClickEvent[], partitions: Map<string, number>) {
  const closingMs =
    events.reduce((max, e) => Math.max(max, Date.parse(e.ts)), 0) + CLOSING_AHEAD_MS;
  const closing = [...partitions.keys()].map((category): ClickEvent => ({
    ts: new Date(closingMs).toISOString(),
    category,
    user: 'u0',
    page: '/p/0',
  }));
  return { all: [...events, ...closing], closingMs };
}

async function produce(
  bootstrapServers: string,
  topic: string,
  events: readonly ClickEvent[],
  partitions: Map<string, number>,
): Promise<void> {
  const producer = new Kafka({
    clientId: 'bench-scale',
    brokers: bootstrapServers.split(','),
    logLevel: logLevel.NOTHING,
  }).producer({ createPartitioner: Partitioners.DefaultPartitioner });
  await producer.connect();
  try {
    for (let from = 0; from < events.length; from += PRODUCE_BATCH) {
      await producer.send({
        topic,
        // the mock cluster keeps only about 5 MB per partition
        compression: CompressionTypes.GZIP,
        messages: events.slice(from, from + PRODUCE_BATCH).map((e) => ({
          partition: partitions.get(e.category)!,
          key: e.category,
          value: JSON.stringify(e),
        })),
      });
    }
  } finally {
    await producer.disconnect();
  }
}

/** `window-start category count` of each row, sorted: what the Delta table and the batch hold. */
function countLines(rows: readonly RowObject[]): string[] {
  return rows
    .map((r) => {
      const window = r.window as { start: Date };
      return `${window.start.toISOString()} ${String(r.category)} ${String(r.count)}`;
    })
    .sort();
}

/** The batch query's windows before the closing events' one. */
async function batchCounts(events: readonly ClickEvent[], closingMs: number): Promise<string[]> {
  const session = new SluiceSession();
  const input = session.createDataFrame(
    events.map((e) => ({ value: JSON.stringify(e) })),
    'value STRING',
  );
  const rows = await clickCounts(input).collect();
  return countLines(
    rows.filter((r) => (r.window as { start: Date }).start.getTime() < closingMs - 10 * 60_000),
  );
}

/** What an invocation names: the shard, and the stage of a split query's shard. */
interface ShardEvent {
  readonly stage?: 1 | 2;
  readonly shard: number;
}

/**
 * Invokes `container` as `event` names until an invocation commits no batch, one that starts once
 * `upstreamDone()` says every shard feeding it has finished; counts what it ran.
 */
async function drainShard(
  container: LambdaContainer,
  event: ShardEvent,
  upstreamDone: () => boolean = () => true,
) {
  let invocations = 0;
  let batches = 0;
  for (;;) {
    const last = upstreamDone();
    const outcome = await container.invoke(event, { remainingMs: TIMEOUT_MS });
    invocations++;
    if (outcome.kind !== 'result') {
      throw new Error(
        `Shard ${JSON.stringify(event)}'s invocation ended with ${JSON.stringify(outcome)}.`,
      );
    }
    const result = outcome.value as MicroBatchResult;
    batches += result.batchesCommitted;
    if (result.batchesCommitted === 0 && last) return { invocations, batches };
    if (result.batchesCommitted === 0) await new Promise((r) => setTimeout(r, IDLE_WAIT_MS));
  }
}

/** The shards of a run as invocations: one unsplit shard, or stage 1 and stage 2 of N each. */
function shardEvents(shards: number): ShardEvent[] {
  if (shards === 1) return [{ shard: 0 }];
  const stage = (s: 1 | 2) => Array.from({ length: shards }, (_, shard) => ({ stage: s, shard }));
  return [...stage(1), ...stage(2)];
}

/** Where a run's shards write and what they read. */
interface Services {
  readonly bundle: string;
  readonly table: string;
  readonly bootstrapServers: string;
  readonly dynamoDb: string;
  readonly s3: string;
}

/** The events of a run: drained untimed first, then timed; each category to its partition. */
interface RunEvents {
  readonly warmUp: readonly ClickEvent[];
  readonly timed: readonly ClickEvent[];
  readonly partitions: Map<string, number>;
}

/**
 * Runs the query as `shards` shards, each in its own container, over a topic of its own: the
 * warm-up events, drained untimed, then the timed ones; every shard is invoked until it has nothing
 * left. The time is from the first invocation after the warm-up to the end of the last.
 */
async function runShards(shards: number, services: Services, input: RunEvents) {
  const queryId = `clicks-${shards}`;
  const topic = `${TOPIC}-${shards}`;
  const tablePath = `tables/${queryId}`;
  const env = {
    [ENV.queryId]: queryId,
    [ENV.checkpointTable]: services.table,
    [ENV.stateBucket]: STATE_BUCKET,
    [ENV.source]: JSON.stringify({
      kind: 'kafka',
      bootstrapServers: services.bootstrapServers.split(','),
      topic,
      startingOffsets: 'earliest',
      maxOffsetsPerTrigger: MAX_OFFSETS_PER_TRIGGER,
    }),
    [ENV.sink]: JSON.stringify({ kind: 'delta', bucket: LAKE_BUCKET, path: tablePath }),
    ...(shards === 1 ? {} : { [ENV.parallelism]: String(shards) }),
    ...localLambdaEnvironment({ dynamoDb: services.dynamoDb, s3: services.s3 }),
  };
  const events = shardEvents(shards);
  const containers = await Promise.all(
    events.map(() => LambdaContainer.start({ bundle: services.bundle, env })),
  );
  const drainAll = () => {
    let stage1Running = events.filter((e) => e.stage === 1).length;
    return Promise.all(
      containers.map(async (c, i) => {
        if (events[i].stage !== 2) {
          const done = await drainShard(c, events[i]);
          stage1Running--;
          return done;
        }
        return drainShard(c, events[i], () => stage1Running === 0);
      }),
    );
  };
  try {
    await produce(services.bootstrapServers, topic, input.warmUp, input.partitions);
    await drainAll();
    await produce(services.bootstrapServers, topic, input.timed, input.partitions);
    const started = performance.now();
    const drained = await drainAll();
    const seconds = (performance.now() - started) / 1000;
    return {
      tablePath,
      figures: {
        shards,
        seconds,
        invocations: drained.reduce((n, d) => n + d.invocations, 0),
        batches: drained.reduce((n, d) => n + d.batches, 0),
      },
    };
  } finally {
    await Promise.all(containers.map((c) => c.stop()));
  }
}

/** The rows of the Delta table at `tablePath` of the lake bucket, as count lines. */
async function deltaCounts(s3Endpoint: string, tablePath: string): Promise<string[]> {
  return countLines(await deltaTableRows(localS3Client(s3Endpoint), LAKE_BUCKET, tablePath));
}

/** What a run's table has that the batch query's result has not, and the other way round. */
function reportDifference(shards: number, actual: string[], expected: string[]): void {
  const missing = expected.filter((line) => !actual.includes(line));
  const extra = actual.filter((line) => !expected.includes(line));
  console.log(
    `${shards} shards: ${missing.length} of the batch query's counts missing or different, ${extra.length} not in it; first ones:`,
  );
  for (const line of missing.slice(0, 5)) console.log(`  expected ${line}`);
  for (const line of extra.slice(0, 5)) console.log(`  got      ${line}`);
}

function report(runs: readonly Run[], events: number, windows: number): void {
  console.log(
    `bench:scale: ${(events + WARM_UP_EVENTS).toLocaleString('en')} events (the first ${WARM_UP_EVENTS.toLocaleString('en')} a warm-up, untimed), ${windows.toLocaleString('en')} (window, category) counts, ${AWS_LATENCY_MS} ms added to every S3 and DynamoDB request, ${os.availableParallelism()} cores`,
  );
  console.log('shards  seconds  events/s  invocations  batches  exact');
  for (const r of runs) {
    console.log(
      `${String(r.shards).padStart(6)}  ${r.seconds.toFixed(2).padStart(7)}  ${Math.round(
        events / r.seconds,
      )
        .toLocaleString('en')
        .padStart(
          8,
        )}  ${String(r.invocations).padStart(11)}  ${String(r.batches).padStart(7)}  ${r.exact}`,
    );
  }
  const one = runs.find((r) => r.shards === 1)!;
  const four = runs.find((r) => r.shards === 4)!;
  console.log(
    JSON.stringify({
      shards: 4,
      exact: runs.every((r) => r.exact),
      events_per_s_1: Math.round(events / one.seconds),
      events_per_s_4: Math.round(events / four.seconds),
      speedup_4_vs_1: Number((one.seconds / four.seconds).toFixed(2)),
    }),
  );
}

async function main(): Promise<void> {
  const events = generateClickEvents({ count: EVENTS, maxLatenessMs: 10 * 60_000 });
  const partitions = categoryPartitions(events);
  const { all, closingMs } = eventsWithClosing(events, partitions);
  const bundleDir = mkdtempSync(path.join(os.tmpdir(), 'sluice-bench-scale-'));
  const [bundle, aws, kafka] = await Promise.all([
    bundleFunction(FUNCTION_ENTRIES.clickstream, bundleDir),
    launchAwsServices(),
    startKafkaMockCluster(),
  ]);
  const dynamoRelay = await startHttpRelay({
    target: aws.dynamoDbEndpoint,
    latencyMs: AWS_LATENCY_MS,
  });
  // the shards commit to one Delta table: S3's conditional PUT decides which of them has a version
  const s3Relay = await startHttpRelay({
    target: aws.s3Endpoint,
    latencyMs: AWS_LATENCY_MS,
    enforceIfNoneMatch: true,
  });
  try {
    const [table] = await Promise.all([
      createLocalCheckpointTable(aws.dynamoDbEndpoint, 'sluice-checkpoints'),
      createLocalBucket(aws.s3Endpoint, STATE_BUCKET),
      createLocalBucket(aws.s3Endpoint, LAKE_BUCKET),
    ]);
    const input = {
      warmUp: all.slice(0, WARM_UP_EVENTS),
      timed: all.slice(WARM_UP_EVENTS),
      partitions,
    };
    const expected = await batchCounts(all, closingMs);
    const services: Services = {
      bundle: bundle.file,
      table,
      bootstrapServers: kafka.bootstrapServers,
      dynamoDb: dynamoRelay.endpoint,
      s3: s3Relay.endpoint,
    };
    const runs: Run[] = [];
    for (const shards of SHARD_COUNTS) {
      const { tablePath, figures } = await runShards(shards, services, input);
      const actual = await deltaCounts(aws.s3Endpoint, tablePath);
      const exact = JSON.stringify(actual) === JSON.stringify(expected);
      if (!exact) reportDifference(shards, actual, expected);
      runs.push({ ...figures, exact });
    }
    report(runs, input.timed.length, expected.length);
  } finally {
    await Promise.all([dynamoRelay.stop(), s3Relay.stop()]);
    await Promise.all([aws.stop(), kafka.stop()]);
    rmSync(bundleDir, { recursive: true, force: true });
  }
}

await main();
