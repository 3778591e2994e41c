import { describe, expect, it } from 'vitest';
import { InvalidOptionError } from '../../core/errors.js';
import { intervalMicros, parseInterval } from '../../core/types/interval.js';

const SECOND = 1_000_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('interval strings, read as Spark reads them', () => {
  it('reads a unit list, with or without the interval keyword, signs and fractions', () => {
    expect(parseInterval('1 hour 30 minutes', 'x')).toEqual({ months: 0, micros: 90 * MINUTE });
    expect(parseInterval('interval 2 weeks', 'x')).toEqual({ months: 0, micros: 14 * DAY });
    expect(parseInterval('-5 seconds', 'x')).toEqual({ months: 0, micros: -5 * SECOND });
    expect(parseInterval('1.5 hours', 'x')).toEqual({ months: 0, micros: 90 * MINUTE });
  });

  it('keeps months and years apart from the microseconds', () => {
    expect(parseInterval('1 year 2 months 3 days', 'x')).toEqual({ months: 14, micros: 3 * DAY });
    expect(parseInterval('INTERVAL 1 month', 'x')).toEqual({ months: 1, micros: 0 });
  });

  it("reads Spark's quoted SQL interval literals", () => {
    expect(parseInterval("INTERVAL '10' MINUTE", 'x')).toEqual({ months: 0, micros: 10 * MINUTE });
    expect(parseInterval("interval -'5' second", 'x')).toEqual({ months: 0, micros: -5 * SECOND });
    expect(parseInterval("INTERVAL '10 minutes'", 'x')).toEqual({ months: 0, micros: 10 * MINUTE });
    expect(parseInterval("INTERVAL '1 10:30' DAY TO MINUTE", 'x')).toEqual({
      months: 0,
      micros: DAY + 10 * HOUR + 30 * MINUTE,
    });
    expect(parseInterval("INTERVAL '-1:30:15.5' HOUR TO SECOND", 'x')).toEqual({
      months: 0,
      micros: -(HOUR + 30 * MINUTE + 15.5 * SECOND),
    });
    expect(parseInterval("INTERVAL '1-6' YEAR TO MONTH", 'x')).toEqual({ months: 18, micros: 0 });
  });

  it('refuses malformed intervals, naming the argument and the text', () => {
    for (const text of ['10 minuts', '10', '', "INTERVAL '1 25:00' DAY TO MINUTE", '1.5 months']) {
      expect(() => parseInterval(text, 'window duration')).toThrow(InvalidOptionError);
    }
    expect(() => parseInterval('10 minuts', 'window duration')).toThrow(
      /Invalid window duration '10 minuts'/,
    );
  });

  it('counts a month as 31 days when an interval must be one duration', () => {
    expect(intervalMicros(parseInterval('1 month 1 hour', 'x'))).toBe(31 * DAY + HOUR);
    expect(intervalMicros(parseInterval('1 year', 'x'))).toBe(12 * 31 * DAY);
  });
});
