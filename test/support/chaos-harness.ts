/**
 * The chaos harness: runs one seed's query on its world, crashes it at crash point k (an abort inside
 * the process: the CrashInjector's crash, after which nothing of that invocation runs), starts it
 * again cold on the same checkpoint (new session, stores and clients) until it has consumed all its
 * input, and compares the sink's content with the batch query over the same input.
 *
 * A seed first runs once without a crash to learn how many points a clean run passes; the harness
 * then crashes at each, at random pairs (a crash at k, then a crash at j of the recovery), runs two
 * invocations at once on the same checkpoint (a duplicated scheduled delivery), and holds one
 * invocation at a point while its retry runs to the end (a Lambda retried after a timeout while the
 * first is still alive), then lets the first go on.
 */
import {
  col,
  DataFrame,
  from_json,
  type InvocationResult,
  type RowObject,
  runInvocation,
  SluiceSession,
} from '../../core/index.js';
import type { StreamingRelation } from '../../core/plan/logical-plan.js';
import {
  CrashInjector,
  type CrashInjectorOptions,
  crashingSink,
  crashingSource,
  InjectedCrashPoint,
} from '../../core/testing/index.js';
import { CHAOS_EVENT_SCHEMA, chaosInput } from './chaos-input.js';
import { seededRandom } from '../../examples/seeded-random.js';
import {
  canonical,
  type ChaosQueryKind,
  chaosQuery,
  expectedOutput,
  outputSchema,
  rowIdentity,
} from './chaos-queries.js';
import {
  type ChaosAwsEndpoints,
  type ChaosBackend,
  type ChaosInputTopic,
  type ChaosSinkKind,
  type ChaosSourceKind,
  type ChaosWorld,
  chaosWorld,
} from './chaos-world.js';

/** One seed's setting. */
export interface ChaosScenario {
  readonly seed: number;
  readonly backend: ChaosBackend;
  readonly sink: ChaosSinkKind;
  readonly query: ChaosQueryKind;
  /** Where the input is read from. @default 'files' */
  readonly source?: ChaosSourceKind;
}

/** How a sink's content differed from the batch result: rows twice, rows missing, rows wrong or extra. */
export interface ChaosTally {
  readonly crashPoints: number;
  readonly duplicates: number;
  readonly losses: number;
  readonly mismatches: number;
  /** The failed runs, each as its seed, setting and points, to reproduce it. */
  readonly failures: readonly string[];
}

/** How one run's sink compared with the batch result. */
export type RunOutcome = Omit<ChaosTally, 'crashPoints' | 'failures'>;

/** Which runs of a seed the harness makes. */
export interface ChaosPlan {
  /** Crash at every `every`-th point of the clean run (1: at each). @default 1 */
  readonly every?: number;
  /** Random pairs of crashes. @default 2 */
  readonly pairs?: number;
  /** Also a duplicated delivery and a timed-out retry. @default true */
  readonly deliveries?: boolean;
}

/** How long a lease lasts in chaos runs: the next invocation takes over a crashed one at once. */
const SHORT_LEASE_MS = 1;

/** Where an invocation ended: its result, or the crash it met. */
type Ended = InvocationResult | InjectedCrashPoint;

/** Runs one invocation of the scenario's query on `world`. */
export async function invoke(
  world: ChaosWorld,
  scenario: ChaosScenario,
  injector: CrashInjector,
): Promise<Ended> {
  const parts = world.parts(injector);
  const session = new SluiceSession();
  const events = world.inputTopic
    ? kafkaEvents(session, world.inputTopic, scenario, injector)
    : session.readStream
        .schema(CHAOS_EVENT_SCHEMA)
        .option('maxFilesPerTrigger', 1)
        .format('json')
        .load(parts.input);
  try {
    const execution = await chaosQuery(scenario.query, scenario.sink === 'kafka', events)
      .writeStream.outputMode('append')
      .sink(crashingSink(parts.sink, injector))
      .checkpoint(parts.backend)
      // Snapshots every other version, and old versions collected, even in runs of a few batches.
      .optionsFrom({ numStatePartitions: 4, snapshotInterval: 2, minBatchesToRetain: 2 })
      .check()
      .start({ leaseDurationMs: SHORT_LEASE_MS });
    return await runInvocation(execution, {
      remainingMs: () => 600_000,
      safetyMarginMs: 0,
      firstBatchEstimateMs: 0,
    });
  } catch (error) {
    // Once the injector crashed, whatever the invocation threw is the crash (an error may wrap it).
    if (injector.crashed) return injector.crashed;
    throw error;
  } finally {
    parts.close();
  }
}

