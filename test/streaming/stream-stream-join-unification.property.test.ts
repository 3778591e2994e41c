/**
 * The unification law for joins of two streams: two streams of random events, cut into random
 * micro-batches, joined in a stream, give exactly the batch join of the same two tables once the
 * watermark has passed every event, for every supported join type, on a time range and on equal
 * windows.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  col,
  type DataFrame,
  interval,
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

/** Events of both streams in roughly increasing time, with the cut points of the micro-batches. */
const inputs = fc
  .array(
    fc.record({
      side: fc.constantFrom('impression' as const, 'click' as const),
      step: fc.integer({ min: 0, max: 6 * MINUTE }),
      back: fc.integer({ min: 0, max: MAX_DISORDER }),
      adId: fc.option(fc.integer({ min: 1, max: 4 }), { nil: null, freq: 10 }),
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
  specs: { side: Event['side']; step: number; back: number; adId: number | null }[],
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

/** How the two sides are joined besides the ad id. */
type Shape = (impressions: DataFrame, clicks: DataFrame, how: string) => DataFrame;

/** A click within 20 minutes after its impression. */
const timeRange: Shape = (impressions, clicks, how) =>
  impressions.join(
    clicks,
    col('clickAdId')
      .eq(col('adId'))
      .and(
        col('clickTime').between(
          col('impressionTime'),
          col('impressionTime').plus(interval('20 minutes')),
        ),
      ),
    how,
  );

/** A click in the impression's 10-minute window. */
const sameWindow: Shape = (impressions, clicks, how) =>
  impressions
    .select(
      col('adId'),
      col('impressionTime'),
      window(col('impressionTime'), '10 minutes').alias('w'),
    )
    .join(
      clicks.select(
        col('clickAdId'),
        col('clickTime'),
        window(col('clickTime'), '10 minutes').alias('cw'),
      ),
      col('clickAdId')
        .eq(col('adId'))
        .and(col('w').eq(col('cw'))),
      how,
    );

async function batchJoin(shape: Shape, how: string, events: Event[]): Promise<string[]> {
  const session = new SluiceSession();
  const side = (s: Event['side'], schema: string) =>
    session.createDataFrame(
      events.filter((e) => e.side === s).map((e) => e.row),
      schema,
    );
  return canonical(
    await shape(side('impression', IMPRESSIONS), side('click', CLICKS), how).collect(),
  );
}

async function streamJoin(shape: Shape, how: string, parts: Event[][]): Promise<string[]> {
  const session = new SluiceSession();
  const impressionEvents = session.memoryStream(IMPRESSIONS);
  const clickEvents = session.memoryStream(CLICKS);
  const impressions = session.readStream
    .memory(impressionEvents)
    .withWatermark('impressionTime', DELAY);
  const clicks = session.readStream.memory(clickEvents).withWatermark('clickTime', DELAY);
  const outputs: RowObject[][] = [];
  const running = await shape(impressions, clicks, how)
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
  // the flush rows join nothing, and the watermark never passes them: they are never emitted
  return canonical(outputs.flat());
}

/** One event far in the future on each side, with an ad id nothing has: it moves the watermark past all. */
function flush(events: Event[]): Event[] {
  const times = events.map((e) => (e.row.impressionTime ?? e.row.clickTime) as number);
  const far = Math.max(...times) + 600 * MINUTE;
  return [
    { side: 'impression', row: { adId: -1, impressionTime: far } },
    { side: 'click', row: { clickAdId: -2, clickTime: far } },
  ];
}

describe('the unification law for stream-stream joins', () => {
  const cases = [
    ...['inner', 'left', 'right', 'full', 'left_semi'].map((how) => ({
      how,
      shape: timeRange,
      on: 'a time range',
    })),
    ...['inner', 'full'].map((how) => ({ how, shape: sameWindow, on: 'equal windows' })),
  ];

  it.each(cases)(
    '$how join on $on: the stream emits exactly the batch join',
    async ({ how, shape }) => {
      await fc.assert(
        fc.asyncProperty(inputs, async ({ events, cuts }) => {
          const streamed = await streamJoin(shape, how, [
            ...microBatches(events, cuts),
            flush(events),
          ]);
          expect(streamed).toEqual(await batchJoin(shape, how, events));
        }),
        { numRuns: 12 },
      );
    },
    60_000,
  );
});
