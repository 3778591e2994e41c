/**
 * The unification law for joins of two streams: two streams of random events, cut into random
 * micro-batches, joined in a stream, give exactly the batch join of the same two tables once the
 * watermark has passed every event, for every supported join type, on a time range and on equal
 * windows.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { col, type DataFrame, window } from '../../core/index.js';
import {
  adInputs,
  batchOverAds,
  clickOfImpression,
  flush,
  streamOverAds,
} from '../support/ad-events.js';
import { microBatches } from '../support/unification-law.js';

const inputs = adInputs(fc.option(fc.integer({ min: 1, max: 4 }), { nil: null, freq: 10 }));

/** How the two sides are joined besides the ad id. */
type Shape = (impressions: DataFrame, clicks: DataFrame, how: string) => DataFrame;

/** A click within 20 minutes after its impression. */
const timeRange: Shape = (impressions, clicks, how) =>
  impressions.join(clicks, clickOfImpression(), how);

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
          const query = (impressions: DataFrame, clicks: DataFrame) =>
            shape(impressions, clicks, how);
          const streamed = await streamOverAds(query, [
            ...microBatches(events, cuts),
            flush(events),
          ]);
          expect(streamed).toEqual(await batchOverAds(query, events));
        }),
        { numRuns: 12 },
      );
    },
    60_000,
  );
});