/**
 * The events of the input topic as a stream, from its earliest offsets, its source crashed by
 * `injector` at each fetch. The stateless query reads 2 to 4 records a batch (by the seed). The
 * windowed query reads all there is in one batch: a limit is split across the partitions by their
 * lag, so one batch can reach events of one partition minutes ahead of another's, and the watermark
 * then drops the other's as late, as Spark does; the batch query over the input drops nothing.
 */
function kafkaEvents(
  session: SluiceSession,
  input: ChaosInputTopic,
  scenario: ChaosScenario,
  injector: CrashInjector,
): DataFrame {
  const reader = session.readStream
    .format('kafka')
    .option('kafka.bootstrap.servers', input.brokers)
    .option('subscribe', input.topic)
    .option('startingOffsets', 'earliest');
  if (scenario.query === 'stateless')
    reader.option('maxOffsetsPerTrigger', 2 + (scenario.seed % 3));
  const records = reader.load();
  const plan = records.plan as StreamingRelation;
  const crashing = new DataFrame(session, {
    ...plan,
    source: (context) => crashingSource(plan.source(context), injector),
  });
  return crashing
    .select(from_json(col('value').cast('string'), CHAOS_EVENT_SCHEMA).alias('event'))
    .select(
      col('event.id').alias('id'),
      col('event.ts').alias('ts'),
      col('event.category').alias('category'),
    );
}

/** Invocations without a crash until one has nothing left to do. */
export async function runToEnd(world: ChaosWorld, scenario: ChaosScenario): Promise<void> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const ended = await invoke(world, scenario, new CrashInjector());
    if (!(ended instanceof InjectedCrashPoint) && ended.stoppedBecause === 'idle') return;
    await new Promise((resolve) => setTimeout(resolve, SHORT_LEASE_MS + 1));
  }
  throw new Error(
    `seed ${scenario.seed}: the query did not reach the end of its input in 20 invocations`,
  );
}

/** How the sink's content compares with the batch result. */
export async function compareOutput(
  world: ChaosWorld,
  scenario: ChaosScenario,
  events: readonly RowObject[],
): Promise<RunOutcome> {
  const kafka = scenario.sink === 'kafka';
  const identity = (row: RowObject) => rowIdentity(scenario.query, kafka, row);
  const expected = new Map<string, string>();
  for (const row of await expectedOutput(scenario.query, kafka, events)) {
    expected.set(identity(row), JSON.stringify(canonical(row)));
  }
  if (expected.size === 0) {
    throw new Error(
      `seed ${scenario.seed}: the batch result is empty, so the comparison would prove nothing; pick another seed`,
    );
  }
  const seen = new Map<string, number>();
  let mismatches = 0;
  for (const row of await world.output(outputSchema(scenario.query, kafka))) {
    const id = identity(row);
    seen.set(id, (seen.get(id) ?? 0) + 1);
    if (expected.get(id) !== JSON.stringify(canonical(row))) mismatches++;
  }
  const duplicates = [...seen.values()].reduce((sum, n) => sum + n - 1, 0);
  const losses = [...expected.keys()].filter((id) => !seen.has(id)).length;
  return { duplicates, losses, mismatches };
}

/** One run on a fresh world: `disturb` (crashes, overlaps), then invocations to the end, then the comparison. */
export async function checkedRun(
  scenario: ChaosScenario,
  aws: ChaosAwsEndpoints | undefined,
  disturb: (world: ChaosWorld) => Promise<void>,
): Promise<RunOutcome> {
  const input = chaosInput(scenario.seed);
  const world = await chaosWorld({ ...scenario, files: input.files, aws });
  try {
    await disturb(world);
    await runToEnd(world, scenario);
    return await compareOutput(world, scenario, input.events);
  } finally {
    await world.dispose();
  }
}

/** How many crash points a clean run of the scenario passes. */
export async function cleanRunPoints(
  scenario: ChaosScenario,
  aws?: ChaosAwsEndpoints,
): Promise<number> {
  let points = 0;
  const outcome = await checkedRun(scenario, aws, async (world) => {
    const injector = new CrashInjector();
    await invoke(world, scenario, injector);
    points = injector.points;
  });
  const failed = outcome.duplicates + outcome.losses + outcome.mismatches;
  if (failed > 0)
    throw new Error(
      `seed ${scenario.seed}: a clean run differs from the batch result: ${JSON.stringify(outcome)}`,
    );
  return points;
}

