import { describe, expect, it } from 'vitest';
import { col, lit } from '../../core/api/functions.js';
import { AnalysisError, ExecutionError } from '../../core/errors.js';
import { castFunction } from '../../core/expr/cast.js';
import {
  ArrayOf,
  BinaryType,
  BooleanType,
  type DataType,
  DateType,
  DoubleType,
  field,
  IntegerType,
  LongType,
  MapOf,
  NullType,
  StringType,
  struct,
  TimestampType,
} from '../../core/types/data-types.js';
import { bind, evaluate } from './evaluate.js';

/** Casts one non-null value from `from` to `to`. */
function cast(value: unknown, from: DataType, to: DataType): unknown {
  return castFunction(from, to)(value);
}

const T = Date.parse('2024-01-15T10:30:00Z') * 1000;
const D = 19737; // 2024-01-15

describe('cast to string', () => {
  it('writes numbers and booleans', () => {
    expect(cast(42, IntegerType, StringType)).toBe('42');
    expect(cast(-7, LongType, StringType)).toBe('-7');
    expect(cast(true, BooleanType, StringType)).toBe('true');
  });

  it("writes doubles as Java's Double.toString does", () => {
    expect(cast(1, DoubleType, StringType)).toBe('1.0');
    expect(cast(-2.5, DoubleType, StringType)).toBe('-2.5');
    expect(cast(0.001, DoubleType, StringType)).toBe('0.001');
    expect(cast(1234567.5, DoubleType, StringType)).toBe('1234567.5');
    expect(cast(1e7, DoubleType, StringType)).toBe('1.0E7');
    expect(cast(12345678.9, DoubleType, StringType)).toBe('1.23456789E7');
    expect(cast(1e-4, DoubleType, StringType)).toBe('1.0E-4');
    expect(cast(1.5e300, DoubleType, StringType)).toBe('1.5E300');
    expect(cast(0, DoubleType, StringType)).toBe('0.0');
    expect(cast(-0, DoubleType, StringType)).toBe('-0.0');
    expect(cast(Number.NaN, DoubleType, StringType)).toBe('NaN');
    expect(cast(-Infinity, DoubleType, StringType)).toBe('-Infinity');
  });

  it('writes timestamps and dates in UTC', () => {
    expect(cast(T, TimestampType, StringType)).toBe('2024-01-15 10:30:00');
    expect(cast(T + 500_000, TimestampType, StringType)).toBe('2024-01-15 10:30:00.5');
    expect(cast(D, DateType, StringType)).toBe('2024-01-15');
  });

  it('decodes binary as UTF-8', () => {
    expect(cast(new TextEncoder().encode('héllo'), BinaryType, StringType)).toBe('héllo');
  });

  it('writes arrays, maps and structs as Spark shows them', () => {
    expect(cast([1, null, 3], ArrayOf(IntegerType), StringType)).toBe('[1, null, 3]');
    expect(cast(new Map([['a', 1.5]]), MapOf(StringType, DoubleType), StringType)).toBe(
      '{a -> 1.5}',
    );
    const s = struct([field('n', IntegerType), field('t', StringType)]);
    expect(cast([1, null], s, StringType)).toBe('{1, null}');
  });
});

describe('cast to boolean', () => {
  it("reads Spark's true and false words, trimmed and in any case", () => {
    for (const text of ['t', 'TRUE', ' yes ', 'y', '1'])
      expect(cast(text, StringType, BooleanType)).toBe(true);
    for (const text of ['f', 'False', 'no', 'N', '0'])
      expect(cast(text, StringType, BooleanType)).toBe(false);
  });

  it('gives null for other text', () => {
    expect(cast('maybe', StringType, BooleanType)).toBeNull();
    expect(cast('', StringType, BooleanType)).toBeNull();
  });

  it('reads zero as false and any other number as true', () => {
    expect(cast(0, IntegerType, BooleanType)).toBe(false);
    expect(cast(-3, LongType, BooleanType)).toBe(true);
    expect(cast(0.5, DoubleType, BooleanType)).toBe(true);
  });

  it('refuses dates and timestamps', () => {
    expect(() => castFunction(DateType, BooleanType)).toThrow(AnalysisError);
    expect(() => castFunction(TimestampType, BooleanType)).toThrow(
      /Cannot cast timestamp to boolean/,
    );
  });
});

