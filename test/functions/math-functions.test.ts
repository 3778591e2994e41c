import { describe, expect, it } from 'vitest';
import { col, lit } from '../../core/api/functions.js';
import { AnalysisError, ExecutionError } from '../../core/errors.js';
import { abs, ceil, floor, pow, round, sqrt } from '../../core/api/math-functions.js';
import {
  BooleanType,
  DoubleType,
  field,
  IntegerType,
  LongType,
  StringType,
  struct,
} from '../../core/types/data-types.js';
import { bind, evaluate } from '../expr/evaluate.js';

const schema = struct([
  field('i', IntegerType),
  field('l', LongType),
  field('d', DoubleType),
  field('s', StringType),
  field('b', BooleanType),
]);

describe('abs', () => {
  it('gives the absolute value in the argument type', () => {
    expect(evaluate(abs(lit(-3)))).toBe(3);
    expect(bind(abs('i'), schema).dataType).toEqual(IntegerType);
    expect(bind(abs('l'), schema).dataType).toEqual(LongType);
    expect(evaluate(abs(lit(-2.5)))).toBe(2.5);
    expect(bind(abs('d'), schema).dataType).toEqual(DoubleType);
  });

  it('reads a string as a double', () => {
    expect(evaluate(abs(lit('-1.5')))).toBe(1.5);
    expect(bind(abs('s'), schema).dataType).toEqual(DoubleType);
  });

  it('gives null for null and for text that is not a number', () => {
    expect(evaluate(abs(lit(null)))).toBeNull();
    expect(evaluate(abs(lit('abc')))).toBeNull();
  });

  it('fails on the one int whose absolute value is not an int', () => {
    expect(() => evaluate(abs('i'), schema, [-2147483648, null, null, null, null])).toThrow(
      ExecutionError,
    );
  });

  it('rejects a boolean at bind time', () => {
    expect(() => bind(abs('b'), schema)).toThrow(AnalysisError);
    expect(() => bind(abs('b'), schema)).toThrow(/abs\(\) needs double .* got boolean/);
  });
});

describe('round', () => {
  it('rounds halves away from zero (HALF_UP)', () => {
    expect(evaluate(round(lit(2.5)))).toBe(3);
    expect(evaluate(round(lit(-2.5)))).toBe(-3);
    expect(evaluate(round(lit(2.4)))).toBe(2);
  });

  it('rounds to a number of decimal places', () => {
    expect(evaluate(round(lit(3.14159), 2))).toBe(3.14);
    expect(evaluate(round(lit(1.005), 2))).toBe(1.01);
  });

  it('rounds on the decimal text, as Spark does, not on the binary value', () => {
    // 2.675 is stored as 2.67499999...; toFixed(2) would give 2.67.
    expect(evaluate(round(lit(2.675), 2))).toBe(2.68);
  });

  it('rounds to tens, hundreds, ... with a negative scale', () => {
    expect(evaluate(round(lit(1250), -2))).toBe(1300);
    expect(evaluate(round(lit(-15), -1))).toBe(-20);
    expect(evaluate(round(lit(1234.5), -2))).toBe(1200);
    expect(evaluate(round(lit(49), -2))).toBe(0);
  });

  it('keeps the argument type', () => {
    expect(bind(round('i', -1), schema).dataType).toEqual(IntegerType);
    expect(bind(round('l'), schema).dataType).toEqual(LongType);
    expect(bind(round('d', 1), schema).dataType).toEqual(DoubleType);
  });

  it('leaves integers alone for a non-negative scale', () => {
    expect(evaluate(round(lit(17), 2))).toBe(17);
  });

  it('gives zero, not negative zero, when a negative number rounds to nothing', () => {
    expect(Object.is(evaluate(round(lit(-0.4))), 0)).toBe(true);
    expect(Object.is(evaluate(round(lit(-0.004), 2)), 0)).toBe(true);
  });

  it('leaves numbers with fewer decimals, NaN and infinities unchanged', () => {
    expect(evaluate(round(lit(1e300), 2))).toBe(1e300);
    expect(evaluate(round(lit(0.5), 5))).toBe(0.5);
    expect(evaluate(round('d'), schema, [null, null, Number.NaN, null, null])).toBeNaN();
    expect(evaluate(round('d'), schema, [null, null, Infinity, null, null])).toBe(Infinity);
  });

  it('handles very small numbers', () => {
    expect(evaluate(round(lit(1e-10), 2))).toBe(0);
    expect(evaluate(round(lit(1.5e-7), 7))).toBe(2e-7);
  });

  it('fails when rounding pushes an int out of range', () => {
    expect(() => evaluate(round('i', -1), schema, [2147483647, null, null, null, null])).toThrow(
      ExecutionError,
    );
  });

  it('gives null for null', () => {
    expect(evaluate(round('d', 2), schema, [null, null, null, null, null])).toBeNull();
  });

  it('needs a constant integer scale', () => {
    expect(() => bind(round('d', 1.5), schema)).toThrow(/round\(\) needs an integer scale/);
  });

  it('rejects a boolean', () => {
    expect(() => bind(round('b'), schema)).toThrow(AnalysisError);
  });
});

