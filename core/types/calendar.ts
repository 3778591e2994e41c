/**
 * Proleptic Gregorian calendar arithmetic on the engine's representations: dates as days since
 * 1970-01-01, timestamps as microseconds since the epoch (UTC). Pure integer arithmetic, so it is
 * exact for every year, unlike `Date.UTC`, which maps years 0-99 to 1900-1999.
 */
import { MICROS } from './time-units.js';

/** A calendar date; `month` is 1-12. */
export interface CivilDate {
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

/** Days since 1970-01-01 of a calendar date (Howard Hinnant's `days_from_civil`). */
export function daysFromCivil(year: number, month: number, day: number): number {
  // Years start in March so that the leap day is the last day of the year.
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * ((month + 9) % 12) + 2) / 5) + day - 1;
  const dayOfEra =
    yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
}

/** The calendar date of a day since 1970-01-01 (Howard Hinnant's `civil_from_days`). */
export function civilFromDays(days: number): CivilDate {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const dayOfEra = z - era * 146097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36524) -
      Math.floor(dayOfEra / 146096)) /
      365,
  );
  const dayOfYear =
    dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shiftedMonth = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * shiftedMonth + 2) / 5) + 1;
  const month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
  return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

/** True for Gregorian leap years. */
export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** The number of days in a month (1-12) of a year. */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** The day (since the epoch) a timestamp falls on; rounds towards the past for instants before 1970. */
export function epochDay(micros: number): number {
  // `%` on doubles is exact, where `Math.floor(micros / day)` can round up just before midnight.
  return (micros - floorMod(micros, MICROS.day)) / MICROS.day;
}

/** The remainder of `a / b` with the sign of `b`, as Java's `Math.floorMod`. */
export function floorMod(a: number, b: number): number {
  const r = a % b;
  if (r === 0) return 0; // not -0, which `-6 % 3` gives
  return Math.sign(r) === Math.sign(b) ? r : r + b;
}