describe('cast to int and long', () => {
  it('reads decimal text, truncating a fraction', () => {
    expect(cast('42', StringType, IntegerType)).toBe(42);
    expect(cast(' -42 ', StringType, IntegerType)).toBe(-42);
    expect(cast('4.7', StringType, IntegerType)).toBe(4);
    expect(cast('-4.7', StringType, LongType)).toBe(-4);
    expect(cast('+5.', StringType, LongType)).toBe(5);
  });

  it('gives null for text that is not a decimal number, as Spark does', () => {
    for (const text of ['', 'abc', '1e3', '0x1F', 'Infinity', '1 2', '--1']) {
      expect(cast(text, StringType, IntegerType)).toBeNull();
    }
  });

  it('truncates doubles towards zero and gives null for NaN and infinities', () => {
    expect(cast(4.9, DoubleType, IntegerType)).toBe(4);
    expect(cast(-4.9, DoubleType, LongType)).toBe(-4);
    expect(cast(Number.NaN, DoubleType, IntegerType)).toBeNull();
    expect(cast(Infinity, DoubleType, LongType)).toBeNull();
  });

  it('reads booleans as 1 and 0', () => {
    expect(cast(true, BooleanType, IntegerType)).toBe(1);
    expect(cast(false, BooleanType, LongType)).toBe(0);
  });

  it('gives the seconds of a timestamp, rounded towards the past', () => {
    expect(cast(T + 999_999, TimestampType, LongType)).toBe(T / 1_000_000);
    expect(cast(-1, TimestampType, LongType)).toBe(-1);
  });

  it('gives the days since the epoch of a date', () => {
    expect(cast(D, DateType, IntegerType)).toBe(D);
  });

  it('fails on values outside the target range instead of wrapping around', () => {
    expect(() => cast(2147483648, LongType, IntegerType)).toThrow(ExecutionError);
    expect(() => cast('3000000000', StringType, IntegerType)).toThrow(/out of range for int/);
    expect(() => cast(1e300, DoubleType, LongType)).toThrow(ExecutionError);
  });

  it('refuses binary', () => {
    expect(() => castFunction(BinaryType, IntegerType)).toThrow(/Cannot cast binary to int/);
  });
});

describe('cast to double', () => {
  it('reads numeric text, including NaN', () => {
    expect(cast(' 1.5 ', StringType, DoubleType)).toBe(1.5);
    expect(cast('-1e3', StringType, DoubleType)).toBe(-1000);
    expect(cast('NaN', StringType, DoubleType)).toBeNaN();
  });

  it('gives null for other text', () => {
    expect(cast('abc', StringType, DoubleType)).toBeNull();
    expect(cast('', StringType, DoubleType)).toBeNull();
  });

  it('converts integers, booleans and timestamps (as seconds)', () => {
    expect(cast(3, IntegerType, DoubleType)).toBe(3);
    expect(cast(true, BooleanType, DoubleType)).toBe(1);
    expect(cast(1_500_000, TimestampType, DoubleType)).toBe(1.5);
  });

  it('refuses dates', () => {
    expect(() => castFunction(DateType, DoubleType)).toThrow(/Cannot cast date to double/);
  });
});

