/**
 * Checkpoint benchmark (`npm run bench:checkpoint`): the commit protocol of docs/architecture.md
 * section 3 on DynamoDB Local and s3rver, which it starts itself (in a child process, as the tests
 * do) and stops at the end. It prints figures and asserts no timings; it exits with status 1 only
 * when the engine computed a wrong state (then the figures would mean nothing).
 *
 * The query is `groupBy('key').count()` over a memory stream in update mode, with 16 state
 * partitions and a snapshot every 10 versions: no per-batch work of that query depends on the keys
 * held, so whatever grows with them is the checkpoint's doing. Output goes to a sink that discards
 * it, since the sink is not what is measured. Every request the AWS clients send is counted by a
 * middleware, per batch and by command (S3 objects also by kind: delta, snapshot, manifest).
 *
 * 1. A small batch: requests per batch on a new checkpoint, on the warm path (the same execution
 *    again) and on the cold path (new clients and a new execution, as a new Lambda container), and
 *    the duration breakdown of each.
 * 2. State scaling for 10k, 100k and 1M keys: batch 0 loads N keys; then warm batches that each
 *    update (a) 1% of N keys and (b) a fixed 1,000 keys; then one more warm batch (version 9, at
 *    which, without state in the commit, every partition's delta chain would be full); then a cold
 *    batch (new container) whose load step reads the state from S3. A partition snapshots on its
 *    turn only once its changes since its snapshot are worth it (state-repository.ts), so which
 *    warm batches snapshot depends on the keys held: the snapshots table counts them.
 *
 * 3. Takeover after a crash (lease-takeover.ts): a batch killed mid-way, then a new invocation
 *    every second until one commits; with the default lease and, side by side, an 8-second one.
 *
 * A first, untimed pass of the smallest scale warms up the engine and the local services.
 *
 * The last line of output is one JSON object: {"ddb_requests_per_batch", "s3_puts_per_batch",
 * "changed_partitions"} of the small warm batch with the most S3 PUTs, {"warm_ms_10k",
 * "warm_ms_1m", "warm_1m_vs_10k"}: the median warm batch at 1,000 changed keys, {"cold_load_ms_1m"},
 * and {"takeover_after_crash_s", "takeover_after_crash_s_lease_8s"}: seconds from the crash to the
 * commit by the invocation that took over, with the default lease and with an 8-second one.
 */
import { randomUUID } from 'node:crypto';
import {
  type CheckpointBackend,
  DEFAULT_LEASE_MS,
  type DataFrame,
  type MemoryStream,
  MicroBatchExecution,
  type Sink,
  SluiceSession,
  type StreamingQueryProgress,
} from '../core/index.js';
import { awsCheckpointBackend } from '../core/aws/index.js';
import { KeyedStateStore } from '../core/state/keyed-state-store.js';
import { launchAwsServices } from '../test/support/aws-services-launcher.js';
import {
  createLocalBucket,
  createLocalCheckpointTable,
  localDynamoClient,
  localS3Client,
} from '../test/support/local-aws-clients.js';
import { takeoverAfterCrash, type TakeoverFigures } from './lease-takeover.js';
import { seededRandom } from '../examples/seeded-random.js';

const PARTITIONS = 16;
const SNAPSHOT_INTERVAL = 10;
/** Keys of the small query's first batch, and keys each of its later batches updates. */
const SMALL_KEYS = 1_000;
const SMALL_CHANGED_KEYS = 5;
const SMALL_WARM_BATCHES = 5;
const SCALES = [10_000, 100_000, 1_000_000];
/** The same number of changed keys at every scale, so the scales can be compared. */
const FIXED_CHANGED_KEYS = 1_000;
/** Warm batches per series; with batch 0 they fill a delta chain up to just before its snapshot. */
const SERIES_BATCHES = 4;
const STEPS = ['lease', 'plan', 'load', 'run', 'persist', 'sink', 'commit'] as const;

/** Discards the output: the sink is not what is measured, and doing nothing is idempotent per batch. */
const DISCARD: Sink = { description: 'discard', addBatch: async () => {} };

const COUNTER_STEP = { step: 'initialize', name: 'benchRequestCounter' } as const;

