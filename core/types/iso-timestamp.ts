/**
 * The common ISO 8601 forms of a timestamp, read by digit arithmetic: no regular expression, no
 * `Date`, no substring. Event times nearly always come in one of these forms, and reading them
 * was an eighth of the canonical query's CPU time through the general pattern.
 *
 * The reader works on a slice of a string or of UTF-8 bytes, so the JSON decoder reads a value in
 * place. The forms are ASCII, where a UTF-16 code unit and a UTF-8 byte are the same number, so
 * one reader serves both; any other character makes the text "not a common form" (undefined), and
 * the caller falls back to the general pattern (core/types/timestamp-text.ts), which decides.
 *
 * The slice is first copied, code by code, into one scratch array, and the fields are read from
 * there: reading every field straight from a string-or-bytes source tested the source's form at
 * each character and kept V8 from inlining the reads, which made the timestamp a third of the
 * JSON decoder's time on the canonical query. The commonest form of all, the instant
 * `Date.prototype.toISOString` writes (`yyyy-MM-ddTHH:mm:ss.sssZ`, or without the fraction), is
 * read first straight from the source, one reader for strings and one for bytes: that took a
 * quarter of the time of the copy and the general reading.
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
/** The longest common form: `yyyy-MM-ddTHH:mm:ss.fffffffff+HH:mm`. */
const LONGEST_FORM = 35;

/** The codes of the slice being read; only its first `end` entries belong to it. */
const scratch = new Uint16Array(LONGEST_FORM);

/** Copies the codes of `source` from `start` to `end` into `scratch`; returns their count. */
function copyCodes(source: TextSource, start: number, end: number): number {
  if (typeof source === 'string') {
    for (let i = start; i < end; i++) scratch[i - start] = source.charCodeAt(i);
  } else {
    for (let i = start; i < end; i++) scratch[i - start] = source[i];
  }
  return end - start;
}

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
  const length = end - start;
  if (length < 10 || length > LONGEST_FORM) return undefined;
  if (length === INSTANT_LENGTH || length === INSTANT_MILLIS_LENGTH) {
    const instant =
      typeof source === 'string'
        ? instantOfText(source, start, length)
        : instantOfBytes(source, start, length);
    if (instant !== undefined) return instant;
  }
  return scanCodes(copyCodes(source, start, end));
}

/** `yyyy-MM-ddTHH:mm:ssZ`, as `toISOString` writes an instant without its milliseconds. */
const INSTANT_LENGTH = 20;
/** `yyyy-MM-ddTHH:mm:ss.sssZ`, as `toISOString` writes an instant. */
const INSTANT_MILLIS_LENGTH = 24;

/**
 * The instant written in `toISOString`'s form, `length` characters from `start` of a string;
 * undefined for anything else, a date or time that does not exist included (scanCodes decides).
 */
function instantOfText(text: string, start: number, length: number): number | undefined {
  const s = start;
  if (text.charCodeAt(s + 4) !== DASH || text.charCodeAt(s + 7) !== DASH) return undefined;
  if (text.charCodeAt(s + 10) !== UPPER_T || text.charCodeAt(s + 13) !== COLON) return undefined;
  if (text.charCodeAt(s + 16) !== COLON || text.charCodeAt(s + length - 1) !== UPPER_Z) {
    return undefined;
  }
  let millis = 0;
  if (length === INSTANT_MILLIS_LENGTH) {
    if (text.charCodeAt(s + 19) !== DOT) return undefined;
    millis = digitOf(text.charCodeAt(s + 20)) * 100 + textPair(text, s + 21);
  }
  return instantOf(
    textPair(text, s) * 100 + textPair(text, s + 2),
    textPair(text, s + 5),
    textPair(text, s + 8),
    textPair(text, s + 11),
    textPair(text, s + 14),
    textPair(text, s + 17),
    millis,
  );
}

/** `instantOfText` for UTF-8 bytes. */
function instantOfBytes(bytes: Uint8Array, start: number, length: number): number | undefined {
  const s = start;
  if (bytes[s + 4] !== DASH || bytes[s + 7] !== DASH || bytes[s + 10] !== UPPER_T) return undefined;
  if (bytes[s + 13] !== COLON || bytes[s + 16] !== COLON || bytes[s + length - 1] !== UPPER_Z) {
    return undefined;
  }
  let millis = 0;
  if (length === INSTANT_MILLIS_LENGTH) {
    if (bytes[s + 19] !== DOT) return undefined;
    millis = digitOf(bytes[s + 20]) * 100 + bytesPair(bytes, s + 21);
  }
  return instantOf(
    bytesPair(bytes, s) * 100 + bytesPair(bytes, s + 2),
    bytesPair(bytes, s + 5),
    bytesPair(bytes, s + 8),
    bytesPair(bytes, s + 11),
    bytesPair(bytes, s + 14),
    bytesPair(bytes, s + 17),
    millis,
  );
}

/** What a field read from a non-digit is: negative whatever it is multiplied or added to, so out of range. */
const NOT_DIGITS = -100_000;