describe('cast to timestamp', () => {
  it('reads timestamp text, giving null when it does not parse', () => {
    expect(cast('2024-01-15 10:30:00', StringType, TimestampType)).toBe(T);
    expect(cast('2024-01-15T11:30:00+01:00', StringType, TimestampType)).toBe(T);
    expect(cast('not a time', StringType, TimestampType)).toBeNull();
  });

  it('reads numbers as seconds since the epoch', () => {
    expect(cast(1.5, DoubleType, TimestampType)).toBe(1_500_000);
    expect(cast(T / 1_000_000, LongType, TimestampType)).toBe(T);
  });

  it('gives null for NaN and infinities', () => {
    expect(cast(Number.NaN, DoubleType, TimestampType)).toBeNull();
    expect(cast(Infinity, DoubleType, TimestampType)).toBeNull();
  });

  it('puts a date at midnight UTC', () => {
    expect(cast(D, DateType, TimestampType)).toBe(Date.parse('2024-01-15T00:00:00Z') * 1000);
  });

  it('refuses booleans', () => {
    expect(() => castFunction(BooleanType, TimestampType)).toThrow(AnalysisError);
  });
});

describe('cast to date', () => {
  it('reads date text, giving null when it does not parse', () => {
    expect(cast('2024-01-15', StringType, DateType)).toBe(D);
    expect(cast('2024-02-30', StringType, DateType)).toBeNull();
  });

  it('keeps the UTC date of a timestamp, also before 1970', () => {
    expect(cast(T, TimestampType, DateType)).toBe(D);
    expect(cast(-1, TimestampType, DateType)).toBe(-1);
  });

  it('refuses numbers', () => {
    expect(() => castFunction(IntegerType, DateType)).toThrow(/Cannot cast integer to date/);
  });
});

describe('cast to binary', () => {
  it('encodes strings as UTF-8', () => {
    expect(cast('hé', StringType, BinaryType)).toEqual(new Uint8Array([0x68, 0xc3, 0xa9]));
  });

  it('refuses numbers', () => {
    expect(() => castFunction(IntegerType, BinaryType)).toThrow(AnalysisError);
  });
});

describe('casts of nested types', () => {
  it('cast array elements, keeping nulls', () => {
    expect(cast(['1', null, 'x'], ArrayOf(StringType), ArrayOf(IntegerType))).toEqual([
      1,
      null,
      null,
    ]);
  });

  it('cast map keys and values', () => {
    const m = cast(
      new Map([[1, '2.5']]),
      MapOf(IntegerType, StringType),
      MapOf(StringType, DoubleType),
    );
    expect(m).toEqual(new Map([['1', 2.5]]));
  });

  it('cast struct fields by position', () => {
    const from = struct([field('a', StringType), field('b', IntegerType)]);
    const to = struct([field('x', IntegerType), field('y', StringType)]);
    expect(cast(['7', 8], from, to)).toEqual([7, '8']);
  });

  it('refuse structs with a different number of fields and nested to atomic casts', () => {
    const two = struct([field('a', IntegerType), field('b', IntegerType)]);
    const one = struct([field('a', IntegerType)]);
    expect(() => castFunction(two, one)).toThrow(
      /Cannot cast struct<a:integer,b:integer> to struct<a:integer>/,
    );
    expect(() => castFunction(ArrayOf(IntegerType), IntegerType)).toThrow(AnalysisError);
  });
});

describe('casts in expressions', () => {
  const schema = struct([field('s', StringType), field('b', BooleanType)]);

  it('turn a null into a null of any type', () => {
    expect(castFunction(NullType, DateType)(null)).toBeNull();
    expect(evaluate(lit(null).cast('int'))).toBeNull();
    expect(bind(lit(null).cast('int')).dataType).toEqual(IntegerType);
  });

  it('accept Spark type names', () => {
    expect(evaluate(col('s').cast('bigint'), schema, ['12', null])).toBe(12);
    expect(evaluate(col('s').cast('TIMESTAMP'), schema, ['1970-01-01 00:00:01', null])).toBe(
      1_000_000,
    );
  });

  it('fail at bind time when Spark would refuse the cast', () => {
    expect(() => bind(col('b').cast('date'), schema)).toThrow(AnalysisError);
  });

  it('leave a value of the same type unchanged', () => {
    expect(evaluate(col('s').cast('string'), schema, ['abc', null])).toBe('abc');
  });
});
