/**
 * Spark's calendar interval (CalendarInterval): a value of the `interval` type, in three fields that
 * are never converted into one another, because neither a month nor (in a time zone with daylight
 * saving) a day has a fixed length. Sluice's session time zone is UTC, where a day is always 24
 * hours, so days and microseconds add alike; they stay apart so an interval reads back as written.
 *
 * `timestamp + interval` follows Spark's DateTimeUtils.timestampAddInterval, in UTC: add the months
 * to the timestamp's calendar date, keeping its day of month unless the new month is shorter, in
 * which case the day is the new month's last (Jan 31 + 1 month is Feb 28, or Feb 29 in a leap
 * year; Mar 31 - 1 month is Feb 28); then add the days, then the microseconds.
 */
import { ExecutionError } from '../errors.js';
import { civilFromDays, daysFromCivil, daysInMonth, epochDay } from './calendar.js';
import type { AtomicType } from './data-types.js';
import { type IntervalParts, parseIntervalParts } from './interval.js';
import { MICROS } from './time-units.js';

/** The calendar interval type. */
export const IntervalType: AtomicType = { kind: 'interval' };

/** A value of the interval type: whole months, whole days, and microseconds. */
export type CalendarInterval = IntervalParts;

/** Reads an interval string (`'1 hour'`, `"INTERVAL '1-2' YEAR TO MONTH"`) as a calendar interval. */
export function calendarInterval(text: string): CalendarInterval {
  return parseIntervalParts(text, 'interval');
}

/** True for a value in the engine's form of an interval. */
export function isCalendarInterval(v: unknown): v is CalendarInterval {
  if (typeof v !== 'object' || v === null) return false;
  const { months, days, micros } = v as Partial<CalendarInterval>;
  return Number.isInteger(months) && Number.isInteger(days) && Number.isSafeInteger(micros);
}

/** The interval with every field negated (`ts - i` is `ts + (-i)`, as in Spark). */
export function negateInterval(i: CalendarInterval): CalendarInterval {
  return { months: 0 - i.months, days: 0 - i.days, micros: 0 - i.micros };
}

/** The field-wise sum of two intervals. */
export function addIntervals(a: CalendarInterval, b: CalendarInterval): CalendarInterval {
  return { months: a.months + b.months, days: a.days + b.days, micros: a.micros + b.micros };
}

/** `micros + i` for a timestamp in microseconds since the epoch, in UTC (see the module doc). */
export function timestampPlusInterval(micros: number, i: CalendarInterval): number {
  let day = epochDay(micros);
  const timeOfDay = micros - day * MICROS.day;
  if (i.months !== 0) {
    const date = civilFromDays(day);
    const monthIndex = date.year * 12 + (date.month - 1) + i.months;
    const year = Math.floor(monthIndex / 12);
    const month = monthIndex - year * 12 + 1;
    day = daysFromCivil(year, month, Math.min(date.day, daysInMonth(year, month)));
  }
  const result = (day + i.days) * MICROS.day + timeOfDay + i.micros;
  if (!Number.isSafeInteger(result)) {
    throw new ExecutionError(
      `Timestamp overflow: ${micros} µs + interval '${intervalText(i)}' is outside the timestamp range; check the interval.`,
    );
  }
  return result;
}

/** Spark's text of an interval, e.g. `1 years 2 months 3 days 4 hours 30 minutes 1.5 seconds`. */
export function intervalText(i: CalendarInterval): string {
  const parts: string[] = [];
  const years = Math.trunc(i.months / 12);
  const months = i.months - years * 12;
  if (years !== 0) parts.push(`${years} years`);
  if (months !== 0) parts.push(`${months} months`);
  if (i.days !== 0) parts.push(`${i.days} days`);
  const hours = Math.trunc(i.micros / MICROS.hour);
  const minutes = Math.trunc((i.micros - hours * MICROS.hour) / MICROS.minute);
  const secondMicros = i.micros - hours * MICROS.hour - minutes * MICROS.minute;
  if (hours !== 0) parts.push(`${hours} hours`);
  if (minutes !== 0) parts.push(`${minutes} minutes`);
  if (secondMicros !== 0) parts.push(`${secondMicros / MICROS.second} seconds`);
  return parts.length === 0 ? '0 seconds' : parts.join(' ');
}