/**
 * Crashes at the points `crashes` names in turn: the first invocation at `crashes[0]`, its first
 * recovery at `crashes[1]`, ...; then runs to the end and compares. A point a run does not reach is
 * no crash: the returned count says how many crashes happened.
 */
export async function crashRun(
  scenario: ChaosScenario,
  crashes: readonly CrashInjectorOptions[],
  aws?: ChaosAwsEndpoints,
): Promise<Omit<ChaosTally, 'failures'>> {
  let crashPoints = 0;
  const outcome = await checkedRun(scenario, aws, async (world) => {
    for (const options of crashes) {
      const ended = await invoke(world, scenario, new CrashInjector(options));
      if (ended instanceof InjectedCrashPoint) crashPoints++;
    }
  });
  return { crashPoints, ...outcome };
}

/** Two invocations at once on the same checkpoint, as a duplicated scheduled event starts them. */
export async function duplicatedDelivery(
  scenario: ChaosScenario,
  aws?: ChaosAwsEndpoints,
): Promise<RunOutcome> {
  return checkedRun(scenario, aws, async (world) => {
    await Promise.all([
      invoke(world, scenario, new CrashInjector()),
      invoke(world, scenario, new CrashInjector()),
    ]);
  });
}

/**
 * An invocation held at point `pauseAt` while a retry runs to the end (its lease has expired, as a
 * timed-out invocation's has), then let go on: it must neither commit nor change the sink's content.
 */
export async function timedOutRetry(
  scenario: ChaosScenario,
  pauseAt: number,
  aws?: ChaosAwsEndpoints,
): Promise<RunOutcome> {
  return checkedRun(scenario, aws, async (world) => {
    const stale = new CrashInjector({ pauseAt });
    const first = invoke(world, scenario, stale);
    const reached = await Promise.race([stale.paused.then(() => true), first.then(() => false)]);
    await new Promise((resolve) => setTimeout(resolve, SHORT_LEASE_MS + 1));
    await runToEnd(world, scenario);
    stale.resume();
    if (reached) await first;
  });
}

/** Every run the plan asks for on one scenario, tallied. */
export async function chaosSeed(
  scenario: ChaosScenario,
  plan: ChaosPlan = {},
  aws?: ChaosAwsEndpoints,
): Promise<ChaosTally> {
  const points = await cleanRunPoints(scenario, aws);
  const random = seededRandom(scenario.seed * 7919 + 1);
  const pick = () => Math.floor(random() * points);
  const runs: { label: string; run: () => Promise<Omit<ChaosTally, 'failures'>> }[] = [];
  for (let k = 0; k < points; k += plan.every ?? 1) {
    runs.push({ label: `crash at ${k}`, run: () => crashRun(scenario, [{ crashAt: k }], aws) });
  }
  for (let i = 0; i < (plan.pairs ?? 2); i++) {
    const pair = [pick(), pick()];
    runs.push({
      label: `crash at ${pair[0]} then at ${pair[1]} of the recovery`,
      run: () =>
        crashRun(
          scenario,
          pair.map((crashAt) => ({ crashAt })),
          aws,
        ),
    });
  }
  if (plan.deliveries ?? true) {
    const pauseAt = pick();
    runs.push({
      label: 'duplicated delivery',
      run: async () => ({ crashPoints: 1, ...(await duplicatedDelivery(scenario, aws)) }),
    });
    runs.push({
      label: `retry while the first is held at ${pauseAt}`,
      run: async () => ({ crashPoints: 1, ...(await timedOutRetry(scenario, pauseAt, aws)) }),
    });
  }
  const tally = {
    crashPoints: 0,
    duplicates: 0,
    losses: 0,
    mismatches: 0,
    failures: [] as string[],
  };
  for (const { label, run } of runs) {
    const outcome = await run();
    tally.crashPoints += outcome.crashPoints;
    tally.duplicates += outcome.duplicates;
    tally.losses += outcome.losses;
    tally.mismatches += outcome.mismatches;
    if (outcome.duplicates + outcome.losses + outcome.mismatches > 0) {
      tally.failures.push(`${JSON.stringify(scenario)} ${label}: ${JSON.stringify(outcome)}`);
    }
  }
  return tally;
}
