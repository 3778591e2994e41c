/**
 * Deterministic engine rows for the sink benchmark, in the two shapes it writes:
 * - the canonical query's output (`window` {start, end}, `category`, `count`): what a streaming
 *   aggregation hands its sink, one row per 10-minute window and category;
 * - a wide 20-column event table of mixed types (6 strings, 5 longs, 3 doubles, 3 timestamps,
 *   3 booleans), some columns with NULLs, the cardinalities of real clickstream fields (a handful of
 *   devices, tens of countries, thousands of pages, tens of thousands of users).
 *
 * Values come from an integer hash of the row number, so the same count gives the same rows on every
 * machine and every contender writes exactly the same data. Rows are in engine form: positional
 * arrays, timestamps in microseconds, structs as arrays.
 */
import type { Row } from '../core/types/row.js';
import { CLICK_CATEGORIES } from './clickstream-events.js';

/** The wide table's schema, as DDL. */
export const WIDE_SCHEMA = [
  'id LONG NOT NULL',
  'event_time TIMESTAMP',
  'ingest_time TIMESTAMP',
  'session_start TIMESTAMP',
  'user STRING',
  'page STRING',
  'category STRING',
  'country STRING',
  'device STRING',
  'referrer STRING',
  'user_id LONG',
  'session_id LONG',
  'bytes LONG',
  'duration_ms LONG',
  'price DOUBLE',
  'latitude DOUBLE',
  'longitude DOUBLE',
  'is_new_user BOOLEAN',
  'is_bot BOOLEAN',
  'converted BOOLEAN',
].join(', ');

const WINDOW_MICROS = 10 * 60 * 1_000_000;
const START_MICROS = Date.UTC(2026, 0, 1) * 1000;
const COUNTRIES = [
  'US',
  'DE',
  'FR',
  'GB',
  'JP',
  'BR',
  'IN',
  'CA',
  'AU',
  'ES',
  'IT',
  'NL',
  'SE',
  'PL',
];
const DEVICES = ['desktop', 'mobile', 'tablet'];
const REFERRERS = ['https://www.google.com/', 'https://news.example.org/today', 'newsletter'];

/**
 * `count` rows of the canonical output: consecutive 10-minute windows, each with a row for every
 * click category, and counts between 1 and 5,000.
 */
export function canonicalOutputRows(count: number): Row[] {
  const categories = CLICK_CATEGORIES.length;
  return Array.from({ length: count }, (_, i) => {
    const start = START_MICROS + Math.floor(i / categories) * WINDOW_MICROS;
    return [[start, start + WINDOW_MICROS], CLICK_CATEGORIES[i % categories], 1 + (hash(i) % 5000)];
  });
}

/** `count` rows of {@link WIDE_SCHEMA}. */
export function wideRows(count: number): Row[] {
  return Array.from({ length: count }, (_, i) => {
    const h = hash(i);
    const eventTime = START_MICROS + i * 86_000 + (h % 1000);
    const userId = h % 50_000;
    return [
      i,
      eventTime,
      eventTime + 1_000_000 + (h % 5_000_000),
      eventTime - (h % 1800) * 1_000_000,
      `u${userId}`,
      `/p/${hash(i + 1) % 5_000}`,
      CLICK_CATEGORIES[h % CLICK_CATEGORIES.length],
      COUNTRIES[(h >>> 8) % COUNTRIES.length],
      DEVICES[(h >>> 4) % DEVICES.length],
      h % 10 < 3 ? null : REFERRERS[(h >>> 12) % REFERRERS.length],
      userId,
      Math.floor(i / 20) * 7 + (h % 7),
      200 + (h % 200_000),
      h % 60_000,
      h % 10 === 0 ? null : (h % 100_000) / 100,
      -90 + (h % 18_000_000) / 100_000,
      -180 + (hash(i + 2) % 36_000_000) / 100_000,
      h % 13 === 0,
      h % 50 === 0,
      h % 17 === 0 ? null : h % 31 === 0,
    ];
  });
}

/** A 31-bit integer hash (a multiplicative mix), the benchmark's only source of variety. */
function hash(n: number): number {
  let x = Math.imul(n ^ (n >>> 16), 0x45d9f3b);
  x = Math.imul(x ^ (x >>> 16), 0x45d9f3b);
  return (x ^ (x >>> 16)) >>> 1;
}
