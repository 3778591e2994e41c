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
import { col, count, type DataFrame, interval, max, window } from '../../core/index.js';
import { adInputs, batchOverAds, flush, streamOverAds } from '../support/ad-events.js';
import { microBatches } from '../support/unification-law.js';

const inputs = adInputs(fc.integer({ min: 1, max: 3 }));

/** Clicks within 20 minutes of their impression, counted per 10-minute window of `timeColumn`. */
function clicksPerWindow(timeColumn: string) {
  return (impressions: DataFrame, clicks: DataFrame) => {
    const withinRange = col('clickTime').between(
      col('impressionTime'),
      col('impressionTime').plus(interval('20 minutes')),
    );
    return impressions
      .join(clicks, col('clickAdId').eq(col('adId')).and(withinRange), 'inner')
      .groupBy(window(col(timeColumn), '10 minutes'), col('adId'))
      .agg(count().alias('clicks'), max('clickTime').alias('lastClick'));
  };
}

describe('the unification law for an aggregation over a stream-stream join', () => {
  it.each(['impressionTime', 'clickTime'])(
    'windows of %s: the stream emits exactly the batch windows',
    async (timeColumn) => {
      const query = clicksPerWindow(timeColumn);
      await fc.assert(
        fc.asyncProperty(inputs, async ({ events, cuts }) => {
          const streamed = await streamOverAds(query, [
            ...microBatches(events, cuts),
            flush(events),
          ]);
          expect(streamed).toEqual(await batchOverAds(query, events));
        }),
        { numRuns: 15 },
      );
    },
    60_000,
  );
});
