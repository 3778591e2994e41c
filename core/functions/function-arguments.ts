/**
 * Argument checks shared by the function families, all done once when a call is bound.
 *
 * - Spark's implicit casts happen here: a function that wants a string also takes numbers,
 *   booleans, dates and timestamps (as their text); one that wants a timestamp also takes dates
 *   and timestamp text. Anything else is an AnalysisError naming the function and the argument.
 * - Constant arguments (patterns, formats, scales, units) are read here from the call's literal
 *   expressions, so a bad pattern fails when the query is analysed rather than on every row.
 */
import { AnalysisError } from '../errors.js';
import { coerce } from '../expr/binary-operators.js';
import type { BoundExpression } from '../expr/bound-expression.js';
import type { FunctionCall } from '../expr/expression.js';
import { type AtomicType, DoubleType, isNumeric, typeName } from '../types/data-types.js';

type AtomicKind = AtomicType['kind'];

/** For each type a function may ask for, the argument types Spark implicitly casts to it. */
const IMPLICIT_CASTS: Partial<Record<AtomicKind, readonly string[]>> = {
  string: ['string', 'int', 'long', 'double', 'boolean', 'date', 'timestamp'],
  double: ['double', 'int', 'long', 'string'],
  int: ['int', 'long'],
  long: ['int', 'long', 'double', 'string'],
  timestamp: ['timestamp', 'date', 'string'],
  date: ['date', 'timestamp', 'string'],
};

/** Throws an AnalysisError naming the function when the call has too few or too many arguments. */
export function requireArity(
  name: string,
  args: readonly BoundExpression[],
  min: number,
  max = min,
): void {
  if (args.length >= min && args.length <= max) return;
  const expected = min === max ? `${min}` : `${min} to ${max}`;
  throw new AnalysisError(`${name}() takes ${expected} argument(s), got ${args.length}.`);
}

/**
 * Argument `index` (0-based) cast to `target`, when Spark would cast it implicitly; a NULL literal
 * is accepted everywhere.
 */
export function argumentAs(
  name: string,
  args: readonly BoundExpression[],
  index: number,
  target: AtomicType,
): BoundExpression {
  const arg = args[index];
  const kind = arg.dataType.kind;
  if (kind !== 'null' && !IMPLICIT_CASTS[target.kind]?.includes(kind)) {
    throw new AnalysisError(
      `${name}() needs ${typeName(target)} as argument ${index + 1}, got ${typeName(arg.dataType)}; cast it with .cast('${typeName(target)}') if that is meant.`,
    );
  }
  return coerce(arg, target);
}

/** A numeric argument kept in its own type (int, long or double); strings are read as doubles. */
export function numericArgument(
  name: string,
  args: readonly BoundExpression[],
  index: number,
): BoundExpression {
  const arg = args[index];
  return isNumeric(arg.dataType) ? arg : argumentAs(name, args, index, DoubleType);
}

/** The value of a constant string argument, such as a pattern or a format. */
export function constantString(
  name: string,
  call: FunctionCall,
  index: number,
  what: string,
): string {
  const value = constantValue(name, call, index, what);
  if (typeof value !== 'string') {
    throw new AnalysisError(
      `${name}() needs a string ${what} as argument ${index + 1}, got ${JSON.stringify(value)}.`,
    );
  }
  return value;
}

/** The value of a constant integer argument, such as a position or a scale. */
export function constantInteger(
  name: string,
  call: FunctionCall,
  index: number,
  what: string,
): number {
  const value = constantValue(name, call, index, what);
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new AnalysisError(
      `${name}() needs an integer ${what} as argument ${index + 1}, got ${JSON.stringify(value)}.`,
    );
  }
  return value;
}

function constantValue(name: string, call: FunctionCall, index: number, what: string): unknown {
  const e = call.args[index];
  if (e?.kind !== 'literal' || e.value === null) {
    throw new AnalysisError(
      `${name}() needs a constant, non-null ${what} as argument ${index + 1}; pass a plain value, not a column.`,
    );
  }
  return e.value;
}