/** Counts the requests AWS clients send, by service, command and (for S3 objects) the kind of object. */
class RequestCounter {
  private counts = new Map<string, number>();

  /**
   * A middleware for the 'initialize' step of `service`'s client, which runs once per command
   * (before serialization and the retry loop, so retries are not counted again).
   */
  middleware(service: 'DynamoDB' | 'S3') {
    return <I extends { input: object }, O>(
        next: (args: I) => Promise<O>,
        context: { commandName?: string },
      ) =>
      (args: I): Promise<O> => {
        const kind = objectKind((args.input as { Key?: unknown }).Key);
        this.add(`${service} ${context.commandName?.replace(/Command$/, '')}${kind}`);
        return next(args);
      };
  }

  /** The counts since the last call. */
  take(): Map<string, number> {
    const counts = this.counts;
    this.counts = new Map();
    return counts;
  }

  private add(label: string): void {
    this.counts.set(label, (this.counts.get(label) ?? 0) + 1);
  }
}

/** ` (delta)`, ` (snapshot)` or ` (manifest)` for a state object's key; '' for anything else. */
function objectKind(key: unknown): string {
  if (typeof key !== 'string') return '';
  if (key.includes('/state/manifests/')) return ' (manifest)';
  const extension = /\.(delta|snapshot)$/.exec(key);
  return extension ? ` (${extension[1]})` : '';
}

/** One table and one bucket on the local services, shared by every query of the run. */
interface Services {
  readonly dynamoDbEndpoint: string;
  readonly s3Endpoint: string;
  readonly tableName: string;
  readonly bucket: string;
}

/** What a Lambda container holds: its own clients (watched by `counter`) and the query's backend. */
interface Container {
  readonly backend: CheckpointBackend;
  readonly counter: RequestCounter;
  readonly destroy: () => void;
}

function newContainer(services: Services, queryId: string): Container {
  const dynamodb = localDynamoClient(services.dynamoDbEndpoint);
  const s3 = localS3Client(services.s3Endpoint);
  const counter = new RequestCounter();
  dynamodb.middlewareStack.add(counter.middleware('DynamoDB'), COUNTER_STEP);
  s3.middlewareStack.add(counter.middleware('S3'), COUNTER_STEP);
  const backend = awsCheckpointBackend({
    tableName: services.tableName,
    bucket: services.bucket,
    queryId,
    clients: { dynamodb, s3 },
  });
  return {
    backend,
    counter,
    destroy: () => {
      dynamodb.destroy();
      s3.destroy();
    },
  };
}

/** The benchmark's query: rows per key, over a memory stream of keys. */
function keyCounts(): { input: MemoryStream; df: DataFrame } {
  const session = new SluiceSession();
  const input = session.memoryStream('key STRING', 'keys');
  return { input, df: session.readStream.memory(input).groupBy('key').count() };
}

function startExecution(container: Container, df: DataFrame): Promise<MicroBatchExecution> {
  return MicroBatchExecution.start({
    ...container.backend,
    plan: df.plan,
    outputMode: 'update',
    sink: DISCARD,
    numStatePartitions: PARTITIONS,
    snapshotInterval: SNAPSHOT_INTERVAL,
  });
}

/** What one batch did. */
interface BatchFigures {
  readonly progress: StreamingQueryProgress;
  readonly requests: Map<string, number>;
  /** State partitions holding a key of the batch (computed from the keys, not from the requests). */
  readonly changedPartitions: number;
}

const partitioner = new KeyedStateStore(PARTITIONS);

/**
 * Feeds one row per key and runs the next batch. Checks the state the batch left (`keysHeld` keys,
 * one updated per distinct key) and that it was as warm or cold as expected.
 */
