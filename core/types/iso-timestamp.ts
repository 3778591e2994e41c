/**
 * The common ISO 8601 forms of a timestamp, read by digit arithmetic: no regular expression, no
 * `Date`, no substring. Event times nearly always come in one of these forms, and reading them
 * was an eighth of the canonical query's CPU time through the general pattern.
 *
 * The reader works on a slice of a string or of UTF-8 bytes, so the JSON decoder reads a value in
 * place. The forms are ASCII, where a UTF-16 code unit and a UTF-8 byte are the same number, so
 * one reader serves both; any other character makes the text "not a common form" (undefined), and
 * the caller falls back to the general pattern (core/types/timestamp-text.ts), which decides.
 */
import { daysFromCivil, daysInMonth } from './calendar.js';
import { MICROS } from './time-units.js';

/** Text to read from: a string, or UTF-8 bytes. */
export type TextSource = string | Uint8Array;

const ZERO = 0x30;
const NINE = 0x39;
const DASH = 0x2d;
const COLON = 0x3a;
const DOT = 0x2e;
const PLUS = 0x2b;
const SPACE = 0x20;
const UPPER_T = 0x54;
const LOWER_T = 0x74;
const UPPER_Z = 0x5a;
const LOWER_Z = 0x7a;
const MILLIS_PER_DAY = 86_400_000;

/**
 * Reads the timestamp written in `source` from `start` to `end` (exclusive) when it has a common
 * form: `yyyy-MM-dd`, optionally followed by `T`, `t` or a space and `HH:mm`, `HH:mm:ss` or
 * `HH:mm:ss.f` (1 to 9 fraction digits, read to the microsecond, the rest cut off), then optionally
 * `Z`, `z`, `±HH:mm` or `±HHmm`; four digits for the year and two for every other field, nothing
 * before or after. Returns microseconds since the epoch; null when the form is right but the date
 * or time does not exist (month 13, February 30, hour 24); undefined for text of any other form.
 */
export function scanIsoTimestamp(
  source: TextSource,
  start: number,
  end: number,
): number | null | undefined {
  if (end - start < 10) return undefined;
  const year = digitsAt(source, start, 4);
  const month = digitsAt(source, start + 5, 2);
  const day = digitsAt(source, start + 8, 2);
  if (year < 0 || month < 0 || day < 0) return undefined;
  if (codeAt(source, start + 4) !== DASH || codeAt(source, start + 7) !== DASH) return undefined;
  let i = start + 10;
  let hour = 0;
  let minute = 0;
  let second = 0;
  let micros = 0;
  const separator = i < end ? codeAt(source, i) : -1;
  if (separator === UPPER_T || separator === LOWER_T || separator === SPACE) {
    if (end - i < 6 || codeAt(source, i + 3) !== COLON) return undefined;
    hour = digitsAt(source, i + 1, 2);
    minute = digitsAt(source, i + 4, 2);
    if (hour < 0 || minute < 0) return undefined;
    i += 6;
    if (i < end && codeAt(source, i) === COLON) {
      if (end - i < 3) return undefined;
      second = digitsAt(source, i + 1, 2);
      if (second < 0) return undefined;
      i += 3;
      if (i < end && codeAt(source, i) === DOT) {
        const fractionEnd = digitRunEnd(source, i + 1, end);
        if (fractionEnd === i + 1 || fractionEnd - i - 1 > 9) return undefined;
        micros = fractionMicros(source, i + 1, fractionEnd);
        i = fractionEnd;
      }
    }
  }
  const zone = i < end ? zoneAt(source, i, end) : NO_ZONE;
  if (zone === undefined) return undefined;
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  const millis =
    daysFromCivil(year, month, day) * MILLIS_PER_DAY +
    hour * 3_600_000 +
    minute * 60_000 +
    second * 1000;
  // The general pattern's arithmetic, in its order, so that both round alike far from the epoch.
  return millis * 1000 + micros - zone;
}

/** The offset of a text that names none: UTC, the session time zone. */
const NO_ZONE = 0;

/** The offset in microseconds of the zone that makes up the rest of the text, undefined if it is not one. */
function zoneAt(source: TextSource, i: number, end: number): number | undefined {
  const c = codeAt(source, i);
  if (c === UPPER_Z || c === LOWER_Z) return end - i === 1 ? NO_ZONE : undefined;
  if (c !== PLUS && c !== DASH) return undefined;
  const withColon = end - i === 6 && codeAt(source, i + 3) === COLON;
  if (!withColon && end - i !== 5) return undefined;
  const hours = digitsAt(source, i + 1, 2);
  const minutes = digitsAt(source, withColon ? i + 4 : i + 3, 2);
  if (hours < 0 || minutes < 0) return undefined;
  const sign = c === DASH ? -1 : 1;
  return sign * (hours * MICROS.hour + minutes * MICROS.minute);
}

/** The number written by `count` ASCII digits at `i`, or -1 when one of them is not a digit. */
function digitsAt(source: TextSource, i: number, count: number): number {
  let value = 0;
  for (let k = i; k < i + count; k++) {
    const c = codeAt(source, k);
    if (!(c >= ZERO && c <= NINE)) return -1;
    value = value * 10 + c - ZERO;
  }
  return value;
}

/** The position after the run of ASCII digits that starts at `i` (and ends by `end`). */
function digitRunEnd(source: TextSource, i: number, end: number): number {
  while (i < end) {
    const c = codeAt(source, i);
    if (!(c >= ZERO && c <= NINE)) break;
    i++;
  }
  return i;
}

/** Microseconds of the fraction of a second whose digits run from `start` to `end`: the first six, padded. */
function fractionMicros(source: TextSource, start: number, end: number): number {
  let micros = 0;
  for (let k = 0; k < 6; k++) {
    micros = micros * 10 + (start + k < end ? codeAt(source, start + k) - ZERO : 0);
  }
  return micros;
}

/** The code unit (of a string) or byte at `i`; NaN past the end, which no comparison matches. */
function codeAt(source: TextSource, i: number): number {
  return typeof source === 'string' ? source.charCodeAt(i) : (source[i] ?? NaN);
}
