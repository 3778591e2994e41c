/**
 * The engine benchmark's stream contender alone, for a CPU profile:
 * `node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/engine-profile.ts [strings|bytes]`.
 * It runs the canonical query as a stream over SLUICE_BENCH_EVENTS events (default 200,000) in
 * batches of 100,000, as bench/engine.bench.ts does, once to warm up and then SLUICE_PROFILE_RUNS
 * times (default 3), and prints each run's seconds. It checks nothing: the benchmark does.
 * It prints when the timed runs start and end on `process.hrtime`'s clock, in microseconds, which
 * is the clock of a `.cpuprofile`'s timestamps: keep the samples between the two to leave out
 * startup, event generation and the warm-up.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { asFetchedValues, runEngineStream } from './canonical-stream.js';
import { generateClickEventLines } from './clickstream-events.js';

const BATCH_SIZE = 100_000;

function positiveInteger(name: string, fallback: number): number {
  const setting = process.env[name];
  if (setting === undefined || setting === '') return fallback;
  const n = Number(setting);
  if (!Number.isSafeInteger(n) || n <= 0) {
    throw new RangeError(`${name} must be a positive integer, got '${setting}'.`);
  }
  return n;
}

async function main(): Promise<void> {
  const form = process.argv[2] ?? 'strings';
  if (form !== 'strings' && form !== 'bytes') {
    throw new RangeError(`The input form must be 'strings' or 'bytes', got '${form}'.`);
  }
  const events = positiveInteger('SLUICE_BENCH_EVENTS', 200_000);
  const runs = positiveInteger('SLUICE_PROFILE_RUNS', 3);
  const lines = generateClickEventLines({ count: events });
  const values = form === 'bytes' ? asFetchedValues(lines) : lines;
  const directory = await mkdtemp(path.join(os.tmpdir(), 'sluice-profile-'));
  try {
    for (let run = 0; run <= runs; run++) {
      if (run === 1) console.log(`timed runs start at ${process.hrtime.bigint() / 1000n} us`);
      const started = performance.now();
      await runEngineStream(values, directory, BATCH_SIZE);
      const seconds = (performance.now() - started) / 1000;
      console.log(`${run === 0 ? 'warm-up' : `run ${run}`}: ${seconds.toFixed(3)} s (${form})`);
    }
    console.log(`timed runs end at ${process.hrtime.bigint() / 1000n} us`);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

await main();
