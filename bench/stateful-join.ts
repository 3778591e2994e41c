/**
 * The stream-stream join part of the stateful-operator benchmark (`npm run bench:stateful`): Spark's
 * canonical example, ad impressions joined to the clicks that came within an hour of them:
 * impressions with a 2-hour watermark, clicks with a 3-hour one, inner join on `clickAdId =
 * impressionAdId AND clickTime BETWEEN impressionTime AND impressionTime + interval 1 hour`, append
 * mode. One million generated events: 500,000 impressions of 100,000 ads, two a second, and one
 * click per impression, nine in ten within the hour after it and the rest one to three hours after
 * (too late for it), all arriving in time order up to five minutes out of it. In events per second,
 * for
 * - the engine as a stream: two MemoryStreams fed in micro-batches of 100,000 events (each batch's
 *   impressions to one, its clicks to the other), a local checkpoint;
 * - a hand-written loop doing the same symmetric hash join batch by batch: per side a Map from ad id
 *   to the times held; each new row matched against the other side's rows (this batch's included,
 *   once), late rows dropped and held rows evicted by the watermark of the batches before, as the
 *   engine derives it from the condition (clicks at or before it, impressions an hour before it).
 * Both must emit the same number of joined rows (checked by the harness).
 *
 * State bytes per key: after the engine's warm-up run, the bytes the entries of the checkpoint's last
 * state version take at rest (each entry's line in a state file), over that version's
 * `numRowsTotal` in progress (keys of both stores: an ad id held on both sides counts
 * twice). The engine reports no memory figure, so this is what the state costs at rest.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  col,
  interval,
  localCheckpointBackend,
  type RowObject,
  SluiceSession,
  Timestamp,
} from '../core/index.js';
import { listStateStores, readStateStore } from '../core/state/state-store-reader.js';
import { encodeStateValue } from '../core/state/state-value.js';
import {
  BATCH_SIZE,
  batchesOf,
  EVENT_COUNT,
  type PartFigures,
  random,
  timeContenders,
} from './stateful-harness.js';

const IMPRESSIONS = EVENT_COUNT / 2;
const ADS = 100_000;
const SECOND = 1_000_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const IMPRESSION_DELAY = 2 * HOUR;
const CLICK_DELAY = 3 * HOUR;
const START_MICROS = Date.UTC(2026, 0, 1) * 1000;

/** An impression (`impressionAdId`, `impressionTime`) or a click (`clickAdId`, `clickTime`). */
interface Event {
  readonly click: boolean;
  readonly adId: number;
  readonly time: number;
}

/** The impressions and their clicks, in arrival order. */
function generateEvents(): Event[] {
  const next = random(2026);
  const arrivals: { event: Event; arrival: number }[] = [];
  const add = (event: Event) =>
    arrivals.push({ event, arrival: event.time + Math.floor(next() * 5 * MINUTE) });
  for (let i = 0; i < IMPRESSIONS; i++) {
    const adId = Math.floor(next() * ADS);
    const time = START_MICROS + i * 500_000;
    add({ click: false, adId, time });
    const after =
      next() < 0.9
        ? Math.floor(next() * HOUR)
        : HOUR + SECOND + Math.floor(next() * 2 * HOUR - SECOND);
    add({ click: true, adId, time: time + after });
  }
  arrivals.sort((a, b) => a.arrival - b.arrival);
  return arrivals.map((a) => a.event);
}

/** A batch's impressions and clicks as the engine's rows. */
interface EngineBatch {
  readonly impressions: RowObject[];
  readonly clicks: RowObject[];
}

function engineBatches(batches: readonly Event[][]): EngineBatch[] {
  return batches.map((batch) => ({
    impressions: batch
      .filter((e) => !e.click)
      .map((e) => ({ impressionAdId: e.adId, impressionTime: Timestamp.fromEpochMicros(e.time) })),
    clicks: batch
      .filter((e) => e.click)
      .map((e) => ({ clickAdId: e.adId, clickTime: Timestamp.fromEpochMicros(e.time) })),
  }));
}

/**
 * The engine: joined rows emitted. With `onStateBytesPerKey`, the state's bytes per key after the
 * last batch are measured from the checkpoint and passed to it.
 */
