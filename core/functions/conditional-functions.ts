/**
 * Binders of functions whose builders live elsewhere: `coalesce` (built by `coalesce()` in
 * core/api/functions.ts) and `get_field` (built by `Column.getField` when the struct is computed,
 * not a column reference).
 */
import { AnalysisError } from '../errors.js';
import { coerce } from '../expr/binary-operators.js';
import { commonType } from '../expr/common-type.js';
import type { BoundExpression } from '../expr/bound-expression.js';
import type { FunctionCall } from '../expr/expression.js';
import { typeName } from '../types/data-types.js';
import { requireArity } from './function-arguments.js';
import type { FunctionTable } from '../expr/function-table.js';

/** Binders of coalesce and get_field. */
export const conditionalFunctions: FunctionTable = {
  coalesce: bindCoalesce,
  get_field: bindGetField,
};

/** The first non-null argument, all brought to their common type (as CASE WHEN does). */
function bindCoalesce(args: readonly BoundExpression[]): BoundExpression {
  if (args.length === 0) throw new AnalysisError('coalesce() needs at least one argument.');
  const dataType = commonType(
    args.map((a) => a.dataType),
    'coalesce()',
  );
  const evals = args.map((a) => coerce(a, dataType).eval);
  return {
    dataType,
    nullable: args.every((a) => a.nullable),
    eval: (row) => {
      for (const e of evals) {
        const v = e(row);
        if (v !== null) return v;
      }
      return null;
    },
  };
}

/** A field of a struct value, by name: exact match first, then case-insensitive, as for columns. */
function bindGetField(args: readonly BoundExpression[], call: FunctionCall): BoundExpression {
  requireArity('get_field', args, 1);
  const name = call.options?.field;
  const struct = args[0].dataType;
  if (typeof name !== 'string') {
    throw new AnalysisError(
      "get_field() needs the field name in options.field; use Column.getField('name').",
    );
  }
  if (struct.kind !== 'struct') {
    throw new AnalysisError(
      `getField('${name}') needs a struct, got ${typeName(struct)}; only struct fields can be read by name.`,
    );
  }
  const exact = struct.fields.findIndex((f) => f.name === name);
  const index =
    exact >= 0
      ? exact
      : struct.fields.findIndex((f) => f.name.toLowerCase() === name.toLowerCase());
  if (index < 0) {
    throw new AnalysisError(
      `getField('${name}'): no such field; the struct has: ${struct.fields.map((f) => f.name).join(', ')}.`,
    );
  }
  const parent = args[0].eval;
  return {
    dataType: struct.fields[index].dataType,
    nullable: args[0].nullable || struct.fields[index].nullable,
    eval: (row) => {
      const s = parent(row) as unknown[] | null;
      return s === null ? null : s[index];
    },
  };
}