describe('floor and ceil', () => {
  it('round doubles down and up to a long', () => {
    expect(evaluate(floor(lit(2.7)))).toBe(2);
    expect(evaluate(floor(lit(-2.1)))).toBe(-3);
    expect(evaluate(ceil(lit(2.1)))).toBe(3);
    expect(evaluate(ceil(lit(-2.7)))).toBe(-2);
    expect(bind(floor('d'), schema).dataType).toEqual(LongType);
    expect(bind(ceil('d'), schema).dataType).toEqual(LongType);
  });

  it('give a long for integer input too', () => {
    expect(bind(floor('i'), schema).dataType).toEqual(LongType);
    expect(evaluate(ceil(lit(7)))).toBe(7);
  });

  it('read strings as doubles', () => {
    expect(evaluate(floor(lit('3.9')))).toBe(3);
  });

  it('give null for null, NaN and infinities', () => {
    expect(evaluate(floor(lit(null)))).toBeNull();
    expect(evaluate(ceil('d'), schema, [null, null, Number.NaN, null, null])).toBeNull();
    expect(evaluate(floor('d'), schema, [null, null, -Infinity, null, null])).toBeNull();
  });

  it('fail for doubles beyond the long range', () => {
    expect(() => evaluate(floor(lit(1e20)))).toThrow(ExecutionError);
    expect(() => evaluate(floor(lit(1e20)))).toThrow(/floor\(\) overflowed/);
  });

  it('reject booleans', () => {
    expect(() => bind(ceil('b'), schema)).toThrow(/ceil\(\) needs double/);
  });
});

describe('sqrt', () => {
  it('gives the square root as a double', () => {
    expect(evaluate(sqrt(lit(16)))).toBe(4);
    expect(bind(sqrt('i'), schema).dataType).toEqual(DoubleType);
  });

  it('gives NaN for a negative number and null for null', () => {
    expect(evaluate(sqrt(lit(-1)))).toBeNaN();
    expect(evaluate(sqrt(lit(null)))).toBeNull();
  });

  it('rejects booleans', () => {
    expect(() => bind(sqrt('b'), schema)).toThrow(/sqrt\(\) needs double/);
  });
});

describe('pow', () => {
  it('raises a base to an exponent, as a double', () => {
    expect(evaluate(pow(lit(2), 10))).toBe(1024);
    expect(evaluate(pow(4, lit(0.5)))).toBe(2);
    expect(bind(pow('i', 'l'), schema).dataType).toEqual(DoubleType);
  });

  it('takes column names for strings', () => {
    expect(evaluate(pow('i', 'd'), schema, [3, null, 2, null, null])).toBe(9);
    expect(evaluate(pow(col('i'), 2), schema, [5, null, null, null, null])).toBe(25);
  });

  it('gives null when either side is null', () => {
    expect(evaluate(pow('i', 2), schema, [null, null, null, null, null])).toBeNull();
    expect(evaluate(pow(2, 'i'), schema, [null, null, null, null, null])).toBeNull();
  });

  it('rejects a boolean exponent, naming the argument', () => {
    expect(() => bind(pow('d', 'b'), schema)).toThrow(
      /pow\(\) needs double as argument 2, got boolean/,
    );
  });
});
