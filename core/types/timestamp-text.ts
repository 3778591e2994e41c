/**
 * Text forms of timestamps and dates, as Spark's casts read and write them. The session time zone
 * is UTC: text without an offset is read as UTC, and timestamps are shown in UTC.
 *
 * Reading takes the common ISO 8601 forms by digit arithmetic (core/types/iso-timestamp.ts) and
 * every other form through the general pattern, which also decides for text the fast path does
 * not recognize. Both compute dates with the proleptic Gregorian calendar, so every year reads
 * right (`Date.UTC` would read years 0-99 as 1900-1999).
 */
import { daysFromCivil, daysInMonth } from './calendar.js';
import { scanIsoTimestamp, type TextSource } from './iso-timestamp.js';
import { MICROS } from './time-units.js';

export { MICROS };

const TIMESTAMP_PATTERN =
  /^\s*(\d{4,})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:\.(\d{1,9}))?)?)?\s*(Z|[+-]\d{2}:?\d{2})?\s*$/i;

/**
 * Parses `yyyy-MM-dd[( |T)HH:mm[:ss[.fraction]]][Z|±HH:mm]` into microseconds since the epoch,
 * or returns null when the text is not a valid timestamp.
 */
export function parseTimestamp(text: string): number | null {
  return scanIsoTimestamp(text, 0, text.length) ?? parseTimestampPattern(text);
}

const slicedBytes = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * `parseTimestamp` of the text from `start` to `end` (exclusive) of a string or of UTF-8 bytes,
 * read in place when it has a common form: the JSON decoder reads a field's value this way. Bytes
 * are decoded as `cast(binary as string)` decodes them, keeping a leading byte order mark, since
 * in a JSON value it is part of the text.
 */
export function parseTimestampSlice(source: TextSource, start: number, end: number): number | null {
  const fast = scanIsoTimestamp(source, start, end);
  if (fast !== undefined) return fast;
  const text =
    typeof source === 'string'
      ? source.slice(start, end)
      : slicedBytes.decode(source.subarray(start, end));
  return parseTimestampPattern(text);
}

/** Milliseconds beyond which `Date` refuses an instant (about 275,760 years either side of 1970). */
const MAX_MILLIS = 8.64e15;

/**
 * The general reading of `parseTimestamp`, by pattern: it takes 1-digit fields, years of more than
 * four digits, whitespace around the text and before the zone, and a zone in either case. Null for
 * text that is not a valid timestamp, or one too far from 1970 for `Date` to show.
 */
export function parseTimestampPattern(text: string): number | null {
  const m = TIMESTAMP_PATTERN.exec(text);
  if (!m) return null;
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '', zone] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return null;
  const millis =
    daysFromCivil(year, month, day) * 86_400_000 +
    Number(h) * 3_600_000 +
    Number(mi) * 60_000 +
    Number(s) * 1000;
  if (Math.abs(millis) > MAX_MILLIS) return null;
  const micros = Number((frac + '000000').slice(0, 6));
  return millis * 1000 + micros - zoneOffsetMicros(zone);
}

/** Parses `yyyy-MM-dd` (a timestamp's date part is accepted too) into days since the epoch, or null. */
export function parseDate(text: string): number | null {
  const micros = parseTimestamp(text);
  return micros === null ? null : Math.floor(micros / MICROS.day);
}

/** Formats microseconds as Spark shows timestamps: `yyyy-MM-dd HH:mm:ss[.ffffff]` in UTC. */
export function formatTimestamp(micros: number): string {
  const millis = Math.floor(micros / 1000);
  const iso = new Date(millis).toISOString(); // yyyy-mm-ddThh:mm:ss.sssZ
  const fraction = micros - Math.floor(micros / MICROS.second) * MICROS.second;
  const base = `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
  return fraction === 0 ? base : `${base}.${String(fraction).padStart(6, '0').replace(/0+$/, '')}`;
}

/** Formats days since the epoch as `yyyy-MM-dd`. */
export function formatDate(days: number): string {
  return new Date(days * 86_400_000).toISOString().slice(0, 10);
}

/** Formats microseconds as an ISO 8601 instant (`...T...Z`), the form JSON output uses. */
export function formatIsoInstant(micros: number): string {
  return new Date(Math.floor(micros / 1000)).toISOString();
}

function zoneOffsetMicros(zone: string | undefined): number {
  if (!zone || zone.toUpperCase() === 'Z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  return (
    sign * (Number(digits.slice(0, 2)) * MICROS.hour + Number(digits.slice(2)) * MICROS.minute)
  );
}
