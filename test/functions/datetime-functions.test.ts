import { describe, expect, it } from 'vitest';
import { lit } from '../../core/api/functions.js';
import { AnalysisError } from '../../core/errors.js';
import {
  date_trunc,
  dayofmonth,
  hour,
  minute,
  month,
  second,
  to_date,
  to_timestamp,
  unix_timestamp,
  year,
} from '../../core/api/datetime-functions.js';
import {
  DateType,
  field,
  IntegerType,
  LongType,
  StringType,
  struct,
  TimestampType,
} from '../../core/types/data-types.js';
import { bind, evaluate } from '../expr/evaluate.js';

const schema = struct([
  field('s', StringType),
  field('ts', TimestampType),
  field('d', DateType),
  field('n', IntegerType),
]);

/** Microseconds since the epoch of an ISO 8601 instant. */
function micros(iso: string): number {
  return Date.parse(iso) * 1000;
}

/** Days since the epoch of an ISO 8601 date. */
function days(iso: string): number {
  return Date.parse(`${iso}T00:00:00Z`) / 86_400_000;
}

/** Parses `text` with to_timestamp and `format`. */
function parse(text: string | null, format?: string): unknown {
  return evaluate(to_timestamp('s', format), schema, [text, null, null, null]);
}

describe('to_timestamp without a format', () => {
  it('reads text as a cast does', () => {
    expect(parse('2024-01-15 10:30:00')).toBe(micros('2024-01-15T10:30:00Z'));
    expect(parse('2024-01-15T10:30:00.5+01:00')).toBe(micros('2024-01-15T09:30:00.500Z'));
  });

  it('gives null for text that is not a timestamp', () => {
    expect(parse('yesterday')).toBeNull();
    expect(parse('2024-13-01')).toBeNull();
  });

  it('converts dates and passes timestamps through', () => {
    const row = [null, micros('2024-01-15T10:30:00Z'), days('2024-01-15'), null];
    expect(evaluate(to_timestamp('d'), schema, row)).toBe(micros('2024-01-15T00:00:00Z'));
    expect(evaluate(to_timestamp('ts', 'yyyy'), schema, row)).toBe(micros('2024-01-15T10:30:00Z'));
  });

  it('is a timestamp, null for null', () => {
    expect(bind(to_timestamp('s'), schema).dataType).toEqual(TimestampType);
    expect(parse(null)).toBeNull();
  });

  it('rejects an int column at bind time, naming the function', () => {
    expect(() => bind(to_timestamp('n'), schema)).toThrow(AnalysisError);
    expect(() => bind(to_timestamp('n'), schema)).toThrow(
      /to_timestamp\(\) needs timestamp .* got integer/,
    );
  });
});