async function runEngine(
  batches: readonly EngineBatch[],
  onStateBytesPerKey?: (bytes: number) => void,
): Promise<number> {
  const checkpoint = await mkdtemp(path.join(os.tmpdir(), 'sluice-bench-join-'));
  const session = new SluiceSession();
  const impressionEvents = session.memoryStream('impressionAdId INT, impressionTime TIMESTAMP');
  const clickEvents = session.memoryStream('clickAdId INT, clickTime TIMESTAMP');
  const impressions = session.readStream
    .memory(impressionEvents)
    .withWatermark('impressionTime', '2 hours');
  const clicks = session.readStream.memory(clickEvents).withWatermark('clickTime', '3 hours');
  let rows = 0;
  const query = await impressions
    .join(
      clicks,
      col('clickAdId')
        .eq(col('impressionAdId'))
        .and(
          col('clickTime').between(
            col('impressionTime'),
            col('impressionTime').plus(interval('1 hour')),
          ),
        ),
      'inner',
    )
    .writeStream.outputMode('append')
    .foreachBatch(async (batch) => {
      rows += await batch.count();
    })
    .option('checkpointLocation', checkpoint)
    .start();
  for (const batch of batches) {
    impressionEvents.addData(batch.impressions);
    clickEvents.addData(batch.clicks);
    await query.processAllAvailable();
  }
  await query.stop();
  if (onStateBytesPerKey) {
    const keys = query.lastProgress?.stateOperators[0]?.numRowsTotal ?? 0;
    onStateBytesPerKey((await liveStateBytes(checkpoint)) / keys);
  }
  await rm(checkpoint, { recursive: true, force: true });
  return rows;
}

/**
 * The bytes the entries of the last committed state version take at rest: per entry of every
 * store, its line in a state file (`[key, encoded value]` and a newline), wherever the version
 * keeps it (a snapshot, a delta or the commit record).
 */
async function liveStateBytes(checkpoint: string): Promise<number> {
  const backend = localCheckpointBackend(checkpoint);
  let bytes = 0;
  for (const { operatorId, storeName } of await listStateStores(backend)) {
    for (const { key, value } of await readStateStore(backend, { operatorId, storeName }))
      bytes += Buffer.byteLength(JSON.stringify([key, encodeStateValue(value)])) + 1;
  }
  return bytes;
}

/** Appends `time` to the times held under `adId`. */
function hold(side: Map<number, number[]>, adId: number, time: number): void {
  const times = side.get(adId);
  if (times) times.push(time);
  else side.set(adId, [time]);
}

/** Drops the times at or below `threshold` from every ad id of `side`, and ad ids left empty. */
function evict(side: Map<number, number[]>, threshold: number): void {
  for (const [adId, times] of side) {
    const kept = times.filter((t) => t > threshold);
    if (kept.length === 0) side.delete(adId);
    else if (kept.length < times.length) side.set(adId, kept);
  }
}

/** The loop: the same symmetric hash join by hand, batch by batch; joined rows emitted. */
function runLoop(batches: readonly Event[][]): number {
  const impressions = new Map<number, number[]>();
  const clicks = new Map<number, number[]>();
  let maxImpression = Number.NEGATIVE_INFINITY;
  let maxClick = Number.NEGATIVE_INFINITY;
  let watermark = Number.NEGATIVE_INFINITY;
  let rows = 0;
  for (const batch of batches) {
    // as the engine: impressions first, each against the clicks held, then clicks against them all
    for (const e of batch) {
      if (e.click) continue;
      if (e.time > maxImpression) maxImpression = e.time; // late rows too, as the engine's maximum
      if (e.time <= watermark) continue;
      for (const c of clicks.get(e.adId) ?? []) if (c >= e.time && c <= e.time + HOUR) rows++;
      hold(impressions, e.adId, e.time);
    }
    for (const e of batch) {
      if (!e.click) continue;
      if (e.time > maxClick) maxClick = e.time;
      if (e.time <= watermark) continue;
      for (const i of impressions.get(e.adId) ?? []) if (e.time >= i && e.time <= i + HOUR) rows++;
      hold(clicks, e.adId, e.time);
    }
    // the watermark of the next batch (the lower of the two sides', never moving back), and the
    // eviction the engine's batch without data does under it
    watermark = Math.max(
      watermark,
      Math.min(maxImpression - IMPRESSION_DELAY, maxClick - CLICK_DELAY),
    );
    evict(clicks, watermark);
    evict(impressions, watermark - HOUR);
  }
  return rows;
}

/**
 * Runs the join part: the engine and the loop on the same events, timed by the harness, and the
 * engine's state bytes per key (measured in its warm-up run, outside the timed ones).
 */
export async function benchJoin(): Promise<PartFigures & { stateBytesPerKey: number }> {
  const batches = batchesOf(generateEvents(), BATCH_SIZE);
  const rowBatches = engineBatches(batches);
  let stateBytesPerKey: number | undefined;
  const { outcome, ...figures } = await timeContenders('join', 2 * IMPRESSIONS, {
    engine: () =>
      runEngine(
        rowBatches,
        stateBytesPerKey === undefined ? (bytes) => (stateBytesPerKey = bytes) : undefined,
      ),
    loop: () => runLoop(batches),
  });
  return {
    name: 'join',
    ...figures,
    outcome: `${outcome.toLocaleString('en')} joined rows`,
    stateBytesPerKey: stateBytesPerKey ?? 0,
  };
}