async function runBatch(
  execution: MicroBatchExecution,
  container: Container,
  input: MemoryStream,
  keys: readonly string[],
  expected: { keysHeld: number; stateLoad: 'warm' | 'cold' },
): Promise<BatchFigures> {
  input.addData(keys.map((key) => ({ key })));
  container.counter.take(); // requests of earlier work are not this batch's
  const outcome = await execution.runNextBatch();
  const requests = container.counter.take();
  if (outcome.kind !== 'committed') throw new BenchmarkBroken(`a batch ended '${outcome.kind}'`);
  const { progress } = outcome;
  const state = progress.stateOperators[0];
  if (
    state.numRowsTotal !== expected.keysHeld ||
    state.numRowsUpdated !== keys.length ||
    progress.sink.numOutputRows !== keys.length ||
    progress.stateLoad !== expected.stateLoad
  ) {
    throw new BenchmarkBroken(
      `batch ${progress.batchId} holds ${state.numRowsTotal} keys (expected ${expected.keysHeld}), ` +
        `updated ${state.numRowsUpdated} and output ${progress.sink.numOutputRows} (expected ${keys.length}), ` +
        `state load '${progress.stateLoad}' (expected '${expected.stateLoad}')`,
    );
  }
  const changedPartitions = new Set(keys.map((k) => partitioner.partitionOf(k))).size;
  return { progress, requests, changedPartitions };
}

/** The engine computed something else than the benchmark expects: its figures would mean nothing. */
class BenchmarkBroken extends Error {}

/** Keys `k0` .. `k<n-1>`. */
function allKeys(n: number): string[] {
  return Array.from({ length: n }, (_, i) => `k${i}`);
}

/** `count` distinct keys out of `k0` .. `k<n-1>`, drawn by a seeded generator (the same every run). */
function sampleKeys(n: number, count: number, random: () => number): string[] {
  const picked = new Set<number>();
  while (picked.size < count) picked.add(Math.floor(random() * n));
  return [...picked].map((i) => `k${i}`);
}

function uniqueQueryId(label: string): string {
  return `bench-${label}-${randomUUID().slice(0, 8)}`;
}

function count(
  requests: Map<string, number>,
  service: 'DynamoDB' | 'S3',
  command?: string,
): number {
  let total = 0;
  for (const [label, n] of requests) {
    if (label.startsWith(`${service} ${command ?? ''}`)) total += n;
  }
  return total;
}

const s3Puts = (requests: Map<string, number>) => count(requests, 'S3', 'PutObject');

// ---- 1. a small batch ------------------------------------------------------------------------

interface SmallBatchResult {
  readonly first: BatchFigures;
  readonly warm: BatchFigures[];
  readonly cold: BatchFigures;
  /** Requests of an invocation outside its batches: start (metadata) and the lease release. */
  readonly perInvocation: Map<string, number>;
}

async function smallBatch(services: Services): Promise<SmallBatchResult> {
  const queryId = uniqueQueryId('small');
  const random = seededRandom(1);
  const { input, df } = keyCounts();
  const warmContainer = newContainer(services, queryId);
  const execution = await startExecution(warmContainer, df);
  const first = await runBatch(execution, warmContainer, input, allKeys(SMALL_KEYS), {
    keysHeld: SMALL_KEYS,
    stateLoad: 'cold',
  });
  const warm: BatchFigures[] = [];
  for (let i = 0; i < SMALL_WARM_BATCHES; i++) {
    const keys = sampleKeys(SMALL_KEYS, SMALL_CHANGED_KEYS, random);
    warm.push(
      await runBatch(execution, warmContainer, input, keys, {
        keysHeld: SMALL_KEYS,
        stateLoad: 'warm',
      }),
    );
  }
  await execution.stop();
  warmContainer.destroy();

  const coldContainer = newContainer(services, queryId);
  const coldExecution = await startExecution(coldContainer, df);
  const perInvocation = coldContainer.counter.take();
  const cold = await runBatch(
    coldExecution,
    coldContainer,
    input,
    sampleKeys(SMALL_KEYS, SMALL_CHANGED_KEYS, random),
    { keysHeld: SMALL_KEYS, stateLoad: 'cold' },
  );
  await coldExecution.stop();
  for (const [label, n] of coldContainer.counter.take()) {
    perInvocation.set(label, (perInvocation.get(label) ?? 0) + n);
  }
  coldContainer.destroy();
  return { first, warm, cold, perInvocation };
}

// ---- 2. state scaling --------------------------------------------------------------------------

