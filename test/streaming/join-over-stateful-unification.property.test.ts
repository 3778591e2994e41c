/**
 * The unification law for a stream-stream join over other stateful operators in append mode (Spark
 * 3.5's multiple stateful operators; MultiStatefulOperatorsSuite's "time window agg per each source
 * followed by stream-stream join"): two streams of random events cut into random micro-batches,
 * each side aggregated per 10-minute window and ad (or deduplicated, or the output of another
 * join), then joined by the join types Spark allows, give exactly the batch query's rows once the
 * watermark has passed them.
 *
 * The windows each aggregation emits are those this batch's watermark closed, which the join's own
 * eviction drops in the same batch: the join keeps them for the right side's rows of that batch.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { col, count, type DataFrame, max, window } from '../../core/index.js';
import {
  type AdQuery,
  adInputs,
  adInputsWithClick,
  batchOverAds,
  clickOfImpression,
  flush,
  MINUTE,
  streamOverAds,
  withinTwentyMinutes,
} from '../support/ad-events.js';
import { microBatches } from '../support/unification-law.js';

const inputs = adInputs(fc.integer({ min: 1, max: 3 }));
/** Inputs with a click within 20 minutes of an impression of its ad: the join over a join has rows. */
const inputsWithClick = adInputsWithClick(fc.integer({ min: 1, max: 3 }), 20 * MINUTE);

/** Impressions and clicks counted per 10-minute window and ad, joined `how` on window and ad. */
function windowedCountsJoined(how: string): AdQuery {
  return (impressions: DataFrame, clicks: DataFrame) => {
    const shown = impressions
      .groupBy(window(col('impressionTime'), '10 minutes'), col('adId'))
      .agg(count().alias('impressions'), max('impressionTime').alias('lastShown'));
    const clicked = clicks
      .groupBy(window(col('clickTime'), '10 minutes').alias('clickWindow'), col('clickAdId'))
      .agg(count().alias('clicks'));
    return shown.join(
      clicked,
      col('window')
        .eq(col('clickWindow'))
        .and(col('adId').eq(col('clickAdId'))),
      how,
    );
  };
}

/** Each side deduplicated on ad and time, then clicks within 20 minutes of their impression. */
function deduplicatedThenJoined(how: string): AdQuery {
  return (impressions: DataFrame, clicks: DataFrame) =>
    impressions
      .dropDuplicates('adId', 'impressionTime')
      .join(clicks.dropDuplicates('clickAdId', 'clickTime'), clickOfImpression(), how);
}

/**
 * Clicks within 20 minutes of their impression, joined again (inner) to every click of the same ad
 * within 20 minutes of the impression: a join over a join, on the first join's left time.
 */
function joinOverJoin(how: string): AdQuery {
  return (impressions: DataFrame, clicks: DataFrame) => {
    const again = clicks.select(
      col('clickAdId').alias('againAdId'),
      col('clickTime').alias('againTime'),
    );
    return impressions
      .join(clicks, col('clickAdId').eq(col('adId')).and(withinTwentyMinutes('clickTime')), 'inner')
      .join(again, col('againAdId').eq(col('adId')).and(withinTwentyMinutes('againTime')), how);
  };
}

/** Checks the law on `params.numRuns` inputs from `from`; with `joinsSomething`, each result has rows. */
async function unifies(
  query: AdQuery,
  params: {
    readonly numRuns?: number;
    readonly seed?: number;
    readonly from?: typeof inputs;
    readonly joinsSomething?: boolean;
  },
) {
  const { from = inputs, joinsSomething = false, ...runs } = params;
  await fc.assert(
    fc.asyncProperty(from, async ({ events, cuts }) => {
      const streamed = await streamOverAds(query, [...microBatches(events, cuts), flush(events)]);
      const batch = await batchOverAds(query, events);
      // an empty result on both sides would pass without the join over a join matching anything
      if (joinsSomething) expect(batch.length).toBeGreaterThan(0);
      expect(streamed).toEqual(batch);
    }),
    runs,
  );
}

describe('the unification law for a stream-stream join over stateful operators', () => {
  it.each(['inner', 'left', 'right', 'full'])(
    '%s join of two windowed counts on window and ad: the stream emits exactly the batch rows',
    async (how) => {
      await unifies(windowedCountsJoined(how), { numRuns: 10 });
    },
    60_000,
  );

  it.each(['inner', 'left', 'left_semi'])(
    '%s join of two deduplications on a time range: the stream emits exactly the batch rows',
    async (how) => {
      await unifies(deduplicatedThenJoined(how), { numRuns: 10 });
    },
    60_000,
  );

  it.each(['inner', 'left'])(
    '%s join over an inner join of the two streams: the stream emits exactly the batch rows',
    async (how) => {
      await unifies(joinOverJoin(how), {
        numRuns: 10,
        from: inputsWithClick,
        joinsSomething: true,
      });
    },
    60_000,
  );
});
