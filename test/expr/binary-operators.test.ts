import { describe, expect, it } from 'vitest';
import { col, lit } from '../../core/api/functions.js';
import { AnalysisError, ExecutionError } from '../../core/errors.js';
import {
  ArrayOf,
  BooleanType,
  DateType,
  DoubleType,
  field,
  IntegerType,
  LongType,
  StringType,
  struct,
  TimestampType,
} from '../../core/types/data-types.js';
import { bind, evaluate } from './evaluate.js';

const schema = struct([
  field('i', IntegerType),
  field('l', LongType),
  field('d', DoubleType),
  field('s', StringType),
  field('b', BooleanType),
  field('dt', DateType),
  field('ts', TimestampType),
  field('arr', ArrayOf(IntegerType)),
]);

/** A row of `schema` with the given columns set and the rest null. */
function row(values: Partial<Record<'i' | 'l' | 'd' | 's' | 'b' | 'dt' | 'ts' | 'arr', unknown>>) {
  return schema.fields.map((f) => values[f.name as keyof typeof values] ?? null);
}

describe('arithmetic', () => {
  it('adds, subtracts and multiplies in the wider operand type', () => {
    expect(evaluate(col('i').plus(col('l')), schema, row({ i: 2, l: 40 }))).toBe(42);
    expect(bind(col('i').plus(col('i')), schema).dataType).toEqual(IntegerType);
    expect(bind(col('i').minus(col('l')), schema).dataType).toEqual(LongType);
    expect(bind(col('l').multiply(col('d')), schema).dataType).toEqual(DoubleType);
    expect(evaluate(lit(6).multiply(7))).toBe(42);
    expect(evaluate(lit(1.5).minus(2))).toBe(-0.5);
  });

  it('reads strings as doubles', () => {
    expect(bind(col('s').plus(1), schema).dataType).toEqual(DoubleType);
    expect(evaluate(col('s').plus(1), schema, row({ s: '41' }))).toBe(42);
    expect(evaluate(col('s').plus(1), schema, row({ s: 'forty' }))).toBeNull();
  });

  it('gives null when either operand is null', () => {
    expect(evaluate(col('i').plus(1), schema, row({}))).toBeNull();
    expect(evaluate(lit(1).minus(col('i')), schema, row({}))).toBeNull();
    expect(evaluate(lit(1).multiply(null))).toBeNull();
  });

  it('fails on int overflow instead of wrapping around', () => {
    expect(() => evaluate(col('i').plus(1), schema, row({ i: 2147483647 }))).toThrow(
      ExecutionError,
    );
    expect(() => evaluate(col('i').multiply(-2), schema, row({ i: 2147483647 }))).toThrow(
      /Arithmetic overflow in '\*'.*integer range; cast an operand to double/,
    );
  });

  it('fails on long results outside the safe integer range', () => {
    expect(() => evaluate(col('l').plus(1), schema, row({ l: Number.MAX_SAFE_INTEGER }))).toThrow(
      ExecutionError,
    );
  });

  it('lets doubles grow to infinity', () => {
    expect(evaluate(col('d').multiply(10), schema, row({ d: 1e308 }))).toBe(Infinity);
  });

  it('takes the remainder with the sign of the dividend, as Java does', () => {
    expect(evaluate(lit(7).mod(3))).toBe(1);
    expect(evaluate(lit(-7).mod(3))).toBe(-1);
    expect(evaluate(lit(7.5).mod(2))).toBe(1.5);
  });

  it('gives null for a remainder by zero', () => {
    expect(evaluate(lit(7).mod(0))).toBeNull();
    expect(evaluate(lit(7.5).mod(0))).toBeNull();
  });

  it('rejects booleans and dates at bind time', () => {
    expect(() => bind(col('b').plus(1), schema)).toThrow(AnalysisError);
    expect(() => bind(col('dt').minus(col('i')), schema)).toThrow(
      /Operator - needs numeric operands, got date/,
    );
  });
});

describe('division', () => {
  it('always gives a double', () => {
    expect(evaluate(lit(7).divide(2))).toBe(3.5);
    expect(bind(col('i').divide(col('i')), schema).dataType).toEqual(DoubleType);
  });

  it('gives null for division by zero, also for doubles', () => {
    expect(evaluate(lit(1).divide(0))).toBeNull();
    expect(evaluate(lit(1.5).divide(0.0))).toBeNull();
  });

  it('gives null when either side is null', () => {
    expect(evaluate(col('d').divide(2), schema, row({}))).toBeNull();
    expect(evaluate(lit(2).divide(col('d')), schema, row({}))).toBeNull();
  });

  it('rejects booleans', () => {
    expect(() => bind(lit(1).divide(col('b')), schema)).toThrow(/Operator \/ needs numeric/);
  });
});

