/**
 * Two streams of ad events for the unification laws of operators over a stream-stream join:
 * impressions and clicks in roughly increasing time with bounded disorder, cut into micro-batches,
 * run as a batch query over the two tables or as a stream over two memory streams.
 */
import fc from 'fast-check';
import {
  col,
  type Column,
  type DataFrame,
  interval,
  type RowObject,
  SluiceSession,
} from '../../core/index.js';
import { afterLatest, at } from './events.js';
import { tempDir } from './temp-dir.js';
import { canonical } from './unification-law.js';

export const MINUTE = 60_000_000;
export const IMPRESSIONS = 'adId INT, impressionTime TIMESTAMP';
export const CLICKS = 'clickAdId INT, clickTime TIMESTAMP';
/** Events arrive at most this far behind the latest one of their stream: none is late for the delay. */
const MAX_DISORDER = 7 * MINUTE;
/** The watermark delay of both streams. */
const DELAY = '15 minutes';

/** `time` within 20 minutes after the impression's time: the time range the joins of ads use. */
export function withinTwentyMinutes(time: string): Column {
  return col(time).between(
    col('impressionTime'),
    col('impressionTime').plus(interval('20 minutes')),
  );
}

/** A click of the impression's ad within 20 minutes after it: the ads' join condition. */
export function clickOfImpression(): Column {
  return col('clickAdId').eq(col('adId')).and(withinTwentyMinutes('clickTime'));
}

/** An event of either stream: `side` says which. */
export interface Event {
  readonly side: 'impression' | 'click';
  readonly row: RowObject;
}

/** A query over the two sides. */
export type AdQuery = (impressions: DataFrame, clicks: DataFrame) => DataFrame;

/** Events of both streams with ad ids from `adIds`, and the cut points of the micro-batches. */
export function adInputs(adIds: fc.Arbitrary<number | null>) {
  return withCuts(fc.array(eventSpec(adIds), { minLength: 1, maxLength: 40 }));
}

/**
 * As {@link adInputs}, with an impression of an ad from `adIds` and a click on it at most
 * `withinMicros` later placed among the events: a join of clicks to impressions of their ad within
 * that bound always has a match to make.
 */
export function adInputsWithClick(adIds: fc.Arbitrary<number>, withinMicros: number) {
  return withCuts(
    fc
      .tuple(
        fc.array(eventSpec(adIds), { maxLength: 38 }),
        fc.nat(),
        adIds,
        fc.integer({ min: 0, max: withinMicros }),
      )
      .map(([specs, place, adId, after]): EventSpec[] => {
        const i = place % (specs.length + 1);
        // no step back: each is the latest event of its stream when it comes, never late
        const shown = { side: 'impression' as const, step: 0, back: 0, adId };
        const clicked = { side: 'click' as const, step: after, back: 0, adId };
        return [...specs.slice(0, i), shown, clicked, ...specs.slice(i)];
      }),
  );
}

/** An event as generated: how far the clock moves before it, and how far behind the clock it is. */
interface EventSpec {
  readonly side: Event['side'];
  readonly step: number;
  readonly back: number;
  readonly adId: number | null;
}

function eventSpec(adIds: fc.Arbitrary<number | null>): fc.Arbitrary<EventSpec> {
  return fc.record({
    side: fc.constantFrom('impression' as const, 'click' as const),
    step: fc.integer({ min: 0, max: 6 * MINUTE }),
    back: fc.integer({ min: 0, max: MAX_DISORDER }),
    adId: adIds,
  });
}

/** The events of `specs` and the cut points of their micro-batches. */
function withCuts(specs: fc.Arbitrary<EventSpec[]>) {
  return specs.chain((s) =>
    fc.record({
      events: fc.constant(toEvents(s)),
      cuts: fc.uniqueArray(fc.integer({ min: 1, max: s.length }), { maxLength: 6 }),
    }),
  );
}

function toEvents(specs: readonly EventSpec[]): Event[] {
  let clock = 0;
  return specs.map(({ side, step, back, adId }) => {
    clock += step;
    const time = at('10:00:00', clock - back);
    return side === 'impression'
      ? { side, row: { adId, impressionTime: time } }
      : { side, row: { clickAdId: adId, clickTime: time } };
  });
}

/** The batch query's rows over the two tables of `events`, canonical. */
export async function batchOverAds(query: AdQuery, events: Event[]): Promise<string[]> {
  const session = new SluiceSession();
  const side = (s: Event['side'], schema: string) =>
    session.createDataFrame(
      events.filter((e) => e.side === s).map((e) => e.row),
      schema,
    );
  return canonical(await query(side('impression', IMPRESSIONS), side('click', CLICKS)).collect());
}

/** Every row the query wrote in append mode over watermarked streams fed `parts`, canonical. */
export async function streamOverAds(query: AdQuery, parts: Event[][]): Promise<string[]> {
  const session = new SluiceSession();
  const impressionEvents = session.memoryStream(IMPRESSIONS);
  const clickEvents = session.memoryStream(CLICKS);
  const impressions = session.readStream
    .memory(impressionEvents)
    .withWatermark('impressionTime', DELAY);
  const clicks = session.readStream.memory(clickEvents).withWatermark('clickTime', DELAY);
  const outputs: RowObject[][] = [];
  const running = await query(impressions, clicks)
    .writeStream.outputMode('append')
    .foreachBatch(async (batch) => {
      outputs.push(await batch.collect());
    })
    .option('checkpointLocation', tempDir())
    .option('numStatePartitions', 3)
    .start();
  for (const part of parts) {
    impressionEvents.addData(part.filter((e) => e.side === 'impression').map((e) => e.row));
    clickEvents.addData(part.filter((e) => e.side === 'click').map((e) => e.row));
    await running.processAllAvailable();
  }
  await running.stop();
  return canonical(outputs.flat());
}

/**
 * One event far in the future on each side, with an ad id nothing has: it moves the watermark
 * past all; it joins nothing, and the watermark never passes it, so it is never emitted.
 */
export function flush(events: Event[]): Event[] {
  const far = afterLatest(
    events.map((e) => e.row.impressionTime ?? e.row.clickTime),
    600 * MINUTE,
  );
  return [
    { side: 'impression', row: { adId: -1, impressionTime: far } },
    { side: 'click', row: { clickAdId: -2, clickTime: far } },
  ];
}
