/**
 * The deduplication part of the stateful-operator benchmark (`npm run bench:stateful`): one million
 * generated events, a fifth of them re-deliveries of a recent event (same id, same event time), out
 * of order by up to two seconds, deduplicated on (id, event time) under a five-second watermark, as
 * Spark's guide deduplicates by guid and event time. In events per second, for
 * - the engine as a stream: a MemoryStream fed in micro-batches of 100,000, append mode, a local
 *   checkpoint (state persisted every batch, a batch without data after each to evict);
 * - a hand-written loop doing the same work per micro-batch: a Map from key to event time, late
 *   events dropped and keys evicted by the watermark of the batches before.
 * Both must emit the same number of rows (checked by the harness).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type RowObject, SluiceSession } from '../core/index.js';
import {
  BATCH_SIZE,
  batchesOf,
  EVENT_COUNT,
  type PartFigures,
  random,
  timeContenders,
  withTimestamps,
} from './stateful-harness.js';

const DELAY_MICROS = 5_000_000;
const START_MICROS = Date.UTC(2026, 0, 1) * 1000;

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

/** The engine: rows emitted. */
async function runEngine(batches: RowObject[][]): Promise<number> {
  const checkpoint = await mkdtemp(path.join(os.tmpdir(), 'sluice-bench-dedup-'));
  const session = new SluiceSession();
  const input = session.memoryStream('id STRING, ts TIMESTAMP, page STRING');
  let rows = 0;
  const query = await session.readStream
    .memory(input)
    .withWatermark('ts', '5 seconds')
    .dropDuplicates('id', 'ts')
    .writeStream.foreachBatch(async (batch) => {
      rows += await batch.count();
    })
    .option('checkpointLocation', checkpoint)
    .start();
  for (const batch of batches) {
    input.addData(batch);
    await query.processAllAvailable();
  }
  await query.stop();
  await rm(checkpoint, { recursive: true, force: true });
  return rows;
}

/** The loop: the same deduplication by hand, batch by batch; rows emitted. */
function runLoop(batches: RowObject[][]): number {
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
  return rows;
}

/** Runs the deduplication part: the engine and the loop on the same events, timed by the harness. */
export async function benchDedup(): Promise<PartFigures> {
  const batches = batchesOf(generateEvents(), BATCH_SIZE);
  const engineBatches = withTimestamps(batches, 'ts');
  const { outcome, ...figures } = await timeContenders('dedup', EVENT_COUNT, {
    engine: () => runEngine(engineBatches),
    loop: () => runLoop(batches),
  });
  return { name: 'dedup', ...figures, outcome: `${outcome.toLocaleString('en')} rows` };
}
