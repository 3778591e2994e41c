/**
 * Stateful-operator benchmark (`npm run bench:stateful`), the deduplication half: one million
 * generated events, a fifth of them re-deliveries of a recent event (same id, same event time), out
 * of order by up to two seconds, deduplicated on (id, event time) under a five-second watermark, as
 * Spark's guide deduplicates by guid and event time. In events per second, for
 * - the engine as a stream: a MemoryStream fed in micro-batches of 100,000, append mode, a local
 *   checkpoint (state persisted every batch, a batch without data after each to evict);
 * - a hand-written loop doing the same work per micro-batch: a Map from key to event time, late
 *   events dropped and keys evicted by the watermark of the batches before.
 * Both must emit the same number of rows (checked; a mismatch exits with status 1). Each runs once to
 * warm up, then three times, interleaved; figures come from the median run. The last line of output
 * is one JSON object: {"dedup_vs_loop": R}, the engine's events per second over the loop's.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type RowObject, SluiceSession } from '../core/index.js';

const EVENT_COUNT = 1_000_000;
const BATCH_SIZE = 100_000;
const TIMED_RUNS = 3;
const DELAY_MICROS = 5_000_000;
const START_MICROS = Date.UTC(2026, 0, 1) * 1000;

/** A deterministic generator of numbers in [0, 1) (mulberry32), so every run sees the same events. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One event a millisecond, up to 2 s out of order; a fifth re-deliver one of the last 50 events. */
function generateEvents(): RowObject[] {
  const next = random(13);
  const events: RowObject[] = [];
  for (let i = 0; i < EVENT_COUNT; i++) {
    if (i > 50 && next() < 0.2) {
      events.push(events[i - 1 - Math.floor(next() * 50)]);
      continue;
    }
    const ts = START_MICROS + i * 1000 - Math.floor(next() * 2000) * 1000;
    events.push({ id: `e${i}`, ts, page: `/p${i % 97}` });
  }
  return events;
}

function batchesOf(events: RowObject[]): RowObject[][] {
  const out: RowObject[][] = [];
  for (let i = 0; i < events.length; i += BATCH_SIZE) out.push(events.slice(i, i + BATCH_SIZE));
  return out;
}

/** The engine: rows emitted and seconds taken. */
async function runEngine(batches: RowObject[][]): Promise<{ rows: number; seconds: number }> {
  const checkpoint = await mkdtemp(path.join(os.tmpdir(), 'sluice-bench-dedup-'));
  const session = new SluiceSession();
  const input = session.memoryStream('id STRING, ts TIMESTAMP, page STRING');
  let rows = 0;
  const started = performance.now();
  const query = await session.readStream
    .memory(input)
    .withWatermark('ts', '5 seconds')
    .dropDuplicates('id', 'ts')
    .writeStream.foreachBatch((batch) => {
      rows += batch.length;
    })
    .option('checkpointLocation', checkpoint)
    .start();
  for (const batch of batches) {
    input.addData(batch);
    await query.processAllAvailable();
  }
  await query.stop();
  const seconds = (performance.now() - started) / 1000;
  await rm(checkpoint, { recursive: true, force: true });
  return { rows, seconds };
}

/** The loop: the same deduplication by hand, batch by batch. */
function runLoop(batches: RowObject[][]): { rows: number; seconds: number } {
  const started = performance.now();
  const seen = new Map<string, number>();
  let maxSeen = Number.NEGATIVE_INFINITY;
  let rows = 0;
  for (const batch of batches) {
    // the watermark of this batch comes from the batches before it
    const watermark = maxSeen - DELAY_MICROS;
    for (const [key, ts] of seen) if (ts <= watermark) seen.delete(key);
    for (const event of batch) {
      const ts = event.ts as number;
      if (ts > maxSeen) maxSeen = ts;
      if (ts <= watermark) continue;
      const key = `${event.id as string}\u0001${ts}`;
      if (seen.has(key)) continue;
      seen.set(key, ts);
      rows++;
    }
  }
  return { rows, seconds: (performance.now() - started) / 1000 };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function main(): Promise<void> {
  const batches = batchesOf(generateEvents());
  const engine: number[] = [];
  const loop: number[] = [];
  for (let run = 0; run <= TIMED_RUNS; run++) {
    const e = await runEngine(batches);
    const l = runLoop(batches);
    if (e.rows !== l.rows) {
      console.error(`The engine emitted ${e.rows} rows and the loop ${l.rows}: they differ.`);
      process.exit(1);
    }
    if (run === 0) continue; // warm-up
    engine.push(EVENT_COUNT / e.seconds);
    loop.push(EVENT_COUNT / l.seconds);
  }
  const engineEps = median(engine);
  const loopEps = median(loop);
  console.log(`dedup engine: ${Math.round(engineEps).toLocaleString('en')} events/s`);
  console.log(`dedup loop:   ${Math.round(loopEps).toLocaleString('en')} events/s`);
  console.log(JSON.stringify({ dedup_vs_loop: Number((engineEps / loopEps).toFixed(3)) }));
}

await main();
