/**
 * Engine benchmark (`npm run bench:engine`): the canonical clickstream query over one million JSON
 * events held in memory, in events per second, for
 * - the engine as a stream: a MemoryStream fed in micro-batches, append mode, a local checkpoint,
 *   and a final event far in the future whose watermark closes every window;
 * - the same stream over the events as UTF-8 bytes, as Kafka delivers them (a binary `value`,
 *   read with `from_json(cast(value as string), ...)`);
 * - the engine as a batch query: createDataFrame + collect;
 * - a hand-written loop doing the same work (JSON.parse, Date.parse, window start, watermark check,
 *   Map counting): the reference, the speed of doing this query by hand in JavaScript;
 * - DuckDB on one thread, over the same events as an NDJSON file (the query is timed, not the write).
 *
 * In the engine, `from_json` decodes each batch's column of texts (or bytes, the cast fused) straight
 * into typed columns, building only `ts` and `category`, the fields the query reads.
 *
 * Figures are meaningless if the contenders compute different things, so every run's counts are
 * checked: the stream must equal the loop run micro-batch by micro-batch (a late event is dropped
 * when the watermark of the batches before it has closed its window), and the batch query and
 * DuckDB must equal the loop over all events at once. A mismatch exits with status 1.
 *
 * Each contender runs once to warm up, then three times, interleaved so that drift on the machine
 * hits all of them alike. Events per second and the ratios come from each one's median run; the
 * table also shows the best run, since on a shared machine other load only ever adds time. The
 * last line of output is one JSON object, with the stream as "engine":
 * {"engine_eps", "loop_eps", "duckdb_eps", "engine_vs_loop", "engine_vs_duckdb", "bytes_engine_eps",
 * "bytes_engine_vs_duckdb", "fixed_ms_per_batch"}.
 *
 * `SLUICE_BENCH_EVENTS=200000 npm run bench:engine` runs on fewer events (still in batches of
 * 100,000), to try a change quickly; bench/engine-profile.ts runs the stream alone for a profiler.
 *
 * The fixed cost per batch is what a batch costs beyond its rows: the median trigger time of
 * batches that carry a single event each (lease, plan, state load and persist, sink, commit), on a
 * query that already holds state.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { SluiceSession } from '../core/index.js';
import {
  addOutputRow,
  canonicalQuery,
  type Counts,
  type RunResult,
  asFetchedValues,
  runEngineStream,
} from './canonical-stream.js';
import { type ClickEvent, generateClickEventLines } from './clickstream-events.js';

/** Events per run: SLUICE_BENCH_EVENTS, to profile or try a change on fewer (default 1M). */
const EVENT_COUNT = eventCount(process.env.SLUICE_BENCH_EVENTS);
const BATCH_SIZE = 100_000;
const TIMED_RUNS = 3;
/** Single-event batches timed for the fixed cost per batch (after as many to warm up). */
const FIXED_COST_BATCHES = 30;
const WINDOW_MS = 10 * 60_000;
const WATERMARK_DELAY_MS = 15 * 60_000;

interface Contender {
  readonly label: string;
  readonly run: () => Promise<RunResult>;
  /** What its result must equal. */
  readonly expected: RunResult;
  readonly seconds: number[];
}

/**
 * The reference: the query written by hand. Events are taken `batchSize` at a time, like the
 * stream's micro-batches; within a batch the watermark is the max event time of the batches before,
 * minus the delay, and an event whose window ends at or before it is dropped as late. With one batch
 * of everything nothing is late, which is the batch query's answer.
 */
