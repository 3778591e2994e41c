/**
 * An aggregation over a stream-stream join (Spark 3.5's multiple stateful operators, as in its
 * MultiStatefulOperatorsSuite "join on time interval -> window agg, append mode"): two streams of
 * random events cut into random micro-batches, joined on an ad id and a time range, then counted
 * per event-time window of either side, give exactly the batch query's windows once the watermark
 * has passed them. The join evicts by its state watermarks; the aggregation drops as late only the
 * rows at or below the previous batch's join output watermark, so no joined row is lost.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  col,
  count,
  type DataFrame,
  interval,
  max,
  type RowObject,
  SluiceSession,
  window,
} from '../../core/index.js';
import { at } from '../support/events.js';
import { tempDir } from '../support/temp-dir.js';
import { canonical, microBatches } from '../support/unification-law.js';

const MINUTE = 60_000_000;
const IMPRESSIONS = 'adId INT, impressionTime TIMESTAMP';
const CLICKS = 'clickAdId INT, clickTime TIMESTAMP';
/** Events arrive at most this far behind the latest one of their stream: none is late for the delay. */
const MAX_DISORDER = 7 * MINUTE;
const DELAY = '15 minutes';

/** An event of either stream: `side` says which. */
interface Event {
  readonly side: 'impression' | 'click';
  readonly row: RowObject;
}

const inputs = fc
  .array(
    fc.record({
      side: fc.constantFrom('impression' as const, 'click' as const),
      step: fc.integer({ min: 0, max: 6 * MINUTE }),
      back: fc.integer({ min: 0, max: MAX_DISORDER }),
      adId: fc.integer({ min: 1, max: 3 }),
    }),
    { minLength: 1, maxLength: 40 },
  )
  .chain((specs) =>
    fc.record({
      events: fc.constant(toEvents(specs)),
      cuts: fc.uniqueArray(fc.integer({ min: 1, max: specs.length }), { maxLength: 6 }),
    }),
  );

function toEvents(
  specs: { side: Event['side']; step: number; back: number; adId: number }[],
): Event[] {
  let clock = at('10:00:00');
  return specs.map(({ side, step, back, adId }) => {
    clock += step;
    const time = clock - back;
    return side === 'impression'
      ? { side, row: { adId, impressionTime: time } }
      : { side, row: { clickAdId: adId, clickTime: time } };
  });
}

/** Clicks within 20 minutes of their impression, counted per 10-minute window of `timeColumn`. */
function clicksPerWindow(impressions: DataFrame, clicks: DataFrame, timeColumn: string) {
  const withinRange = col('clickTime').between(
    col('impressionTime'),
    col('impressionTime').plus(interval('20 minutes')),
  );
  return impressions
    .join(clicks, col('clickAdId').eq(col('adId')).and(withinRange), 'inner')
    .groupBy(window(col(timeColumn), '10 minutes'), col('adId'))
    .agg(count().alias('clicks'), max('clickTime').alias('lastClick'));
}

async function batchResult(timeColumn: string, events: Event[]): Promise<string[]> {
  const session = new SluiceSession();
  const side = (s: Event['side'], schema: string) =>
    session.createDataFrame(
      events.filter((e) => e.side === s).map((e) => e.row),
      schema,
    );
  const query = clicksPerWindow(side('impression', IMPRESSIONS), side('click', CLICKS), timeColumn);
  return canonical(await query.collect());
}

async function streamResult(timeColumn: string, parts: Event[][]): Promise<string[]> {
  const session = new SluiceSession();
  const impressionEvents = session.memoryStream(IMPRESSIONS);
  const clickEvents = session.memoryStream(CLICKS);
  const impressions = session.readStream
    .memory(impressionEvents)
    .withWatermark('impressionTime', DELAY);
  const clicks = session.readStream.memory(clickEvents).withWatermark('clickTime', DELAY);
  const outputs: RowObject[][] = [];
  const running = await clicksPerWindow(impressions, clicks, timeColumn)
    .writeStream.outputMode('append')
    .foreachBatch((rows) => {
      outputs.push(rows);
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

/** One event far in the future on each side, with ad ids nothing has: the watermark passes all windows. */
function flush(events: Event[]): Event[] {
  const times = events.map((e) => (e.row.impressionTime ?? e.row.clickTime) as number);
  const far = Math.max(...times) + 600 * MINUTE;
  return [
    { side: 'impression', row: { adId: -1, impressionTime: far } },
    { side: 'click', row: { clickAdId: -2, clickTime: far } },
  ];
}

describe('the unification law for an aggregation over a stream-stream join', () => {
  it.each(['impressionTime', 'clickTime'])(
    'windows of %s: the stream emits exactly the batch windows',
    async (timeColumn) => {
      await fc.assert(
        fc.asyncProperty(inputs, async ({ events, cuts }) => {
          const streamed = await streamResult(timeColumn, [
            ...microBatches(events, cuts),
            flush(events),
          ]);
          expect(streamed).toEqual(await batchResult(timeColumn, events));
        }),
        { numRuns: 15 },
      );
    },
    60_000,
  );
});