describe('to_timestamp with a format', () => {
  it('reads year, month, day, hour, minute and second fields', () => {
    expect(parse('15/01/2024 10:30:45', 'dd/MM/yyyy HH:mm:ss')).toBe(
      micros('2024-01-15T10:30:45Z'),
    );
    expect(parse('20240115', 'yyyyMMdd')).toBe(micros('2024-01-15T00:00:00Z'));
  });

  it('reads single-letter fields with one or two digits', () => {
    expect(parse('2024-1-5 7:3', 'yyyy-M-d H:m')).toBe(micros('2024-01-05T07:03:00Z'));
    expect(parse('2024-01-15', 'yyyy-M-d')).toBe(micros('2024-01-15T00:00:00Z'));
  });

  it('needs exactly two digits for doubled letters', () => {
    expect(parse('2024-1-15', 'yyyy-MM-dd')).toBeNull();
  });

  it('reads a fraction of one up to as many digits as S letters', () => {
    const base = micros('2024-01-15T10:30:00Z');
    expect(parse('2024-01-15 10:30:00.123', 'yyyy-MM-dd HH:mm:ss.SSS')).toBe(base + 123_000);
    expect(parse('2024-01-15 10:30:00.5', 'yyyy-MM-dd HH:mm:ss.SSS')).toBe(base + 500_000);
    expect(parse('2024-01-15 10:30:00.123456', 'yyyy-MM-dd HH:mm:ss.SSSSSS')).toBe(base + 123_456);
    expect(parse('2024-01-15 10:30:00.1234', 'yyyy-MM-dd HH:mm:ss.SSS')).toBeNull();
  });

  it('applies offsets in X, x and Z forms', () => {
    const utc = micros('2024-01-15T08:30:00Z');
    expect(parse('2024-01-15 10:30 +02:00', 'yyyy-MM-dd HH:mm XXX')).toBe(utc);
    expect(parse('2024-01-15 08:30 Z', 'yyyy-MM-dd HH:mm XXX')).toBe(utc);
    expect(parse('2024-01-15 05:30 -0300', 'yyyy-MM-dd HH:mm Z')).toBe(utc);
    expect(parse('2024-01-15 10:30 +02', 'yyyy-MM-dd HH:mm X')).toBe(utc);
    expect(parse('2024-01-15 14:00 +0530', 'yyyy-MM-dd HH:mm xx')).toBe(utc);
    expect(parse('2024-01-15 08:30 Z', 'yyyy-MM-dd HH:mm xx')).toBeNull();
  });

  it('rejects offsets beyond 18 hours', () => {
    expect(parse('2024-01-15 10:30 +19:00', 'yyyy-MM-dd HH:mm XXX')).toBeNull();
  });

  it('reads quoted literal text, with two quotes for one', () => {
    expect(parse('2024-01-15T10:30:00Z', "yyyy-MM-dd'T'HH:mm:ssXXX")).toBe(
      micros('2024-01-15T10:30:00Z'),
    );
    expect(parse("10 o'clock", "HH 'o''clock'")).toBe(micros('1970-01-01T10:00:00Z'));
    expect(parse("'10", "''HH")).toBe(micros('1970-01-01T10:00:00Z'));
  });

  it('reads month and day names, case-insensitively', () => {
    expect(parse('Mon, 15 Jan 2024 10:30:00 +0000', 'EEE, dd MMM yyyy HH:mm:ss Z')).toBe(
      micros('2024-01-15T10:30:00Z'),
    );
    expect(parse('15 SEPTEMBER 2024', 'dd MMMM yyyy')).toBe(micros('2024-09-15T00:00:00Z'));
  });

  it('reads 12-hour clocks with AM/PM', () => {
    expect(parse('2024-01-15 12:05 AM', 'yyyy-MM-dd hh:mm a')).toBe(micros('2024-01-15T00:05:00Z'));
    expect(parse('2024-01-15 01:05 pm', 'yyyy-MM-dd hh:mm a')).toBe(micros('2024-01-15T13:05:00Z'));
    expect(parse('2024-01-15 13:05 PM', 'yyyy-MM-dd hh:mm a')).toBeNull();
  });

  it('reads two-digit years as 2000-2099 and days of the year', () => {
    expect(parse('24-01-15', 'yy-MM-dd')).toBe(micros('2024-01-15T00:00:00Z'));
    expect(parse('2024-060', 'yyyy-DDD')).toBe(micros('2024-02-29T00:00:00Z'));
    expect(parse('2023-366', 'yyyy-DDD')).toBeNull();
  });

  it('accepts optional sections', () => {
    const format = 'yyyy-MM-dd[ HH:mm[:ss]]';
    expect(parse('2024-01-15', format)).toBe(micros('2024-01-15T00:00:00Z'));
    expect(parse('2024-01-15 10:30', format)).toBe(micros('2024-01-15T10:30:00Z'));
    expect(parse('2024-01-15 10:30:15', format)).toBe(micros('2024-01-15T10:30:15Z'));
  });

  it('defaults missing fields to 1970-01-01 00:00:00', () => {
    expect(parse('10:30', 'HH:mm')).toBe(micros('1970-01-01T10:30:00Z'));
    expect(parse('2024', 'yyyy')).toBe(micros('2024-01-01T00:00:00Z'));
  });

  it('reads years before 1970 and before 100 exactly', () => {
    expect(parse('1969-12-31 23:59:59', 'yyyy-MM-dd HH:mm:ss')).toBe(-1_000_000);
    const june50 = new Date(Date.UTC(2000, 5, 1));
    june50.setUTCFullYear(50); // Date.UTC would read year 50 as 1950
    expect(parse('0050-06-01', 'yyyy-MM-dd')).toBe(june50.getTime() * 1000);
  });

  it('gives null for text that does not match or has out-of-range fields', () => {
    expect(parse('2024-02-30', 'yyyy-MM-dd')).toBeNull();
    expect(parse('2023-02-29', 'yyyy-MM-dd')).toBeNull();
    expect(parse('2024-01-15 24:00', 'yyyy-MM-dd HH:mm')).toBeNull();
    expect(parse('2024-01-15 10:60', 'yyyy-MM-dd HH:mm')).toBeNull();
    expect(parse('2024-01-15 extra', 'yyyy-MM-dd')).toBeNull();
    expect(parse(' 2024-01-15', 'yyyy-MM-dd')).toBeNull();
    expect(parse('', 'yyyy-MM-dd')).toBeNull();
  });

  it('rejects unsupported pattern letters at bind time, naming the function', () => {
    expect(() => bind(to_timestamp('s', 'yyyy-qq'), schema)).toThrow(AnalysisError);
    expect(() => bind(to_timestamp('s', 'yyyy-qq'), schema)).toThrow(
      /to_timestamp\(\): invalid datetime pattern 'yyyy-qq': 'qq' is not supported/,
    );
    expect(() => bind(to_timestamp('s', 'ddd'), schema)).toThrow(AnalysisError);
  });

  it('rejects unclosed quotes and unbalanced optional sections', () => {
    expect(() => bind(to_timestamp('s', "yyyy'T"), schema)).toThrow(
      /quote at position 4 is not closed/,
    );
    expect(() => bind(to_timestamp('s', 'yyyy[MM'), schema)).toThrow(/is not closed/);
    expect(() => bind(to_timestamp('s', 'yyyy]'), schema)).toThrow(/closes no optional section/);
  });
});