interface ScaleResult {
  readonly keysHeld: number;
  readonly initial: BatchFigures;
  /** (a) 1% of the keys changed per batch. */
  readonly onePercent: BatchFigures[];
  /** (b) FIXED_CHANGED_KEYS changed per batch. */
  readonly fixed: BatchFigures[];
  /** The warm batch at version 9, where a chain of deltas would be full. */
  readonly snapshot: BatchFigures;
  /** A new container's first batch: the state comes from S3. */
  readonly cold: BatchFigures;
}

async function scale(services: Services, keysHeld: number): Promise<ScaleResult> {
  const queryId = uniqueQueryId(`scale-${keysHeld}`);
  const random = seededRandom(keysHeld);
  const { input, df } = keyCounts();
  const warm = { keysHeld, stateLoad: 'warm' } as const;
  const container = newContainer(services, queryId);
  const execution = await startExecution(container, df);
  const initial = await runBatch(execution, container, input, allKeys(keysHeld), {
    keysHeld,
    stateLoad: 'cold',
  });
  const series = async (changed: number): Promise<BatchFigures[]> => {
    const batches: BatchFigures[] = [];
    for (let i = 0; i < SERIES_BATCHES; i++) {
      const keys = sampleKeys(keysHeld, changed, random);
      batches.push(await runBatch(execution, container, input, keys, warm));
    }
    return batches;
  };
  const onePercent = await series(keysHeld / 100);
  const fixed = await series(FIXED_CHANGED_KEYS);
  const snapshot = await runBatch(
    execution,
    container,
    input,
    sampleKeys(keysHeld, FIXED_CHANGED_KEYS, random),
    warm,
  );
  await execution.stop();
  container.destroy();

  const coldContainer = newContainer(services, queryId);
  const coldExecution = await startExecution(coldContainer, df);
  const cold = await runBatch(
    coldExecution,
    coldContainer,
    input,
    sampleKeys(keysHeld, FIXED_CHANGED_KEYS, random),
    { keysHeld, stateLoad: 'cold' },
  );
  await coldExecution.stop();
  coldContainer.destroy();
  return { keysHeld, initial, onePercent, fixed, snapshot, cold };
}

// ---- output ------------------------------------------------------------------------------------

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Prints rows as a table: the first column left-aligned, the others right-aligned. */
function printTable(
  header: readonly string[],
  rows: readonly (readonly (string | number)[])[],
): void {
  const text = [header, ...rows].map((r) => r.map((c) => (typeof c === 'number' ? fmt(c) : c)));
  const widths = header.map((_, i) => Math.max(...text.map((r) => r[i].length)));
  for (const r of text) {
    console.log(
      r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  '),
    );
  }
  console.log();
}

function fmt(n: number): string {
  return Number.isInteger(n) ? n.toLocaleString('en-US') : n.toFixed(2);
}

function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

function printSmallBatch(result: SmallBatchResult): void {
  const batches: [string, BatchFigures][] = [
    ['first', result.first],
    ...result.warm.map((b): [string, BatchFigures] => ['warm', b]),
    ['cold', result.cold],
  ];
  const labels = [
    ...new Set([
      ...batches.flatMap(([, b]) => [...b.requests.keys()]),
      ...result.perInvocation.keys(),
    ]),
  ].sort();
  console.log(
    `Requests per batch, by kind: ${SMALL_KEYS.toLocaleString('en-US')} keys held, ` +
      `${SMALL_CHANGED_KEYS} keys changed per batch (the first batch, on a new checkpoint, writes all ` +
      `${SMALL_KEYS.toLocaleString('en-US')}; the cold one runs in a new container).`,
  );
  printTable(
    ['request', ...batches.map(([, b]) => `#${b.progress.batchId}`), 'per invocation'],
    [
      ['', ...batches.map(([name]) => name), '(start+release)'],
      ...labels.map((label) => [
        label,
        ...batches.map(([, b]) => b.requests.get(label) ?? 0),
        result.perInvocation.get(label) ?? 0,
      ]),
      [
        'DynamoDB total',
        ...batches.map(([, b]) => count(b.requests, 'DynamoDB')),
        count(result.perInvocation, 'DynamoDB'),
      ],
      ['S3 PUTs', ...batches.map(([, b]) => s3Puts(b.requests)), s3Puts(result.perInvocation)],
      ['changed partitions', ...batches.map(([, b]) => b.changedPartitions), ''],
    ],
  );
  console.log('Duration breakdown of the small batch (ms): first, median of the warm ones, cold.');
  const step = (b: BatchFigures, s: (typeof STEPS)[number] | 'triggerExecution') =>
    b.progress.durationMs[s];
  printTable(
    ['step', 'first', 'warm (median)', 'cold'],
    [...STEPS, 'triggerExecution' as const].map((s) => [
      s === 'triggerExecution' ? 'total' : s,
      step(result.first, s),
      median(result.warm.map((b) => step(b, s))),
      step(result.cold, s),
    ]),
  );
}

