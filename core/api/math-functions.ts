/**
 * The math functions of the DataFrame API: abs, round, floor, ceil, sqrt, pow. Each builds a call
 * expression; core/functions/math-functions.ts binds and evaluates it, and its module doc states the
 * type rules (Spark's).
 */
import type { Expression } from '../expr/expression.js';
import { Column, columnOrName } from './column.js';
import { toLiteral } from './literal.js';

/** The absolute value, in the argument's type. */
export function abs(c: Column | string): Column {
  return call('abs', [columnOrName(c)]);
}

/**
 * Rounds to `scale` decimal places, halves away from zero (HALF_UP), in the argument's type.
 * A negative scale rounds to tens, hundreds, ...: `round(1250, -2)` is 1300.
 * Doubles are rounded on their shortest decimal text, so `round(2.675, 2)` is 2.68, as in Spark.
 */
export function round(c: Column | string, scale = 0): Column {
  return call('round', [columnOrName(c), toLiteral(scale)]);
}

/** The largest integer not greater than the argument, a long. */
export function floor(c: Column | string): Column {
  return call('floor', [columnOrName(c)]);
}

/** The smallest integer not less than the argument, a long. */
export function ceil(c: Column | string): Column {
  return call('ceil', [columnOrName(c)]);
}

/** The square root, a double; NaN for negative numbers. */
export function sqrt(c: Column | string): Column {
  return call('sqrt', [columnOrName(c)]);
}

/** `base` raised to `exponent`, a double. Strings name columns; numbers are constants. */
export function pow(base: Column | string | number, exponent: Column | string | number): Column {
  return call('pow', [operand(base), operand(exponent)]);
}

function call(name: string, args: Expression[]): Column {
  return new Column({ kind: 'call', name, args });
}

function operand(value: Column | string | number): Expression {
  return typeof value === 'number' ? toLiteral(value) : columnOrName(value);
}
