import { describe, expect, it } from 'vitest';
import { col, lit } from '../../core/api/functions.js';
import {
  add_months,
  current_date,
  date_add,
  date_format,
  date_part,
  date_sub,
  datediff,
  from_unixtime,
  months_between,
  unix_millis,
} from '../../core/api/datetime-functions.js';
import { AnalysisError } from '../../core/errors.js';
import { bindExpression } from '../../core/expr/binder.js';
import { schemaScope } from '../../core/expr/scope.js';
import { builtinFunctions } from '../../core/functions/builtin-functions.js';
import {
  DateType,
  field,
  IntegerType,
  StringType,
  struct,
  TimestampType,
} from '../../core/types/data-types.js';
import { bind, evaluate } from '../expr/evaluate.js';

const schema = struct([
  field('d', DateType),
  field('ts', TimestampType),
  field('n', IntegerType),
  field('s', StringType),
]);
const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 86_400_000;
const micros = (iso: string) => Date.parse(iso) * 1000;

/** Evaluates on one row: a date, a timestamp, an int and a string. */
function onRow(
  column: Parameters<typeof evaluate>[0],
  values: { d?: string; ts?: string; n?: number; s?: string },
) {
  const row = [
    values.d === undefined ? null : day(values.d),
    values.ts === undefined ? null : micros(values.ts),
    values.n ?? null,
    values.s ?? null,
  ];
  return evaluate(column, schema, row);
}

describe('date_add, date_sub and datediff', () => {
  it('move a date by days and count the days between dates', () => {
    expect(onRow(date_add('d', 3), { d: '2024-02-27' })).toBe(day('2024-03-01'));
    expect(onRow(date_sub('d', col('n')), { d: '2024-03-01', n: 1 })).toBe(day('2024-02-29'));
    expect(onRow(datediff('d', lit('2024-01-01')), { d: '2024-03-01' })).toBe(60);
    expect(onRow(datediff(lit('2024-01-01'), 'd'), { d: '2024-03-01' })).toBe(-60);
  });

  it('read a timestamp as its date', () => {
    expect(onRow(date_add('ts', 1), { ts: '2024-01-31T23:59:00Z' })).toBe(day('2024-02-01'));
  });

  it('give null for a null date or a null count', () => {
    expect(onRow(date_add('d', 1), {})).toBeNull();
    expect(onRow(date_sub('d', col('n')), { d: '2024-01-01' })).toBeNull();
    expect(onRow(datediff('d', 'd'), {})).toBeNull();
  });

  it('reject a string day count when the query is analysed', () => {
    expect(() => bind(date_add('d', col('s')), schema)).toThrow(AnalysisError);
  });
});

describe('add_months and months_between', () => {
  it('add months, clamping the day to the end of the month', () => {
    expect(onRow(add_months('d', 1), { d: '2024-01-31' })).toBe(day('2024-02-29'));
    expect(onRow(add_months('d', -13), { d: '2024-03-31' })).toBe(day('2023-02-28'));
    expect(onRow(add_months('d', 12), { d: '2024-02-29' })).toBe(day('2025-02-28'));
  });

  it('count whole months between equal days of month and between month ends', () => {
    expect(evaluate(months_between(lit('2024-03-15'), lit('2024-01-15')))).toBe(2);
    expect(evaluate(months_between(lit('2024-02-29'), lit('2024-01-31')))).toBe(1);
  });

  it('count the rest in 31-day months, rounded to 8 digits unless roundOff is false', () => {
    // Spark: months_between('1997-02-28 10:30:00', '1996-10-30') = 3.94959677
    const end = lit('1997-02-28 10:30:00');
    expect(evaluate(months_between(end, lit('1996-10-30')))).toBe(3.94959677);
    const exact = evaluate(months_between(end, lit('1996-10-30'), false)) as number;
    expect(exact).toBeCloseTo(3.9495967741935485, 12);
  });

  it('give null when either side is null', () => {
    expect(onRow(months_between('ts', lit('2024-01-01')), {})).toBeNull();
    expect(onRow(add_months('d', col('n')), { d: '2024-01-01' })).toBeNull();
  });
});

