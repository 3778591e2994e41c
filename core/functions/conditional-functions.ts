/**
 * Functions about nulls and choices: `coalesce`, `nvl` and `ifnull` (coalesce of two), `nullif`,
 * `greatest` and `least`, and `get_field` (built by `Column.getField` when the struct is computed,
 * not a column reference).
 *
 * As in Spark: `nullif(a, b)` is null when `a = b`, else `a`; `greatest` and `least` skip nulls and
 * are null only when every argument is (NaN is greater than any other double); all bring their
 * arguments to one common type, as CASE WHEN does.
 */
import { AnalysisError } from '../errors.js';
import { commonType } from '../expr/common-type.js';
import type { BoundExpression } from '../expr/bound-expression.js';
import type { FunctionCall } from '../expr/expression.js';
import { typeName } from '../types/data-types.js';
import { bindBinary, coerce } from '../expr/binary-operators.js';
import { comparatorFor } from '../expr/ordering.js';
import { requireArity } from './function-arguments.js';
import type { FunctionTable } from '../expr/function-table.js';

/** Binders of the conditional functions. */
export const conditionalFunctions: FunctionTable = {
  coalesce: bindCoalesce,
  nvl: (args) => {
    requireArity('nvl', args, 2);
    return bindCoalesce(args);
  },
  ifnull: (args) => {
    requireArity('ifnull', args, 2);
    return bindCoalesce(args);
  },
  nullif: bindNullIf,
  greatest: (args) => bindExtreme('greatest', args, 1),
  least: (args) => bindExtreme('least', args, -1),
  get_field: bindGetField,
};

function bindNullIf(args: readonly BoundExpression[]): BoundExpression {
  requireArity('nullif', args, 2);
  const equal = bindBinary('=', args[0], args[1]).eval;
  const value = args[0].eval;
  return {
    dataType: args[0].dataType,
    nullable: true,
    eval: (row) => (equal(row) === true ? null : value(row)),
  };
}

/** The largest (`sign` 1) or smallest (`sign` -1) non-null argument. */
function bindExtreme(
  name: string,
  args: readonly BoundExpression[],
  sign: 1 | -1,
): BoundExpression {
  if (args.length < 2) {
    throw new AnalysisError(`${name}() needs at least two arguments, got ${args.length}.`);
  }
  const dataType = commonType(
    args.map((a) => a.dataType),
    `${name}()`,
  );
  const compare = comparatorFor(dataType);
  const evals = args.map((a) => coerce(a, dataType).eval);
  return {
    dataType,
    nullable: args.every((a) => a.nullable),
    eval: (row) => {
      let best: unknown = null;
      for (const e of evals) {
        const v = e(row);
        if (v !== null && (best === null || sign * compare(v, best) > 0)) best = v;
      }
      return best;
    },
  };
}

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
