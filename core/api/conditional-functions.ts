/**
 * The null-handling and choice functions of the DataFrame API: nvl, ifnull, nullif, greatest,
 * least (`coalesce` and `when` are in core/api/functions.ts). Each builds a call expression;
 * core/functions/conditional-functions.ts binds and evaluates it, and its module doc states the
 * semantics (Spark's).
 */
import { InvalidOptionError } from '../errors.js';
import type { Expression } from '../expr/expression.js';
import { Column, type ColumnLike, columnOrName, toExpr } from './column.js';

/** `value` when it is not null, else `replacement`. */
export function nvl(value: Column | string, replacement: ColumnLike): Column {
  return call('nvl', [columnOrName(value), toExpr(replacement)]);
}

/** Same as `nvl`. */
export function ifnull(value: Column | string, replacement: ColumnLike): Column {
  return call('ifnull', [columnOrName(value), toExpr(replacement)]);
}

/** Null when `a = b`, else `a`. */
export function nullif(a: Column | string, b: ColumnLike): Column {
  return call('nullif', [columnOrName(a), toExpr(b)]);
}

/** The largest non-null value of the columns; null only when all are null. */
export function greatest(...columns: (Column | string)[]): Column {
  return call('greatest', atLeastTwo('greatest', columns));
}

/** The smallest non-null value of the columns; null only when all are null. */
export function least(...columns: (Column | string)[]): Column {
  return call('least', atLeastTwo('least', columns));
}

function atLeastTwo(name: string, columns: readonly (Column | string)[]): Expression[] {
  if (columns.length < 2) {
    throw new InvalidOptionError(`${name}() needs at least two columns, got ${columns.length}.`);
  }
  return columns.map(columnOrName);
}

function call(name: string, args: Expression[]): Column {
  return new Column({ kind: 'call', name, args });
}
