/**
 * Enrichment with a static table (`npm run example:enrichment`): each click looks up its page in a
 * table of pages, and the clicks are counted per section of the site in 10-minute windows.
 *
 * The join of a stream with a static table is stateless: every micro-batch joins its own clicks with
 * the table, so it needs no watermark of its own. A left outer join keeps the clicks on pages the
 * table does not know, counted under 'unknown'.
 */
import { coalesce, col, type DataFrame, from_json, lit, window } from '../core/index.js';
import { type ExampleSpec, runWhenMain } from './run-with-restart.js';
import { seededRandom } from './seeded-random.js';

const CLICK_SCHEMA = 'ts TIMESTAMP, page STRING';
const PAGE_SCHEMA = 'page STRING, section STRING';
const SECTIONS = ['news', 'sport', 'culture', 'travel'];
const PAGES = 40;
const HEARTBEAT = '/heartbeat';

/** Clicks per section and 10-minute window: clicks as JSON lines, pages as a table. */
export function sectionCounts(clickLines: DataFrame, pages: DataFrame): DataFrame {
  return clickLines
    .select(from_json(col('value'), CLICK_SCHEMA).alias('c'))
    .select('c.*')
    .withWatermark('ts', '15 minutes')
    .join(pages, 'page', 'left')
    .groupBy(
      window(col('ts'), '10 minutes'),
      coalesce(col('section'), lit('unknown')).alias('section'),
    )
    .count();
}

/** The pages table: most pages have a section; a few new ones are not in it yet. */
export function pageRows(): { page: string; section: string }[] {
  return Array.from({ length: PAGES - 4 }, (_, p) => ({
    page: `/p/${p}`,
    section: SECTIONS[p % SECTIONS.length],
  }));
}

/** Clicks on the pages in rounds, in event-time order, then a heartbeat a day later. */
export function clickRounds(rounds: number, clicksPerRound: number, seed: number): string[][] {
  const random = seededRandom(seed);
  let clockMs = Date.parse('2026-01-01T10:00:00Z');
  const out: string[][] = Array.from({ length: rounds + 1 }, () => []);
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < clicksPerRound; i++) {
      clockMs += Math.floor(random() * 3_000);
      const page = `/p/${Math.floor(random() * PAGES)}`;
      out[round].push(JSON.stringify({ ts: new Date(clockMs), page }));
    }
  }
  out[rounds].push(JSON.stringify({ ts: new Date(clockMs + 86_400_000), page: HEARTBEAT }));
  return out;
}

/** The example: six rounds of clicks joined with the pages table, the third invocation dying. */
export function enrichmentExample(clicksPerRound = 300): ExampleSpec {
  const clicks = clickRounds(6, clicksPerRound, 17);
  const heartbeatWindowStart = new Date(JSON.parse(clicks[6][0]).ts);
  return {
    title: 'enrichment: clicks joined with a table of pages, counted per section',
    inputs: [{ name: 'clicks', rounds: clicks }],
    outputMode: 'append',
    query: (inputs, session) =>
      sectionCounts(inputs.clicks, session.createDataFrame(pageRows(), PAGE_SCHEMA)),
    expected: (row) => (row.window as { end: Date }).end <= heartbeatWindowStart,
    crashInRound: 2,
  };
}

await runWhenMain(import.meta.url, 'enrichment', enrichmentExample);
