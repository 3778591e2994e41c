/**
 * Interval strings as Spark reads them in `window`, `withWatermark` and triggers
 * (IntervalUtils.fromIntervalString):
 * - a unit list: `'10 minutes'`, `'1 hour 30 minutes'`, `'-5 seconds'`, `'1.5 hours'`, `'2 weeks'`,
 *   `'1 month'`, `'1 year'`, optionally after `interval`;
 * - after `interval`, Spark's SQL interval literals: `INTERVAL '10' MINUTE`, `INTERVAL -'5' SECOND`,
 *   `INTERVAL '1 10:30' DAY TO MINUTE`, `INTERVAL '1:30:15.5' HOUR TO SECOND`,
 *   `INTERVAL '1-6' YEAR TO MONTH`, `INTERVAL '10 minutes'`.
 * Months (a year is 12) are kept apart from microseconds, as in Spark's CalendarInterval: a month
 * has no fixed length, and each use decides what to do with them.
 */
import { InvalidOptionError } from '../errors.js';
import { MICROS } from './timestamp-text.js';

/** An interval: whole months, and microseconds (days count 24 hours: the session time zone is UTC). */
export interface Interval {
  readonly months: number;
  readonly micros: number;
}

/** An interval in Spark's three fields: months, days, and microseconds below a day. */
export interface IntervalParts {
  readonly months: number;
  readonly days: number;
  readonly micros: number;
}

/** What a month counts when a delay must be one duration (Spark's IntervalUtils.getDuration). */
const DAYS_PER_MONTH = 31;

const UNIT_MICROS: Record<string, number> = {
  microsecond: 1,
  millisecond: MICROS.millisecond,
  ms: MICROS.millisecond,
  second: MICROS.second,
  sec: MICROS.second,
  s: MICROS.second,
  minute: MICROS.minute,
  min: MICROS.minute,
  m: MICROS.minute,
  hour: MICROS.hour,
  h: MICROS.hour,
  day: MICROS.day,
  d: MICROS.day,
  week: 7 * MICROS.day,
};

const UNIT_MONTHS: Record<string, number> = { month: 1, year: 12 };

/** Whole days and weeks count as days (a fraction of one is kept as microseconds, as Spark does). */
const UNIT_DAYS: Record<string, number> = { day: 1, d: 1, week: 7 };

/** One `<value> <unit>` of a unit list; the value may be quoted and signed inside and outside. */
const UNIT_PART = /\s*([+-]?)\s*(?:'([+-]?\d+(?:\.\d+)?)'|(\d+(?:\.\d+)?))\s*([a-z]+)\s*/iy;

/** `'<text>' <from> TO <to>`, with an optional sign before the quote. */
const UNIT_TO_UNIT = /^([+-]?)\s*'([^']*)'\s+([a-z]+)\s+to\s+([a-z]+)$/i;

/** The day-time fields, in order, and the separator in front of each in a unit-to-unit literal. */
const DAY_TIME_FIELDS = [
  { name: 'day', micros: MICROS.day, separator: '', below: Infinity },
  { name: 'hour', micros: MICROS.hour, separator: ' ', below: 24 },
  { name: 'minute', micros: MICROS.minute, separator: ':', below: 60 },
  { name: 'second', micros: MICROS.second, separator: ':', below: 60 },
] as const;

/**
 * Parses an interval string; `what` names the argument in the error message, e.g.
 * `parseInterval('10 minuts', 'window duration')` fails naming "window duration".
 */
export function parseInterval(text: string, what: string): Interval {
  const { months, days, micros } = parseIntervalParts(text, what);
  return { months, micros: days * MICROS.day + micros };
}

/**
 * Parses an interval string into Spark's three fields (CalendarInterval): months, days and
 * microseconds, days kept apart from the units below them (`'1 day'` is 1 day, `'24 hours'` is
 * 24 hours), as a `timestamp + interval` reads them.
 */
export function parseIntervalParts(text: string, what: string): IntervalParts {
  const trimmed = text.trim();
  const literal = /^interval\s+(.*)$/is.exec(trimmed);
  const interval = literal ? parseIntervalLiteral(literal[1]) : parseUnitList(trimmed);
  if (!interval) {
    throw new InvalidOptionError(
      `Invalid ${what} '${text}': expected an interval such as '10 minutes', '1 hour 30 minutes' or "INTERVAL '10' MINUTE".`,
    );
  }
  return interval;
}

