/**
 * Test helper: binds a Column against a schema and evaluates it on one row, as operators do.
 * Columns made only of literals need neither schema nor row.
 */
import type { Column } from '../../core/api/column.js';
import type { BoundExpression } from '../../core/expr/bound-expression.js';
import { bindExpression } from '../../core/expr/binder.js';
import { schemaScope } from '../../core/expr/scope.js';
import { builtinFunctions } from '../../core/functions/builtin-functions.js';
import { struct, type StructType } from '../../core/types/data-types.js';
import type { Row } from '../../core/types/row.js';

/** Binds `column` against `schema` (no columns by default). */
export function bind(column: Column, schema: StructType = struct([])): BoundExpression {
  return bindExpression(column.expr, schemaScope(schema, builtinFunctions));
}

/** Binds `column` and evaluates it on `row`. */
export function evaluate(column: Column, schema: StructType = struct([]), row: Row = []): unknown {
  return bind(column, schema).eval(row);
}
