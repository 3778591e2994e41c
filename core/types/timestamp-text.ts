/**
 * Text forms of timestamps and dates, as Spark's casts read and write them. The session time zone
 * is UTC: text without an offset is read as UTC, and timestamps are shown in UTC.
 */

/** Microseconds in one millisecond, second, minute, hour and day. */
export const MICROS = {
  millisecond: 1_000,
  second: 1_000_000,
  minute: 60_000_000,
  hour: 3_600_000_000,
  day: 86_400_000_000,
} as const;

const TIMESTAMP_PATTERN =
  /^\s*(\d{4,})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:\.(\d{1,9}))?)?)?\s*(Z|[+-]\d{2}:?\d{2})?\s*$/i;

/**
 * Parses `yyyy-MM-dd[( |T)HH:mm[:ss[.fraction]]][Z|±HH:mm]` into microseconds since the epoch,
 * or returns null when the text is not a valid timestamp.
 */
export function parseTimestamp(text: string): number | null {
  const instant = parseIsoInstant(text);
  if (instant !== undefined) return instant;
  const m = TIMESTAMP_PATTERN.exec(text);
  if (!m) return null;
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '', zone] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return null;
  const millis = Date.UTC(year, month - 1, day, Number(h), Number(mi), Number(s));
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

/** ISO instants as JSON writers and `toISOString` emit them; a 9 stands for any digit. */
const ISO_MILLIS_SHAPE = '9999-99-99T99:99:99.999Z';
const ISO_SECONDS_SHAPE = '9999-99-99T99:99:99Z';
const ZERO = 48;
const NINE = 57;

/**
 * An ISO instant (`2026-01-01T10:03:12.345Z`) read by character position: event times nearly always
 * come in this form, and this is several times faster than the pattern. Undefined for text of any
 * other form, which the pattern then reads (to the same result for this form).
 */
function parseIsoInstant(text: string): number | null | undefined {
  const shape =
    text.length === ISO_MILLIS_SHAPE.length
      ? ISO_MILLIS_SHAPE
      : text.length === ISO_SECONDS_SHAPE.length
        ? ISO_SECONDS_SHAPE
        : undefined;
  if (shape === undefined || !hasShape(text, shape)) return undefined;
  const year = numberAt(text, 0, 4);
  const month = numberAt(text, 5, 2);
  const day = numberAt(text, 8, 2);
  const hour = numberAt(text, 11, 2);
  const minute = numberAt(text, 14, 2);
  const second = numberAt(text, 17, 2);
  const millis = shape === ISO_MILLIS_SHAPE ? numberAt(text, 20, 3) : 0;
  if (month < 1 || month > 12 || day < 1 || (day > 28 && day > daysInMonth(year, month))) {
    return null;
  }
  if (hour > 23 || minute > 59 || second > 59) return null;
  return (Date.UTC(year, month - 1, day, hour, minute, second) + millis) * 1000;
}

/** True when `text` has a digit where `shape` has a 9, and the same character elsewhere. */
function hasShape(text: string, shape: string): boolean {
  for (let i = 0; i < shape.length; i++) {
    const c = text.charCodeAt(i);
    const expected = shape.charCodeAt(i);
    if (expected === NINE ? c < ZERO || c > NINE : c !== expected) return false;
  }
  return true;
}

/** The decimal number written by the `length` digits at `start`. */
function numberAt(text: string, start: number, length: number): number {
  let value = 0;
  for (let i = start; i < start + length; i++) value = value * 10 + text.charCodeAt(i) - ZERO;
  return value;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function zoneOffsetMicros(zone: string | undefined): number {
  if (!zone || zone.toUpperCase() === 'Z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  return (
    sign * (Number(digits.slice(0, 2)) * MICROS.hour + Number(digits.slice(2)) * MICROS.minute)
  );
}
