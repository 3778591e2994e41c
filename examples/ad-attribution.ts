/**
 * Ad attribution (`npm run example:ad-attribution`): ad impressions joined to the clicks on them,
 * Spark's canonical stream-stream join. A click counts for an impression of the same ad shown at
 * most an hour before it.
 *
 * Both streams are unbounded, so the join keeps each side's rows as state until no row of the other
 * side can match them any more: the watermarks (two hours for impressions, three for clicks, as the
 * clicks come from a slower pipeline) and the one-hour time bound together say when that is.
 */
import { col, type DataFrame, from_json, interval } from '../core/index.js';
import { type ExampleSpec, runWhenMain } from './run-with-restart.js';
import { seededRandom } from './seeded-random.js';

const IMPRESSION_SCHEMA = 'adId INT, impressionTime TIMESTAMP';
const CLICK_SCHEMA = 'clickAdId INT, clickTime TIMESTAMP';

/** Each click with the impressions of its ad in the hour before it. */
export function attributedClicks(impressionLines: DataFrame, clickLines: DataFrame): DataFrame {
  const impressions = impressionLines
    .select(from_json(col('value'), IMPRESSION_SCHEMA).alias('i'))
    .select('i.*')
    .withWatermark('impressionTime', '2 hours');
  const clicks = clickLines
    .select(from_json(col('value'), CLICK_SCHEMA).alias('c'))
    .select('c.*')
    .withWatermark('clickTime', '3 hours');
  return impressions.join(
    clicks,
    col('clickAdId')
      .eq(col('adId'))
      .and(
        col('clickTime').between(
          col('impressionTime'),
          col('impressionTime').plus(interval('1 hour')),
        ),
      ),
  );
}

/**
 * Impressions of `ads` ads over rounds of 20 minutes, and about one click per ten impressions, up to
 * 90 minutes after it (so some fall outside the hour). A click arrives one or two rounds after its
 * impression, as from a slower pipeline.
 */
export function adRounds(
  rounds: number,
  impressionsPerRound: number,
  ads: number,
  seed: number,
): { impressions: string[][]; clicks: string[][] } {
  const random = seededRandom(seed);
  const start = Date.parse('2026-01-01T10:00:00Z');
  const roundMs = 20 * 60_000;
  const impressions: string[][] = Array.from({ length: rounds }, () => []);
  const clicks: string[][] = Array.from({ length: rounds + 2 }, () => []);
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < impressionsPerRound; i++) {
      const adId = Math.floor(random() * ads);
      const shown = start + round * roundMs + Math.floor(random() * roundMs);
      impressions[round].push(JSON.stringify({ adId, impressionTime: new Date(shown) }));
      if (random() >= 0.1) continue;
      const clicked = shown + Math.floor(random() * 90 * 60_000);
      const arrives = round + 1 + Math.floor(random() * 2);
      clicks[arrives].push(JSON.stringify({ clickAdId: adId, clickTime: new Date(clicked) }));
    }
  }
  return { impressions, clicks };
}

/** The example: two hours of impressions of 50 ads, the fourth invocation dying before its commit. */
export function adAttributionExample(impressionsPerRound = 300): ExampleSpec {
  const { impressions, clicks } = adRounds(6, impressionsPerRound, 50, 3);
  return {
    title: 'ad attribution: impressions joined to the clicks within an hour',
    inputs: [
      { name: 'impressions', rounds: impressions },
      { name: 'clicks', rounds: clicks },
    ],
    outputMode: 'append',
    query: (inputs) => attributedClicks(inputs.impressions, inputs.clicks),
    crashInRound: 3,
  };
}

await runWhenMain(import.meta.url, 'ad-attribution', adAttributionExample);
