/**
 * The harness of the stateful-operator benchmark (`npm run bench:stateful`), shared by its parts
 * (stateful-dedup.ts, stateful-session.ts, stateful-join.ts): a seeded generator so every run sees
 * the same events, the cutting of events into micro-batches, and the timing of two contenders (the
 * engine and a hand-written loop) that must compute the same thing. Timing them the same way in
 * every part is what makes the parts' ratios comparable.
 */
import { type RowObject, Timestamp } from '../core/index.js';

/** Timed runs of each contender after the warm-up; the figures come from the median run. */
export const TIMED_RUNS = 3;

/**
 * The events each part generates: `SLUICE_BENCH_EVENTS` if set (a quick variant to iterate on, e.g.
 * 200000), else one million. Parts cut them into ten micro-batches whatever the count, so a smaller
 * run keeps the shape of the full one (batches, evictions, persisted versions).
 */
export const EVENT_COUNT = benchEventCount(process.env.SLUICE_BENCH_EVENTS);

/** The micro-batch size of every part: a tenth of the events. */
export const BATCH_SIZE = Math.ceil(EVENT_COUNT / 10);

/** `raw` as a count of events (an even one, so the join's impressions and clicks split evenly). */
function benchEventCount(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 1_000_000;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 20 || n % 2 !== 0)
    throw new RangeError(
      `SLUICE_BENCH_EVENTS is ${JSON.stringify(raw)}: set it to an even integer of at least 20, or unset it for one million.`,
    );
  return n;
}

/** A deterministic generator of numbers in [0, 1) (mulberry32) from `seed`. */
export function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The median of `values` (the upper one of an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** `events` cut into consecutive micro-batches of `size`. */
export function batchesOf<T>(events: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < events.length; i += size) out.push(events.slice(i, i + size));
  return out;
}

/**
 * `batches` as the engine is given them: the µs in column `column` as a Timestamp, made once before
 * any timing so that the engine is timed on its work, not on building its input.
 */
export function withTimestamps(
  batches: readonly (readonly RowObject[])[],
  column: string,
): RowObject[][] {
  return batches.map((batch) =>
    batch.map((row) => ({ ...row, [column]: Timestamp.fromEpochMicros(row[column] as number) })),
  );
}

/** What one part of the benchmark measured, events per second from the median run. */
export interface PartFigures {
  /** The part's name in the table: `dedup`, `session` or `join`. */
  readonly name: string;
  readonly engineEventsPerSecond: number;
  readonly loopEventsPerSecond: number;
  /** What both contenders computed, in words (e.g. `939,541 rows`). */
  readonly outcome: string;
}

/** The engine and the loop of one part; each run returns what it computed, as JSON-comparable data. */
export interface Contenders<O> {
  readonly engine: () => Promise<O>;
  readonly loop: () => O;
}

/**
 * Runs the engine and then the loop once to warm up and then `TIMED_RUNS` times, interleaved, each
 * run timed from its call to its return. Every run's outcomes must be equal (as JSON): otherwise the
 * figures would compare different work, so the process exits with status 1. Returns the median
 * runs' events per second over `eventCount` events, and the outcome.
 */
export async function timeContenders<O>(
  name: string,
  eventCount: number,
  contenders: Contenders<O>,
): Promise<{ engineEventsPerSecond: number; loopEventsPerSecond: number; outcome: O }> {
  const engine: number[] = [];
  const loop: number[] = [];
  let outcome: O | undefined;
  for (let run = 0; run <= TIMED_RUNS; run++) {
    let started = performance.now();
    const fromEngine = await contenders.engine();
    const engineSeconds = (performance.now() - started) / 1000;
    started = performance.now();
    const fromLoop = contenders.loop();
    const loopSeconds = (performance.now() - started) / 1000;
    if (JSON.stringify(fromEngine) !== JSON.stringify(fromLoop)) {
      console.error(
        `${name}: the engine computed ${JSON.stringify(fromEngine)} and the loop ${JSON.stringify(fromLoop)}: they differ.`,
      );
      process.exit(1);
    }
    outcome = fromLoop;
    if (run === 0) continue; // warm-up
    engine.push(eventCount / engineSeconds);
    loop.push(eventCount / loopSeconds);
  }
  return {
    engineEventsPerSecond: median(engine),
    loopEventsPerSecond: median(loop),
    outcome: outcome as O,
  };
}