describe('date_format and from_unixtime', () => {
  it('write a timestamp with a datetime pattern, in UTC', () => {
    const ts = { ts: '2024-03-05T07:08:09.123Z' };
    expect(onRow(date_format('ts', 'yyyy-MM-dd HH:mm:ss.SSS'), ts)).toBe('2024-03-05 07:08:09.123');
    expect(onRow(date_format('ts', "EEE, d MMM yy 'at' h a"), ts)).toBe('Tue, 5 Mar 24 at 7 AM');
    expect(onRow(date_format('ts', 'EEEE MMMM D Q'), ts)).toBe('Tuesday March 65 1');
    expect(onRow(date_format('d', 'dd/MM/yyyy'), { d: '2024-12-31' })).toBe('31/12/2024');
  });

  it('write seconds since the epoch, by default as yyyy-MM-dd HH:mm:ss', () => {
    expect(evaluate(from_unixtime(lit(0)))).toBe('1970-01-01 00:00:00');
    expect(evaluate(from_unixtime(lit(1_700_000_000), 'yyyy-MM-dd'))).toBe('2023-11-14');
  });

  it('give null for null', () => {
    expect(onRow(date_format('ts', 'yyyy'), {})).toBeNull();
    expect(evaluate(from_unixtime(lit(null)))).toBeNull();
  });

  it('reject an unknown pattern letter when the query is analysed, naming the pattern', () => {
    expect(() => bind(date_format('ts', 'yyyy-qq'), schema)).toThrow(
      /date_format\(\): invalid datetime pattern 'yyyy-qq'/,
    );
  });
});

describe('unix_millis', () => {
  it('is milliseconds since the epoch, rounded towards the past', () => {
    expect(onRow(unix_millis('ts'), { ts: '2024-01-01T00:00:00.123Z' })).toBe(
      Date.parse('2024-01-01T00:00:00.123Z'),
    );
    expect(evaluate(unix_millis(lit(new Date(-1))))).toBe(-1);
    expect(onRow(unix_millis('ts'), {})).toBeNull();
  });
});

describe('date_part', () => {
  const ts = { ts: '2024-12-30T13:45:30.250Z' }; // a Monday, in ISO week 1 of 2025
  it("reads Spark's fields, with their abbreviations, case-insensitively", () => {
    expect(onRow(date_part('YEAR', 'ts'), ts)).toBe(2024);
    expect(onRow(date_part('yrs', 'ts'), ts)).toBe(2024);
    expect(onRow(date_part('quarter', 'ts'), ts)).toBe(4);
    expect(onRow(date_part('MONTH', 'ts'), ts)).toBe(12);
    expect(onRow(date_part('WEEK', 'ts'), ts)).toBe(1);
    expect(onRow(date_part('DAY', 'ts'), ts)).toBe(30);
    expect(onRow(date_part('DAYOFWEEK', 'ts'), ts)).toBe(2);
    expect(onRow(date_part('DOW_ISO', 'ts'), ts)).toBe(1);
    expect(onRow(date_part('DOY', 'ts'), ts)).toBe(365);
    expect(onRow(date_part('HOUR', 'ts'), ts)).toBe(13);
    expect(onRow(date_part('MINUTE', 'ts'), ts)).toBe(45);
    expect(onRow(date_part('SECOND', 'ts'), ts)).toBe(30.25);
  });

  it('gives null for null', () => {
    expect(onRow(date_part('YEAR', 'd'), {})).toBeNull();
  });

  it('rejects an unknown field, listing the known ones', () => {
    expect(() => bind(date_part('FORTNIGHT', 'ts'), schema)).toThrow(
      /date_part\(\) does not know the field 'FORTNIGHT'; use one of: YEAR/,
    );
  });
});

describe('current_date', () => {
  it("is the date of the batch's processing time", () => {
    const clock = { batchTimestampMicros: micros('2024-05-06T23:59:59Z') };
    const scope = { ...schemaScope(schema, builtinFunctions), clock };
    expect(bindExpression(current_date().expr, scope).eval([])).toBe(day('2024-05-06'));
  });
});