/**
 * The microseconds of an interval that must be one duration (a watermark delay), a month counting
 * 31 days as in Spark.
 */
export function intervalMicros(interval: Interval): number {
  return interval.months * DAYS_PER_MONTH * MICROS.day + interval.micros;
}

/** The body of an `INTERVAL ...` literal: unit-to-unit, one quoted unit list, or a unit list. */
function parseIntervalLiteral(body: string): IntervalParts | undefined {
  const unitToUnit = UNIT_TO_UNIT.exec(body.trim());
  if (unitToUnit) {
    const [, sign, value, from, to] = unitToUnit;
    const interval = parseUnitToUnit(value.trim(), from.toLowerCase(), to.toLowerCase());
    return interval && sign === '-' ? negate(interval) : interval;
  }
  const quoted = /^'([^']*)'$/.exec(body.trim());
  return parseUnitList(quoted ? quoted[1] : body);
}

function parseUnitList(text: string): IntervalParts | undefined {
  let months = 0;
  let days = 0;
  let micros = 0;
  let parts = 0;
  UNIT_PART.lastIndex = 0;
  while (UNIT_PART.lastIndex < text.length) {
    const m = UNIT_PART.exec(text);
    if (!m) return undefined;
    const [, outerSign, quoted, plain, unitText] = m;
    const value = Number(quoted ?? plain) * (outerSign === '-' ? -1 : 1);
    const unit = unitName(unitText.toLowerCase());
    if (unit in UNIT_MONTHS) {
      if (!Number.isInteger(value)) return undefined; // a month has no fraction
      months += value * UNIT_MONTHS[unit];
    } else if (unit in UNIT_DAYS && Number.isInteger(value)) {
      days += value * UNIT_DAYS[unit];
    } else if (unit in UNIT_MICROS) {
      micros += value * UNIT_MICROS[unit];
    } else {
      return undefined;
    }
    parts++;
  }
  return parts > 0 ? { months, days, micros: Math.round(micros) } : undefined;
}

/** A unit name without its plural `s` (`minutes`, `years`), abbreviations kept (`ms`, `s`). */
function unitName(unit: string): string {
  return unit in UNIT_MICROS ? unit : unit.replace(/s$/, '');
}

/** `'1-6' YEAR TO MONTH`, or a day-time range such as `'1 10:30' DAY TO MINUTE`. */
function parseUnitToUnit(value: string, from: string, to: string): IntervalParts | undefined {
  if (from === 'year' && to === 'month') {
    const m = /^([+-]?)(\d+)-(\d+)$/.exec(value);
    if (!m || Number(m[3]) > 11) return undefined;
    const months = Number(m[2]) * 12 + Number(m[3]);
    return { months: m[1] === '-' ? -months : months, days: 0, micros: 0 };
  }
  const first = DAY_TIME_FIELDS.findIndex((f) => f.name === from);
  const last = DAY_TIME_FIELDS.findIndex((f) => f.name === to);
  if (first < 0 || last <= first) return undefined;
  const fields = DAY_TIME_FIELDS.slice(first, last + 1);
  const pattern = fields
    .map(
      (f, i) => `${i === 0 ? '' : f.separator}(\\d+${f.name === 'second' ? '(?:\\.\\d+)?' : ''})`,
    )
    .join('');
  const m = new RegExp(`^([+-]?)${pattern}$`).exec(value);
  if (!m) return undefined;
  const values = fields.map((_, i) => Number(m[i + 2]));
  // Only the leading field may exceed its natural range ('25:00' HOUR TO MINUTE is 25 hours).
  if (values.some((v, i) => i > 0 && v >= fields[i].below)) return undefined;
  const dayCount = fields[0].name === 'day' ? values[0] : 0;
  const micros = Math.round(
    values.reduce((sum, v, i) => sum + (fields[i].name === 'day' ? 0 : v * fields[i].micros), 0),
  );
  return m[1] === '-'
    ? { months: 0, days: 0 - dayCount, micros: 0 - micros }
    : { months: 0, days: dayCount, micros };
}

function negate(interval: IntervalParts): IntervalParts {
  // `0 - x`, not `-x`: an interval never holds a negative zero
  return { months: 0 - interval.months, days: 0 - interval.days, micros: 0 - interval.micros };
}