describe('to_date', () => {
  it('parses text into a date, with or without a format', () => {
    const row = ['2024-01-15 23:30:00', null, null, null];
    expect(evaluate(to_date('s'), schema, row)).toBe(days('2024-01-15'));
    expect(evaluate(to_date('s', 'yyyy-MM-dd HH:mm:ss'), schema, row)).toBe(days('2024-01-15'));
    expect(evaluate(to_date('s', 'dd.MM.yyyy'), schema, ['15.01.2024', null, null, null])).toBe(
      days('2024-01-15'),
    );
  });

  it('takes the UTC date of an instant with an offset', () => {
    const row = ['2024-01-15 22:00 -05:00', null, null, null];
    expect(evaluate(to_date('s', 'yyyy-MM-dd HH:mm XXX'), schema, row)).toBe(days('2024-01-16'));
  });

  it('keeps the date of a timestamp, also before 1970', () => {
    const row = [null, micros('1969-12-31T23:00:00Z'), null, null];
    expect(evaluate(to_date('ts'), schema, row)).toBe(-1);
  });

  it('is a date, null for null and for text that does not match', () => {
    expect(bind(to_date('s'), schema).dataType).toEqual(DateType);
    expect(evaluate(to_date('s'), schema, [null, null, null, null])).toBeNull();
    expect(
      evaluate(to_date('s', 'yyyy-MM-dd'), schema, ['15/01/2024', null, null, null]),
    ).toBeNull();
  });

  it('rejects an int column', () => {
    expect(() => bind(to_date('n'), schema)).toThrow(/to_date\(\) needs timestamp/);
  });
});

describe('unix_timestamp', () => {
  it('gives the seconds of a timestamp, rounded towards the past', () => {
    const row = [null, micros('2024-01-15T10:30:00.900Z'), null, null];
    expect(evaluate(unix_timestamp('ts'), schema, row)).toBe(1705314600);
    expect(evaluate(unix_timestamp('ts'), schema, [null, -1, null, null])).toBe(-1);
  });

  it('reads strings as yyyy-MM-dd HH:mm:ss by default', () => {
    expect(evaluate(unix_timestamp('s'), schema, ['2024-01-15 10:30:00', null, null, null])).toBe(
      1705314600,
    );
    expect(evaluate(unix_timestamp('s'), schema, ['2024-01-15', null, null, null])).toBeNull();
  });

  it('reads strings with a given format', () => {
    const row = ['15/01/2024', null, null, null];
    expect(evaluate(unix_timestamp('s', 'dd/MM/yyyy'), schema, row)).toBe(1705276800);
  });

  it('gives the seconds of midnight for a date', () => {
    expect(evaluate(unix_timestamp('d'), schema, [null, null, 1, null])).toBe(86400);
  });

  it('is a long, null for null', () => {
    expect(bind(unix_timestamp('s'), schema).dataType).toEqual(LongType);
    expect(evaluate(unix_timestamp('s'), schema, [null, null, null, null])).toBeNull();
  });

  it('rejects an int column', () => {
    expect(() => bind(unix_timestamp('n'), schema)).toThrow(/unix_timestamp\(\) needs timestamp/);
  });
});