/** The value of an ASCII digit's code; NOT_DIGITS for any other code. */
function digitOf(c: number): number {
  const d = c - ZERO;
  return d >>> 0 <= 9 ? d : NOT_DIGITS;
}

function textPair(text: string, i: number): number {
  const hi = text.charCodeAt(i) - ZERO;
  const lo = text.charCodeAt(i + 1) - ZERO;
  return hi >>> 0 <= 9 && lo >>> 0 <= 9 ? hi * 10 + lo : NOT_DIGITS;
}

function bytesPair(bytes: Uint8Array, i: number): number {
  const hi = bytes[i] - ZERO;
  const lo = bytes[i + 1] - ZERO;
  return hi >>> 0 <= 9 && lo >>> 0 <= 9 ? hi * 10 + lo : NOT_DIGITS;
}

/** The last date instantOf computed, as `year * 512 + month * 32 + day`, and its day since the epoch: event times of a batch mostly share their date. */
let lastDate = -1;
let lastEpochDay = 0;

/**
 * Microseconds of the UTC instant of these fields, computed as scanCodes computes them (so both
 * round alike); undefined when a field is out of range (or was not digits), for scanCodes to read.
 */
function instantOf(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
  millis: number,
): number | undefined {
  if (!(month >= 1 && month <= 12 && day >= 1 && hour >= 0 && hour <= 23)) return undefined;
  if (!(minute >= 0 && minute <= 59 && second >= 0 && second <= 59 && millis >= 0)) {
    return undefined;
  }
  const date = year * 512 + month * 32 + day;
  if (date !== lastDate) {
    if (year < 0 || day > daysInMonth(year, month)) return undefined;
    lastDate = date;
    lastEpochDay = daysFromCivil(year, month, day);
  }
  const ms = lastEpochDay * MILLIS_PER_DAY + hour * 3_600_000 + minute * 60_000 + second * 1000;
  return ms * 1000 + millis * 1000 - NO_ZONE;
}

/** `scanIsoTimestamp` of the first `end` codes of `scratch`. */
function scanCodes(end: number): number | null | undefined {
  const year = digitsAt(0, 4);
  const month = digitsAt(5, 2);
  const day = digitsAt(8, 2);
  if (year < 0 || month < 0 || day < 0) return undefined;
  if (scratch[4] !== DASH || scratch[7] !== DASH) return undefined;
  let i = 10;
  let hour = 0;
  let minute = 0;
  let second = 0;
  let micros = 0;
  const separator = i < end ? scratch[i] : -1;
  if (separator === UPPER_T || separator === LOWER_T || separator === SPACE) {
    if (end - i < 6 || scratch[i + 3] !== COLON) return undefined;
    hour = digitsAt(i + 1, 2);
    minute = digitsAt(i + 4, 2);
    if (hour < 0 || minute < 0) return undefined;
    i += 6;
    if (i < end && scratch[i] === COLON) {
      if (end - i < 3) return undefined;
      second = digitsAt(i + 1, 2);
      if (second < 0) return undefined;
      i += 3;
      if (i < end && scratch[i] === DOT) {
        const fractionEnd = digitRunEnd(i + 1, end);
        if (fractionEnd === i + 1 || fractionEnd - i - 1 > 9) return undefined;
        micros = fractionMicros(i + 1, fractionEnd);
        i = fractionEnd;
      }
    }
  }
  const zone = i < end ? zoneAt(i, end) : NO_ZONE;
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
function zoneAt(i: number, end: number): number | undefined {
  const c = scratch[i];
  if (c === UPPER_Z || c === LOWER_Z) return end - i === 1 ? NO_ZONE : undefined;
  if (c !== PLUS && c !== DASH) return undefined;
  const withColon = end - i === 6 && scratch[i + 3] === COLON;
  if (!withColon && end - i !== 5) return undefined;
  const hours = digitsAt(i + 1, 2);
  const minutes = digitsAt(withColon ? i + 4 : i + 3, 2);
  if (hours < 0 || minutes < 0) return undefined;
  const sign = c === DASH ? -1 : 1;
  return sign * (hours * MICROS.hour + minutes * MICROS.minute);
}

/** The number written by `count` ASCII digits at `i`, or -1 when one of them is not a digit. */
function digitsAt(i: number, count: number): number {
  let value = 0;
  for (let k = i; k < i + count; k++) {
    const c = scratch[k];
    if (!(c >= ZERO && c <= NINE)) return -1;
    value = value * 10 + c - ZERO;
  }
  return value;
}

/** The position after the run of ASCII digits that starts at `i` (and ends by `end`). */
function digitRunEnd(i: number, end: number): number {
  while (i < end) {
    const c = scratch[i];
    if (!(c >= ZERO && c <= NINE)) break;
    i++;
  }
  return i;
}

/** Microseconds of the fraction of a second whose digits run from `start` to `end`: the first six, padded. */
function fractionMicros(start: number, end: number): number {
  let micros = 0;
  for (let k = 0; k < 6; k++) {
    micros = micros * 10 + (start + k < end ? scratch[start + k] - ZERO : 0);
  }
  return micros;
}