describe('and / or', () => {
  const T = lit(true);
  const F = lit(false);
  const N = col('b'); // null in every row below

  it('follow the three-valued truth table for AND', () => {
    const r = row({});
    expect(evaluate(T.and(T), schema, r)).toBe(true);
    expect(evaluate(T.and(F), schema, r)).toBe(false);
    expect(evaluate(F.and(N), schema, r)).toBe(false);
    expect(evaluate(N.and(F), schema, r)).toBe(false);
    expect(evaluate(T.and(N), schema, r)).toBeNull();
    expect(evaluate(N.and(N), schema, r)).toBeNull();
  });

  it('follow the three-valued truth table for OR', () => {
    const r = row({});
    expect(evaluate(F.or(F), schema, r)).toBe(false);
    expect(evaluate(F.or(T), schema, r)).toBe(true);
    expect(evaluate(T.or(N), schema, r)).toBe(true);
    expect(evaluate(N.or(T), schema, r)).toBe(true);
    expect(evaluate(F.or(N), schema, r)).toBeNull();
    expect(evaluate(N.or(N), schema, r)).toBeNull();
  });

  it('do not evaluate the right side when the left side decides', () => {
    const overflowing = col('i').plus(1).gt(0);
    const r = row({ i: 2147483647 });
    expect(evaluate(F.and(overflowing), schema, r)).toBe(false);
    expect(evaluate(T.or(overflowing), schema, r)).toBe(true);
  });

  it('accept a NULL literal as an operand', () => {
    expect(evaluate(T.and(lit(null)))).toBeNull();
  });

  it('reject operands that are not boolean at bind time', () => {
    expect(() => bind(col('i').and(T), schema)).toThrow(AnalysisError);
    expect(() => bind(T.or(col('s')), schema)).toThrow(
      /Operator OR needs boolean operands, got string/,
    );
  });
});

describe('comparisons', () => {
  it('compare numbers across numeric types', () => {
    const r = row({ i: 3, l: 3, d: 2.5 });
    expect(evaluate(col('i').eq(col('l')), schema, r)).toBe(true);
    expect(evaluate(col('i').gt(col('d')), schema, r)).toBe(true);
    expect(evaluate(col('d').leq(col('i')), schema, r)).toBe(true);
    expect(evaluate(col('l').lt(3), schema, r)).toBe(false);
    expect(evaluate(col('l').geq(3), schema, r)).toBe(true);
    expect(evaluate(col('i').neq(4), schema, r)).toBe(true);
  });

  it('compare strings with numbers numerically', () => {
    expect(evaluate(col('s').gt(9), schema, row({ s: '10' }))).toBe(true);
    expect(evaluate(col('s').eq(1), schema, row({ s: '1.0' }))).toBe(true);
    expect(evaluate(col('s').eq(1), schema, row({ s: 'one' }))).toBeNull();
  });

  it('compare strings with strings lexicographically', () => {
    expect(evaluate(lit('10').lt(lit('9')))).toBe(true);
    expect(evaluate(lit('a').eq(lit('a')))).toBe(true);
  });

  it('compare strings with dates and timestamps as dates and timestamps', () => {
    const r = row({ dt: 19737, ts: Date.parse('2024-01-15T10:00:00Z') * 1000 }); // 2024-01-15
    expect(evaluate(col('dt').eq('2024-01-15'), schema, r)).toBe(true);
    expect(evaluate(col('ts').gt('2024-01-15 09:59:59'), schema, r)).toBe(true);
    expect(evaluate(lit('2024-01-16').gt(col('dt')), schema, r)).toBe(true);
  });

  it('give null when either side is null', () => {
    expect(evaluate(col('i').eq(1), schema, row({}))).toBeNull();
    expect(evaluate(lit(1).lt(col('i')), schema, row({}))).toBeNull();
    expect(evaluate(lit(1).eq(null))).toBeNull();
  });

  it('treat NaN as equal to itself and larger than any number, as Spark does', () => {
    const r = row({ d: Number.NaN });
    expect(evaluate(col('d').eq(col('d')), schema, r)).toBe(true);
    expect(evaluate(col('d').gt(Infinity), schema, r)).toBe(true);
  });

  it('compare arrays element by element', () => {
    expect(evaluate(col('arr').eq(col('arr')), schema, row({ arr: [1, 2] }))).toBe(true);
  });

  it('reject types that cannot be compared, at bind time', () => {
    expect(() => bind(col('b').eq(col('i')), schema)).toThrow(AnalysisError);
    expect(() => bind(col('arr').lt(col('i')), schema)).toThrow(
      /Cannot compare array<integer> with integer using '<'; cast one side first/,
    );
  });
});

describe('null-safe equality <=>', () => {
  it('is true for two nulls and false for a null and a value', () => {
    const r = row({ i: 1 });
    expect(evaluate(col('l').eqNullSafe(col('d')), schema, r)).toBe(true);
    expect(evaluate(col('l').eqNullSafe(col('i')), schema, r)).toBe(false);
    expect(evaluate(col('i').eqNullSafe(col('l')), schema, r)).toBe(false);
  });

  it('compares values like =', () => {
    expect(evaluate(col('i').eqNullSafe(1), schema, row({ i: 1 }))).toBe(true);
    expect(evaluate(col('i').eqNullSafe(2), schema, row({ i: 1 }))).toBe(false);
  });

  it('is never null', () => {
    expect(bind(col('i').eqNullSafe(col('l')), schema).nullable).toBe(false);
  });
});
