import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  civilFromDays,
  daysFromCivil,
  daysInMonth,
  epochDay,
  floorMod,
  isLeapYear,
} from '../../core/types/calendar.js';

/** The same date through JS's Date, for comparison (valid for years 100 and later). */
function viaDate(days: number): { year: number; month: number; day: number } {
  const d = new Date(days * 86_400_000);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

describe('calendar arithmetic', () => {
  it('counts days from 1970-01-01', () => {
    expect(daysFromCivil(1970, 1, 1)).toBe(0);
    expect(daysFromCivil(2024, 1, 15)).toBe(19737);
    expect(daysFromCivil(1969, 12, 31)).toBe(-1);
    expect(civilFromDays(-1)).toEqual({ year: 1969, month: 12, day: 31 });
  });

  it('agrees with JS dates and round-trips for every day from year 100 to 9999', () => {
    const days = fc.integer({ min: daysFromCivil(100, 1, 1), max: daysFromCivil(9999, 12, 31) });
    fc.assert(
      fc.property(days, (d) => {
        const date = civilFromDays(d);
        expect(date).toEqual(viaDate(d));
        expect(daysFromCivil(date.year, date.month, date.day)).toBe(d);
      }),
    );
  });

  it('handles years before 100, which Date.UTC maps to the 1900s', () => {
    expect(civilFromDays(daysFromCivil(50, 6, 1))).toEqual({ year: 50, month: 6, day: 1 });
    expect(daysFromCivil(0, 3, 1) - daysFromCivil(0, 2, 28)).toBe(2); // year 0 is a leap year
  });

  it('knows leap years and month lengths', () => {
    expect([1900, 2000, 2023, 2024].map(isLeapYear)).toEqual([false, true, false, true]);
    expect(daysInMonth(2024, 2)).toBe(29);
    expect(daysInMonth(2023, 2)).toBe(28);
    expect(daysInMonth(2023, 4)).toBe(30);
    expect(daysInMonth(2023, 12)).toBe(31);
  });

  it('puts an instant on its day, rounding towards the past before 1970', () => {
    expect(epochDay(0)).toBe(0);
    expect(epochDay(-1)).toBe(-1);
    expect(epochDay(86_400_000_000 - 1)).toBe(0);
    // Just before midnight late in the supported range, where dividing first would round up.
    const lastMicro = daysFromCivil(2250, 1, 1) * 86_400_000_000 - 1;
    expect(epochDay(lastMicro)).toBe(daysFromCivil(2249, 12, 31));
  });

  it('takes remainders with the sign of the divisor', () => {
    expect(floorMod(7, 3)).toBe(1);
    expect(floorMod(-7, 3)).toBe(2);
    expect(floorMod(-6, 3)).toBe(0);
    expect(floorMod(7, -3)).toBe(-2);
  });
});