function printScaling(results: readonly ScaleResult[]): void {
  console.log(
    `State scaling: ${PARTITIONS} partitions, snapshot interval ${SNAPSHOT_INTERVAL}; ` +
      `medians of ${SERIES_BATCHES} warm batches per row.`,
  );
  const row = (keysHeld: number, label: string, batches: readonly BatchFigures[]) => [
    keysHeld,
    label,
    batches[0].progress.stateOperators[0].numRowsUpdated,
    median(batches.map((b) => b.progress.durationMs.triggerExecution)),
    Math.max(...batches.map((b) => b.progress.durationMs.triggerExecution)),
    median(batches.map((b) => b.progress.durationMs.persist)),
    kib(median(batches.map((b) => b.progress.stateBytesWritten))),
    median(batches.map((b) => s3Puts(b.requests))),
    median(batches.map((b) => b.changedPartitions)),
    median(batches.map((b) => count(b.requests, 'DynamoDB'))),
  ];
  printTable(
    [
      'keys held',
      'batch',
      'changed',
      'ms',
      'max ms',
      'persist ms',
      'written',
      'S3 PUTs',
      'partitions',
      'DynamoDB',
    ],
    results.flatMap((r) => [
      row(r.keysHeld, 'initial load', [r.initial]),
      row(r.keysHeld, '(a) warm, 1% changed', r.onePercent),
      row(r.keysHeld, '(b) warm, fixed changed', r.fixed),
      row(r.keysHeld, 'warm, version 9', [r.snapshot]),
      row(r.keysHeld, 'cold (new container)', [r.cold]),
    ]),
  );
  console.log(
    `Snapshots: the warm batches of each scale (${2 * SERIES_BATCHES + 1}), the snapshots they wrote ` +
      'and their state written to S3 and into commits, in all and per batch:',
  );
  printTable(
    ['keys held', 'warm batches', 'snapshots', 'with a snapshot', 'written', 'written per batch'],
    results.map((r) => {
      const warm = [...r.onePercent, ...r.fixed, r.snapshot];
      const snapshots = warm.map((b) => count(b.requests, 'S3', 'PutObject (snapshot)'));
      const written = warm.reduce((sum, b) => sum + b.progress.stateBytesWritten, 0);
      return [
        r.keysHeld,
        warm.length,
        snapshots.reduce((a, b) => a + b, 0),
        snapshots.filter((n) => n > 0).length,
        kib(written),
        kib(written / warm.length),
      ];
    }),
  );
  console.log(
    `Duration breakdown of the warm batches at ${FIXED_CHANGED_KEYS.toLocaleString('en-US')} changed keys (median ms).`,
  );
  printTable(
    ['step', ...results.map((r) => `${r.keysHeld.toLocaleString('en-US')} keys`)],
    [...STEPS, 'triggerExecution' as const].map((s) => [
      s === 'triggerExecution' ? 'total' : s,
      ...results.map((r) => median(r.fixed.map((b) => b.progress.durationMs[s]))),
    ]),
  );
  console.log(
    'Cold load: a new container runs the next batch; its load step reads the state from S3.',
  );
  printTable(
    ['keys held', 'load ms', 'GETs', 'batch ms', 'ms per 1k keys loaded'],
    results.map((r) => [
      r.keysHeld,
      r.cold.progress.durationMs.load,
      count(r.cold.requests, 'S3', 'GetObject'),
      r.cold.progress.durationMs.triggerExecution,
      (r.cold.progress.durationMs.load / r.keysHeld) * 1000,
    ]),
  );
}

