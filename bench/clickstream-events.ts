/**
 * Deterministic clickstream events for benchmarks and examples: the canonical query's input.
 *
 * The same options always give the same events, on every machine, so figures and results can be
 * compared across runs. The shape is meant to look like real traffic rather than to be convenient:
 * a clock that advances with random (exponential) gaps, categories with a skewed popularity, a long
 * tail of users and pages, and a small share of events that arrive late, stamped up to
 * `maxLatenessMs` before the clock, as events buffered on a phone or retried by a collector are.
 */

/** One click event, as its producer serializes it. */
export interface ClickEvent {
  /** Event time, an ISO 8601 instant in UTC with milliseconds (`2026-01-01T10:03:12.345Z`). */
  readonly ts: string;
  readonly category: string;
  /** User id, `u<n>`. */
  readonly user: string;
  /** Page path, `/p/<n>`. */
  readonly page: string;
}

/** Options of `generateClickEvents`. */
export interface ClickEventOptions {
  /** How many events. */
  readonly count: number;
  /** Seed of the pseudo-random generator. @default 42 */
  readonly seed?: number;
  /** Event time of the first event. @default '2026-01-01T00:00:00.000Z' */
  readonly start?: string;
  /** Mean gap between consecutive events; 86 ms makes a million events span about a day. @default 86 */
  readonly meanGapMs?: number;
  /** Share of events stamped earlier than the clock (out of order). @default 0.02 */
  readonly outOfOrderFraction?: number;
  /** How far before the clock an out-of-order event may be stamped. @default 1_200_000 (20 minutes) */
  readonly maxLatenessMs?: number;
}

/** The schema of an event, as DDL for `from_json`. */
export const CLICK_EVENT_SCHEMA = 'ts TIMESTAMP, category STRING, user STRING, page STRING';

/** The 20 categories, most popular first. */
export const CLICK_CATEGORIES: readonly string[] = [
  'books',
  'electronics',
  'games',
  'music',
  'movies',
  'toys',
  'fashion',
  'sports',
  'kitchen',
  'garden',
  'beauty',
  'health',
  'pets',
  'office',
  'tools',
  'automotive',
  'baby',
  'grocery',
  'jewelry',
  'travel',
];

const USERS = 50_000;
const PAGES = 5_000;

/**
 * Generates `count` click events in arrival order. Category popularity follows Zipf's law
 * (weight 1/rank), so the first category gets about 28% of the events and the last about 1.4%.
 * Throws a RangeError for a negative or fractional count.
 */
export function generateClickEvents(options: ClickEventOptions): ClickEvent[] {
  const { count, seed = 42, start = '2026-01-01T00:00:00.000Z', meanGapMs = 86 } = options;
  const { outOfOrderFraction = 0.02, maxLatenessMs = 20 * 60_000 } = options;
  if (!Number.isSafeInteger(count) || count < 0) {
    throw new RangeError(`count must be a non-negative integer, got ${count}.`);
  }
  const random = mulberry32(seed);
  const pickCategory = zipfPicker(CLICK_CATEGORIES.length, random);
  const events: ClickEvent[] = new Array<ClickEvent>(count);
  let clock = Date.parse(start);
  for (let i = 0; i < count; i++) {
    clock += -meanGapMs * Math.log(1 - random());
    const late = random() < outOfOrderFraction ? random() * maxLatenessMs : 0;
    events[i] = {
      ts: new Date(Math.floor(clock - late)).toISOString(),
      category: CLICK_CATEGORIES[pickCategory()],
      // Squaring skews users and pages towards low ids: a few heavy users and popular pages.
      user: `u${Math.floor(random() ** 2 * USERS)}`,
      page: `/p/${Math.floor(random() ** 2 * PAGES)}`,
    };
  }
  return events;
}

/** The events of `generateClickEvents` as JSON text, one string per event, as a producer sends them. */
export function generateClickEventLines(options: ClickEventOptions): string[] {
  return generateClickEvents(options).map((e) => JSON.stringify(e));
}

/** Mulberry32: a small, fast 32-bit generator, plenty for test data (not for cryptography). */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Picks ranks 0..n-1 with probability proportional to 1/(rank+1). */
function zipfPicker(n: number, random: () => number): () => number {
  const cumulative: number[] = [];
  let total = 0;
  for (let rank = 0; rank < n; rank++) cumulative.push((total += 1 / (rank + 1)));
  return () => {
    const x = random() * total;
    let rank = 0;
    while (rank < n - 1 && cumulative[rank] <= x) rank++;
    return rank;
  };
}
