/**
 * Deduplication (`npm run example:deduplication`): clicks delivered at least once, as a producer
 * that retries sends them, counted exactly once per category in 10-minute windows.
 *
 * About one click in eight arrives twice, its copy a round later. `dropDuplicatesWithinWatermark`
 * keeps the first copy of each `eventId` and remembers the id only until the watermark passes the
 * click's time plus the delay, so its state stays bounded however long the stream runs; the windowed
 * count after it is a second stateful operator in the same query.
 */
import { col, type DataFrame, from_json, window } from '../core/index.js';
import { type ExampleSpec, runWhenMain } from './run-with-restart.js';
import { seededRandom } from './seeded-random.js';

/** The schema of a click event. */
const CLICK_SCHEMA = 'eventId STRING, ts TIMESTAMP, category STRING';
const CATEGORIES = ['books', 'games', 'music', 'garden', 'toys'];
const HEARTBEAT = 'heartbeat';

/** Distinct clicks per category and 10-minute window, from clicks as JSON lines. */
export function distinctClickCounts(clicks: DataFrame): DataFrame {
  return clicks
    .select(from_json(col('value'), CLICK_SCHEMA).alias('click'))
    .select('click.*')
    .withWatermark('ts', '15 minutes')
    .dropDuplicatesWithinWatermark(['eventId'])
    .groupBy(window(col('ts'), '10 minutes'), col('category'))
    .count();
}

/** Clicks in rounds, about one in eight delivered again a round later, then a heartbeat. */
export function clickRounds(rounds: number, clicksPerRound: number, seed: number): string[][] {
  const random = seededRandom(seed);
  let clockMs = Date.parse('2026-01-01T10:00:00Z');
  const out: string[][] = Array.from({ length: rounds + 1 }, () => []);
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < clicksPerRound; i++) {
      clockMs += Math.floor(random() * 2_000);
      const click = JSON.stringify({
        eventId: `e${round}-${i}`,
        ts: new Date(clockMs).toISOString(),
        category: CATEGORIES[Math.floor(random() * CATEGORIES.length)],
      });
      out[round].push(click);
      if (random() < 0.125) out[round + 1].push(click);
    }
  }
  const later = new Date(clockMs + 24 * 3_600_000).toISOString();
  out[rounds].push(JSON.stringify({ eventId: HEARTBEAT, ts: later, category: HEARTBEAT }));
  return out;
}

/** The example: six rounds of clicks, the fourth invocation dying before its commit. */
export function deduplicationExample(clicksPerRound = 400): ExampleSpec {
  return {
    title: 'deduplication: clicks delivered at least once, counted once',
    inputs: [{ name: 'clicks', rounds: clickRounds(6, clicksPerRound, 11) }],
    outputMode: 'append',
    query: (inputs) => distinctClickCounts(inputs.clicks),
    expected: (row) => row.category !== HEARTBEAT,
    crashInRound: 3,
  };
}

await runWhenMain(import.meta.url, 'deduplication', deduplicationExample);