function printTakeovers(takeovers: readonly TakeoverFigures[]): void {
  console.log(
    'Takeover after a crash mid-batch (a new invocation every second until one commits):',
  );
  printTable(
    ['lease (s)', 'takeover (s)', 'invocations'],
    takeovers.map((t) => [String(t.leaseSeconds), t.seconds, t.invocations]),
  );
}

async function main(): Promise<number> {
  const started = performance.now();
  const local = await launchAwsServices();
  try {
    const [tableName, bucket] = await Promise.all([
      createLocalCheckpointTable(
        local.dynamoDbEndpoint,
        `bench-checkpoints-${randomUUID().slice(0, 8)}`,
      ),
      createLocalBucket(local.s3Endpoint, `bench-state-${randomUUID().slice(0, 8)}`),
    ]);
    const services: Services = { ...local, tableName, bucket };
    const small = await smallBatch(services);
    // Untimed: brings this process's JIT, s3rver's and DynamoDB Local's to speed before any figure
    // counts, or the first scale would pay for it and look slower than the larger ones.
    await scale(services, SCALES[0]);
    const scales: ScaleResult[] = [];
    for (const keysHeld of SCALES) scales.push(await scale(services, keysHeld));
    // side by side, so the two leases see the same load
    const takeovers = await Promise.all(
      [DEFAULT_LEASE_MS, 8_000].map((leaseMs) => {
        const queryId = uniqueQueryId('takeover');
        return takeoverAfterCrash(() => newContainer(services, queryId), leaseMs);
      }),
    );

    console.log(
      `Checkpoint benchmark on DynamoDB Local and s3rver (loopback), query groupBy('key').count() ` +
        `in update mode, ${((performance.now() - started) / 1000).toFixed(0)} s.\n`,
    );
    printSmallBatch(small);
    printScaling(scales);
    printTakeovers(takeovers);

    const busiest = small.warm.reduce((a, b) => (s3Puts(b.requests) > s3Puts(a.requests) ? b : a));
    const warmMs = (r: ScaleResult) =>
      median(r.fixed.map((b) => b.progress.durationMs.triggerExecution));
    const [smallest, largest] = [scales[0], scales[scales.length - 1]];
    const figures = {
      ddb_requests_per_batch: Math.max(...small.warm.map((b) => count(b.requests, 'DynamoDB'))),
      s3_puts_per_batch: s3Puts(busiest.requests),
      changed_partitions: busiest.changedPartitions,
      warm_ms_10k: warmMs(smallest),
      warm_ms_1m: warmMs(largest),
      warm_1m_vs_10k: Math.round((warmMs(largest) / Math.max(warmMs(smallest), 1)) * 100) / 100,
      cold_load_ms_1m: largest.cold.progress.durationMs.load,
      takeover_after_crash_s: takeovers[0].seconds,
      takeover_after_crash_s_lease_8s: takeovers[1].seconds,
    };
    console.log(
      `Targets (warm path): DynamoDB requests <= 3: ${figures.ddb_requests_per_batch}; ` +
        `S3 PUTs <= 1 + changed partitions: ${figures.s3_puts_per_batch} <= ${1 + figures.changed_partitions}; ` +
        `1M vs 10k keys at ${FIXED_CHANGED_KEYS.toLocaleString('en-US')} changed <= 2: ${figures.warm_1m_vs_10k}; ` +
        `takeover after a crash <= 30 s (stretch 10): ${figures.takeover_after_crash_s} s (${figures.takeover_after_crash_s_lease_8s} s with an 8 s lease).`,
    );
    console.log(JSON.stringify(figures));
    return 0;
  } catch (e) {
    if (!(e instanceof BenchmarkBroken)) throw e;
    console.error(`The benchmark is broken: ${e.message}`);
    return 1;
  } finally {
    await local.stop();
  }
}

process.exitCode = await main();