describe('date_trunc', () => {
  const t = micros('2024-08-14T15:47:33.123456Z'); // a Wednesday
  const truncate = (unit: string, value: number | null = t) =>
    evaluate(date_trunc(unit, 'ts'), schema, [null, value, null, null]);

  it('truncates to the start of each unit', () => {
    expect(truncate('year')).toBe(micros('2024-01-01T00:00:00Z'));
    expect(truncate('quarter')).toBe(micros('2024-07-01T00:00:00Z'));
    expect(truncate('month')).toBe(micros('2024-08-01T00:00:00Z'));
    expect(truncate('week')).toBe(micros('2024-08-12T00:00:00Z'));
    expect(truncate('day')).toBe(micros('2024-08-14T00:00:00Z'));
    expect(truncate('hour')).toBe(micros('2024-08-14T15:00:00Z'));
    expect(truncate('minute')).toBe(micros('2024-08-14T15:47:00Z'));
    expect(truncate('second')).toBe(micros('2024-08-14T15:47:33Z'));
    expect(truncate('millisecond')).toBe(micros('2024-08-14T15:47:33.123Z'));
    expect(truncate('microsecond')).toBe(t);
  });

  it("accepts Spark's aliases in any case", () => {
    expect(truncate('YYYY')).toBe(micros('2024-01-01T00:00:00Z'));
    expect(truncate('mon')).toBe(micros('2024-08-01T00:00:00Z'));
    expect(truncate('MM')).toBe(micros('2024-08-01T00:00:00Z'));
    expect(truncate('DD')).toBe(micros('2024-08-14T00:00:00Z'));
  });

  it('starts weeks on Monday, also across month and year ends and before 1970', () => {
    expect(truncate('week', micros('2024-01-01T12:00:00Z'))).toBe(micros('2024-01-01T00:00:00Z'));
    expect(truncate('week', micros('2023-01-01T12:00:00Z'))).toBe(micros('2022-12-26T00:00:00Z'));
    expect(truncate('week', micros('1970-01-01T12:00:00Z'))).toBe(micros('1969-12-29T00:00:00Z'));
  });

  it('truncates instants before 1970 towards the past', () => {
    expect(truncate('day', micros('1969-12-31T23:59:59Z'))).toBe(micros('1969-12-31T00:00:00Z'));
    expect(truncate('quarter', micros('1969-12-31T23:59:59Z'))).toBe(
      micros('1969-10-01T00:00:00Z'),
    );
  });

  it('takes dates and timestamp text too', () => {
    expect(evaluate(date_trunc('month', 'd'), schema, [null, null, days('2024-08-14'), null])).toBe(
      micros('2024-08-01T00:00:00Z'),
    );
    expect(evaluate(date_trunc('hour', lit('2024-08-14 15:47:00')))).toBe(
      micros('2024-08-14T15:00:00Z'),
    );
  });

  it('is a timestamp, null for null', () => {
    expect(bind(date_trunc('day', 'ts'), schema).dataType).toEqual(TimestampType);
    expect(truncate('day', null)).toBeNull();
  });

  it('rejects an unknown unit at bind time, listing the known ones', () => {
    expect(() => bind(date_trunc('fortnight', 'ts'), schema)).toThrow(AnalysisError);
    expect(() => bind(date_trunc('fortnight', 'ts'), schema)).toThrow(
      /date_trunc\(\) does not know the unit 'fortnight'; use one of: year, /,
    );
  });

  it('rejects an int column', () => {
    expect(() => bind(date_trunc('day', 'n'), schema)).toThrow(
      /date_trunc\(\) needs timestamp as argument 2/,
    );
  });
});

describe('field extractors', () => {
  const row = [null, micros('2024-08-14T15:47:33.9Z'), days('2023-02-28'), 5];

  it('read year, month and day of month from dates', () => {
    expect(evaluate(year('d'), schema, row)).toBe(2023);
    expect(evaluate(month('d'), schema, row)).toBe(2);
    expect(evaluate(dayofmonth('d'), schema, row)).toBe(28);
  });

  it('read year, month and day of month from timestamps and text', () => {
    expect(evaluate(year('ts'), schema, row)).toBe(2024);
    expect(evaluate(month('ts'), schema, row)).toBe(8);
    expect(evaluate(dayofmonth(lit('2024-08-14')))).toBe(14);
  });

  it('read hour, minute and whole second from timestamps', () => {
    expect(evaluate(hour('ts'), schema, row)).toBe(15);
    expect(evaluate(minute('ts'), schema, row)).toBe(47);
    expect(evaluate(second('ts'), schema, row)).toBe(33);
    expect(evaluate(hour(lit('2024-08-14 06:00:00')))).toBe(6);
  });

  it('read fields of instants before 1970 correctly', () => {
    const before = [null, micros('1969-12-31T23:58:59.5Z'), -1, null];
    expect(evaluate(hour('ts'), schema, before)).toBe(23);
    expect(evaluate(minute('ts'), schema, before)).toBe(58);
    expect(evaluate(second('ts'), schema, before)).toBe(59);
    expect(evaluate(year('d'), schema, before)).toBe(1969);
    expect(evaluate(dayofmonth('d'), schema, before)).toBe(31);
  });

  it('give ints, null for null and for text that is not a date', () => {
    expect(bind(hour('ts'), schema).dataType).toEqual(IntegerType);
    expect(bind(year('d'), schema).dataType).toEqual(IntegerType);
    expect(evaluate(hour('ts'), schema, [null, null, null, null])).toBeNull();
    expect(evaluate(year(lit('not a date')))).toBeNull();
  });

  it('reject int columns, naming the function', () => {
    expect(() => bind(hour('n'), schema)).toThrow(/hour\(\) needs timestamp .* got integer/);
    expect(() => bind(year('n'), schema)).toThrow(/year\(\) needs date .* got integer/);
  });
});