function countWithLoop(lines: readonly string[], batchSize: number): RunResult {
  const counts: Counts = new Map();
  let late = 0;
  let maxEventTime = -Infinity;
  for (let from = 0; from < lines.length; from += batchSize) {
    const watermark = maxEventTime - WATERMARK_DELAY_MS;
    const to = Math.min(from + batchSize, lines.length);
    for (let i = from; i < to; i++) {
      const event = JSON.parse(lines[i]) as ClickEvent;
      const ts = Date.parse(event.ts);
      if (ts > maxEventTime) maxEventTime = ts;
      const start = ts - (ts % WINDOW_MS);
      if (start + WINDOW_MS <= watermark) {
        late++;
        continue;
      }
      const key = `${start} ${event.category}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  return { counts, late };
}

/**
 * The fixed cost of a batch: the median trigger time (ms) of single-event batches on a query whose
 * state already holds the groups of `lines` (they are not timed).
 */
async function fixedCostPerBatch(lines: readonly string[], checkpoints: string): Promise<number> {
  const session = new SluiceSession();
  const input = session.memoryStream('value STRING', 'clicks');
  const triggerMs: number[] = [];
  const query = await canonicalQuery(session.readStream.memory(input))
    .writeStream.outputMode('append')
    .option('checkpointLocation', await mkdtemp(path.join(checkpoints, 'fixed-')))
    .foreachBatch(() => {})
    .onProgress((p) => triggerMs.push(p.durationMs.triggerExecution))
    .start();
  input.addData(lines.slice(0, BATCH_SIZE).map((value) => ({ value })));
  await query.processAllAvailable();
  for (let i = 0; i < 2 * FIXED_COST_BATCHES; i++) {
    input.addData([{ value: lines[i] }]);
    await query.processAllAvailable();
  }
  await query.stop();
  return median(triggerMs.slice(-FIXED_COST_BATCHES));
}

async function runEngineBatch(lines: readonly string[]): Promise<RunResult> {
  const session = new SluiceSession();
  const events = session.createDataFrame(
    lines.map((value) => ({ value })),
    'value STRING',
  );
  const counts: Counts = new Map();
  for (const row of await canonicalQuery(events).collect()) addOutputRow(counts, row);
  return { counts, late: 0 };
}

/** Opens DuckDB on one thread and returns the canonical query over the NDJSON file `file`. */
async function duckDbQuery(
  file: string,
): Promise<{ run: () => Promise<RunResult>; close: () => void }> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  await connection.run('SET threads=1');
  const sql = `
    SELECT epoch_ms(time_bucket(INTERVAL 10 MINUTE, ts)) AS window_start, category, count(*) AS n
    FROM read_json('${file}', format = 'newline_delimited',
      columns = {ts: 'TIMESTAMP', category: 'VARCHAR', user: 'VARCHAR', page: 'VARCHAR'})
    GROUP BY ALL`;
  const run = async (): Promise<RunResult> => {
    const reader = await connection.runAndReadAll(sql);
    const counts: Counts = new Map();
    for (const [start, category, n] of reader.getRows()) {
      counts.set(`${start} ${String(category)}`, Number(n));
    }
    return { counts, late: 0 };
  };
  const close = () => {
    connection.closeSync();
    instance.closeSync();
  };
  return { run, close };
}

/** Why `actual` differs from `expected` (up to five differing groups), or undefined when they agree. */
function difference(actual: RunResult, expected: RunResult): string | undefined {
  const problems: string[] = [];
  if (actual.late !== expected.late) {
    problems.push(`${actual.late} late events dropped, expected ${expected.late}`);
  }
  const keys = new Set([...actual.counts.keys(), ...expected.counts.keys()]);
  let differing = 0;
  for (const key of keys) {
    const [a, e] = [actual.counts.get(key), expected.counts.get(key)];
    if (a === e) continue;
    if (++differing <= 5) {
      problems.push(`${describeKey(key)}: ${a ?? 'missing'}, expected ${e ?? 'missing'}`);
    }
  }
  if (differing > 5) problems.push(`... ${differing} groups differ in all`);
  return problems.length === 0 ? undefined : problems.join('\n  ');
}

function describeKey(key: string): string {
  const [start, category] = key.split(' ');
  return `window ${new Date(Number(start)).toISOString()} ${category}`;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function sum(counts: Counts): number {
  let total = 0;
  for (const n of counts.values()) total += n;
  return total;
}

function pad(text: string, width: number, alignRight = false): string {
  return alignRight ? text.padStart(width) : text.padEnd(width);
}

async function main(): Promise<number> {
  const lines = generateClickEventLines({ count: EVENT_COUNT });
  const bytes = asFetchedValues(lines);
  const directory = await mkdtemp(path.join(os.tmpdir(), 'sluice-bench-'));
  const ndjson = path.join(directory, 'events.ndjson');
  await writeFile(ndjson, `${lines.join('\n')}\n`);
  const duckDb = await duckDbQuery(ndjson);
  try {
    const streamed = countWithLoop(lines, BATCH_SIZE);
    const whole = countWithLoop(lines, lines.length);
    if (sum(whole.counts) !== EVENT_COUNT || sum(streamed.counts) + streamed.late !== EVENT_COUNT) {
      throw new Error('The reference loop lost events; the benchmark itself is broken.');
    }
    const batches = Math.ceil(EVENT_COUNT / BATCH_SIZE);
    const contenders: Contender[] = [
      {
        label: `engine, stream (${batches} x ${BATCH_SIZE.toLocaleString('en-US')}, append)`,
        run: () => runEngineStream(lines, directory, BATCH_SIZE),
        expected: streamed,
        seconds: [],
      },
      {
        label: 'engine, stream over UTF-8 bytes',
        run: () => runEngineStream(bytes, directory, BATCH_SIZE),
        expected: streamed,
        seconds: [],
      },
      {
        label: 'engine, batch (collect)',
        run: () => runEngineBatch(lines),
        expected: whole,
        seconds: [],
      },
      {
        label: 'plain JS loop',
        run: async () => countWithLoop(lines, BATCH_SIZE),
        expected: streamed,
        seconds: [],
      },
      { label: 'DuckDB (threads=1, NDJSON)', run: duckDb.run, expected: whole, seconds: [] },
    ];
    for (let round = 0; round <= TIMED_RUNS; round++) {
      for (const c of contenders) {
        const started = performance.now();
        const result = await c.run();
        const elapsed = (performance.now() - started) / 1000;
        const problem = difference(result, c.expected);
        if (problem !== undefined) {
          console.error(`${c.label} computed different counts than the reference:\n  ${problem}`);
          return 1;
        }
        if (round > 0) c.seconds.push(elapsed); // round 0 warms up
      }
    }

    const medians = contenders.map((c) => median(c.seconds));
    const eps = medians.map((seconds) => EVENT_COUNT / seconds);
    const [engine, bytesEngine, , loop, duck] = eps;
    const fixedMs = await fixedCostPerBatch(lines, directory);
    console.log(
      `Canonical query over ${EVENT_COUNT.toLocaleString('en-US')} JSON events: ${whole.counts.size.toLocaleString('en-US')} ` +
        `(window, category) groups; the stream drops ${streamed.late.toLocaleString('en-US')} late events. ` +
        `All counts verified. ${TIMED_RUNS} runs after a warm-up; events/s from the median run.`,
    );
    const header = ['events/s', 'median s', 'best s', 'vs loop'].map((h) => pad(h, 11, true));
    console.log(pad('', 40) + header.join(''));
    contenders.forEach((c, i) => {
      const cells = [
        Math.round(eps[i]).toLocaleString('en-US'),
        medians[i].toFixed(2),
        Math.min(...c.seconds).toFixed(2),
        (eps[i] / loop).toFixed(2),
      ];
      console.log(pad(c.label, 40) + cells.map((cell) => pad(cell, 11, true)).join(''));
    });
    const figures = {
      engine_eps: Math.round(engine),
      loop_eps: Math.round(loop),
      duckdb_eps: Math.round(duck),
      engine_vs_loop: round2(engine / loop),
      engine_vs_duckdb: round2(engine / duck),
      bytes_engine_eps: Math.round(bytesEngine),
      bytes_engine_vs_duckdb: round2(bytesEngine / duck),
      fixed_ms_per_batch: round2(fixedMs),
    };
    console.log(
      `engine/loop ${figures.engine_vs_loop} (target >= 2.0), engine/DuckDB ${figures.engine_vs_duckdb} (target >= 0.4), ` +
        `bytes engine/DuckDB ${figures.bytes_engine_vs_duckdb} (target >= 0.5); ` +
        `fixed cost ${figures.fixed_ms_per_batch} ms per batch (median of ${FIXED_COST_BATCHES} single-event batches)`,
    );
    console.log(JSON.stringify(figures));
    return 0;
  } finally {
    duckDb.close();
    await rm(directory, { recursive: true, force: true });
  }
}

/** The event count SLUICE_BENCH_EVENTS asks for; a RangeError names it when it is not a positive integer. */
function eventCount(setting: string | undefined): number {
  if (setting === undefined || setting === '') return 1_000_000;
  const n = Number(setting);
  if (!Number.isSafeInteger(n) || n <= 0) {
    throw new RangeError(
      `SLUICE_BENCH_EVENTS must be a positive integer (events per run), got '${setting}'.`,
    );
  }
  return n;
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

process.exitCode = await main();
