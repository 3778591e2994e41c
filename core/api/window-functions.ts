/**
 * The window functions of the DataFrame API: row_number, rank, dense_rank, ntile, lag, lead,
 * first_value, last_value. Each needs `.over(window)` (core/api/window.ts); aggregates (`sum`,
 * `count`, ...) can be used over a window too. core/expr/window-function-binder.ts states the
 * semantics (Spark's).
 */
import type { Expression } from '../expr/expression.js';
import { Column, type ColumnLike, columnOrName, toExpr } from './column.js';
import { toLiteral } from './literal.js';

/** The row's position in its partition, from 1. */
export function row_number(): Column {
  return call('row_number', []);
}

/** The rank of the row in its partition, with gaps after ties (1, 1, 3). */
export function rank(): Column {
  return call('rank', []);
}

/** The rank of the row in its partition, without gaps (1, 1, 2). */
export function dense_rank(): Column {
  return call('dense_rank', []);
}

/** The bucket (1 to `n`) of the row when its partition is split into `n` groups as equal as possible. */
export function ntile(n: number): Column {
  return call('ntile', [toLiteral(n)]);
}

/** The value `offset` rows before the current row in its partition, `defaultValue` (null) before the first. */
export function lag(c: Column | string, offset = 1, defaultValue: ColumnLike = null): Column {
  return call('lag', [columnOrName(c), toLiteral(offset), toExpr(defaultValue)]);
}

/** The value `offset` rows after the current row in its partition, `defaultValue` (null) after the last. */
export function lead(c: Column | string, offset = 1, defaultValue: ColumnLike = null): Column {
  return call('lead', [columnOrName(c), toLiteral(offset), toExpr(defaultValue)]);
}

/** The value of the first row of the frame (the first non-null one with `ignoreNulls`). */
export function first_value(c: Column | string, ignoreNulls = false): Column {
  return call('first_value', [columnOrName(c), toLiteral(ignoreNulls)]);
}

/** The value of the last row of the frame (the last non-null one with `ignoreNulls`). */
export function last_value(c: Column | string, ignoreNulls = false): Column {
  return call('last_value', [columnOrName(c), toLiteral(ignoreNulls)]);
}

function call(name: string, args: Expression[]): Column {
  return new Column({ kind: 'call', name, args });
}
