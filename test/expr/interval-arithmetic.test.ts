import { describe, expect, it } from 'vitest';
import { rowsToBatch } from '../../core/columnar/column-builder.js';
import { readerOf } from '../../core/columnar/column-reader.js';
import { col, interval, lit, when } from '../../core/api/functions.js';
import { AnalysisError, ExecutionError, InvalidOptionError } from '../../core/errors.js';
import { kernelOf } from '../../core/expr/kernels/generic-kernel.js';
import { KernelInput } from '../../core/expr/kernels/kernel.js';
import { IntervalType } from '../../core/types/calendar-interval.js';
import {
  DateType,
  field,
  IntegerType,
  StringType,
  struct,
  TimestampType,
} from '../../core/types/data-types.js';
import type { Column } from '../../core/api/column.js';
import { bind, evaluate } from './evaluate.js';

const schema = struct([
  field('ts', TimestampType),
  field('i', IntegerType),
  field('s', StringType),
  field('dt', DateType),
]);
const µs = (iso: string) => Date.parse(iso) * 1000;
const iso = (micros: number) => new Date(micros / 1000).toISOString();
/** `column` evaluated on a row whose `ts` is `ts` (the other columns null). */
const at = (column: Column, ts: number | null) => evaluate(column, schema, [ts, null, null, null]);

describe('interval literals', () => {
  it.each([
    ['1 hour', { months: 0, days: 0, micros: 3_600_000_000 }],
    ['1 day', { months: 0, days: 1, micros: 0 }],
    ['24 hours', { months: 0, days: 0, micros: 86_400_000_000 }],
    ['2 weeks 1 day', { months: 0, days: 15, micros: 0 }],
    ['1 year 2 months', { months: 14, days: 0, micros: 0 }],
    ["INTERVAL '1 10:30' DAY TO MINUTE", { months: 0, days: 1, micros: 37_800_000_000 }],
    ["INTERVAL -'1 10:30' DAY TO MINUTE", { months: 0, days: -1, micros: -37_800_000_000 }],
    ['-5 seconds', { months: 0, days: 0, micros: -5_000_000 }],
  ])('interval(%j) holds months, days and microseconds apart', (text, expected) => {
    expect(evaluate(interval(text))).toEqual(expected);
    expect(bind(interval(text)).dataType).toEqual(IntervalType);
  });

  it.each(['', '1 hourz', '1.5 months', 'soon'])(
    'interval(%j) is refused, naming the text',
    (text) => {
      expect(() => interval(text)).toThrow(InvalidOptionError);
      expect(() => interval(text)).toThrow(`'${text}'`);
    },
  );
});

describe('timestamp ± interval', () => {
  it.each([
    ['2026-01-31T10:00:00Z', '1 month', '2026-02-28T10:00:00.000Z'], // the month is shorter: its last day
    ['2024-01-31T10:00:00Z', '1 month', '2024-02-29T10:00:00.000Z'], // a leap year
    ['2026-03-31T00:00:00Z', '-1 month', '2026-02-28T00:00:00.000Z'],
    ['2026-01-15T12:00:00Z', '13 months', '2027-02-15T12:00:00.000Z'],
    ['2026-12-31T23:30:00Z', '1 hour', '2027-01-01T00:30:00.000Z'],
    ['2026-01-31T00:00:00Z', '1 month 1 day', '2026-03-01T00:00:00.000Z'], // months first, then days
    ['2026-02-28T00:00:00Z', '1 day', '2026-03-01T00:00:00.000Z'],
    ['1969-12-31T23:00:00Z', '2 hours', '1970-01-01T01:00:00.000Z'],
    ['1969-01-31T06:00:00Z', '1 month', '1969-02-28T06:00:00.000Z'], // before the epoch
  ])('%s + %s is %s (UTC)', (start, text, expected) => {
    expect(iso(at(col('ts').plus(interval(text)), µs(start)) as number)).toBe(expected);
    expect(iso(at(interval(text).plus(col('ts')), µs(start)) as number)).toBe(expected);
  });

  it('subtracting an interval adds its negation', () => {
    const ts = µs('2026-03-31T08:00:00Z');
    expect(iso(at(col('ts').minus(interval('1 month 1 hour')), ts) as number)).toBe(
      '2026-02-28T07:00:00.000Z',
    );
  });

  it('is a timestamp, and null when either side is null', () => {
    expect(bind(col('ts').plus(interval('1 hour')), schema).dataType).toEqual(TimestampType);
    expect(at(col('ts').plus(interval('1 hour')), null)).toBeNull();
    const nullInterval = when(lit(false), interval('1 hour'));
    expect(bind(nullInterval).dataType).toEqual(IntervalType);
    expect(at(col('ts').plus(nullInterval), µs('2026-01-01T00:00:00Z'))).toBeNull();
    expect(at(lit(null).minus(interval('1 hour')), null)).toBeNull();
  });

  it('adds intervals to intervals field by field', () => {
    expect(evaluate(interval('1 month 1 hour').plus(interval('2 days')))).toEqual({
      months: 1,
      days: 2,
      micros: 3_600_000_000,
    });
    expect(evaluate(interval('1 month').minus(interval('1 day')))).toEqual({
      months: 1,
      days: -1,
      micros: 0,
    });
  });

  it.each([
    ['an integer', () => col('i').plus(interval('1 hour'))],
    ['a string', () => col('s').minus(interval('1 hour'))],
    ['a date', () => col('dt').plus(interval('1 day'))],
    ['an interval minus a timestamp', () => interval('1 hour').minus(col('ts'))],
  ])('refuses %s with an interval, saying to cast to timestamp', (_, column) => {
    expect(() => bind(column(), schema)).toThrow(AnalysisError);
    expect(() => bind(column(), schema)).toThrow(/cast the other operand to timestamp/);
  });

  it('fails naming the interval when the result leaves the timestamp range', () => {
    const big = interval('200000 years');
    expect(() => at(col('ts').plus(big), µs('2026-01-01T00:00:00Z'))).toThrow(ExecutionError);
    expect(() => at(col('ts').plus(big), µs('2026-01-01T00:00:00Z'))).toThrow(
      /Timestamp overflow.*200000 years/,
    );
  });

  it('computes per batch what it computes per row', () => {
    const bound = bind(col('ts').plus(interval('1 month')), schema);
    const rows = [
      [µs('2026-01-31T10:00:00Z'), null, null, null],
      [null, null, null, null],
      [µs('2026-05-31T23:59:59Z'), null, null, null],
    ];
    const column = kernelOf(bound)(new KernelInput(rowsToBatch(schema, rows)), null);
    const read = readerOf(column);
    expect(rows.map((_, i) => read(i))).toEqual(rows.map((r) => bound.eval(r)));
  });
});

describe('between', () => {
  it('includes both bounds, and is null for a null time', () => {
    const start = µs('2026-01-01T10:00:00Z');
    const within = col('ts').between(
      lit(new Date(start / 1000)),
      lit(new Date(start / 1000)).plus(interval('1 hour')),
    );
    expect(at(within, start)).toBe(true);
    expect(at(within, start + 3_600_000_000)).toBe(true);
    expect(at(within, start + 3_600_000_001)).toBe(false);
    expect(at(within, start - 1)).toBe(false);
    expect(at(within, null)).toBeNull();
  });

  it('refuses to order intervals, as Spark does', () => {
    expect(() => bind(interval('1 day').gt(interval('23 hours')))).toThrow(
      /Intervals have no order/,
    );
  });
});
