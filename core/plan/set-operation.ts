/**
 * EXCEPT and INTERSECT, with and without ALL, as Spark plans them: rows are compared column by
 * column with null-safe equality (two nulls are the same value). The distinct forms are the distinct
 * left rows that do (a left semi join) or do not (a left anti join) appear on the right (Spark's
 * ReplaceIntersectWithSemiJoin and ReplaceExceptWithAntiJoin). The ALL forms keep duplicates by
 * count: each row's copies are numbered on both sides, and the number joins with the columns, so
 * `k` left copies against `m` right copies keep `max(k - m, 0)` (EXCEPT ALL) or `min(k, m)`
 * (INTERSECT ALL) of them.
 *
 * On streams, following Spark's UnsupportedOperationChecker: EXCEPT may not have a streaming right
 * side and INTERSECT may not have two streaming sides. The ALL forms number rows with a window
 * function, which streams do not support, so they are refused on any stream.
 */
import { AnalysisError, UnsupportedOperationError } from '../errors.js';
import type { Expression, WindowExpression } from '../expr/expression.js';
import {
  isNumeric,
  type DataType,
  sameType,
  type StructType,
  typeName,
} from '../types/data-types.js';
import type { LogicalPlan } from './logical-plan.js';
import * as build from './plan-builder.js';

/** The set operations other than UNION. */
export type SetOperator = 'except' | 'intersect';

/** The plan of `left EXCEPT|INTERSECT [ALL] right`; `what` names the operation in errors. */
export function setOperation(
  left: LogicalPlan,
  right: LogicalPlan,
  operator: SetOperator,
  all: boolean,
  what: string,
): LogicalPlan {
  checkCompatible(left.schema, right.schema, what);
  checkStreaming(left, right, operator, all, what);
  const joinType = operator === 'intersect' ? 'left_semi' : 'left_anti';
  if (!all)
    return distinctRows(build.join(left, right, joinType, sameRow(left.schema, right.schema)));
  const [l, r] = [numbered(left), numbered(right)];
  const joined = build.join(l, r, joinType, sameRow(l.schema, r.schema));
  return build.project(joined, columnsOf(left.schema));
}

/** The distinct rows of `plan`: an aggregation grouping by every column. */
export function distinctRows(plan: LogicalPlan): LogicalPlan {
  return build.aggregate(plan, columnsOf(plan.schema), []);
}

function checkCompatible(left: StructType, right: StructType, what: string): void {
  const schemas = `left (${schemaText(left)}), right (${schemaText(right)})`;
  if (left.fields.length !== right.fields.length) {
    throw new AnalysisError(
      `${what} needs the same number of columns on both sides: ${left.fields.length} vs ${right.fields.length}; ${schemas}. Select matching columns on both sides.`,
    );
  }
  left.fields.forEach((f, i) => {
    if (!comparable(f.dataType, right.fields[i].dataType)) {
      throw new AnalysisError(
        `${what} column ${i + 1} ('${f.name}') is ${typeName(f.dataType)} on the left and ${typeName(right.fields[i].dataType)} on the right; ${schemas}. Cast one side to the other's type.`,
      );
    }
  });
}

function comparable(a: DataType, b: DataType): boolean {
  if (a.kind === 'null' || b.kind === 'null' || sameType(a, b)) return true;
  const datetime = (t: DataType) => t.kind === 'date' || t.kind === 'timestamp';
  return (isNumeric(a) && isNumeric(b)) || (datetime(a) && datetime(b));
}

function checkStreaming(
  left: LogicalPlan,
  right: LogicalPlan,
  operator: SetOperator,
  all: boolean,
  what: string,
): void {
  const refuse = (why: string) => {
    throw new UnsupportedOperationError(`${what} ${why}, as in Spark.`);
  };
  if (all && (left.isStreaming || right.isStreaming)) {
    refuse(
      'is not supported on a streaming DataFrame; use the distinct form, or run it on a table',
    );
  }
  if (operator === 'except' && right.isStreaming) {
    refuse('is not supported with a streaming DataFrame on the right');
  }
  if (operator === 'intersect' && left.isStreaming && right.isStreaming) {
    refuse('is not supported between two streaming DataFrames');
  }
}

/** Every column of `left` equals (null-safely) the same column of `right`, in a join of both. */
function sameRow(left: StructType, right: StructType): Expression {
  const n = left.fields.length;
  return left.fields
    .map((f, i): Expression => ({
      kind: 'binary',
      op: '<=>',
      left: { kind: 'column', path: [f.name], ordinal: i },
      right: { kind: 'column', path: [right.fields[i].name], ordinal: n + i },
    }))
    .reduce((both, next) => ({ kind: 'binary', op: 'and', left: both, right: next }));
}

/** `plan` with one more column: the copy number of each row among its duplicates, from 1. */
function numbered(plan: LogicalPlan): LogicalPlan {
  const columns = columnsOf(plan.schema);
  const copyNumber: WindowExpression = {
    kind: 'windowFunction',
    fn: { kind: 'windowCall', name: 'row_number', args: [] },
    spec: {
      partitionBy: columns,
      orderBy: columns.slice(0, 1).map((expr) => ({ expr, ascending: true, nullsFirst: true })),
    },
  };
  return build.window(plan, [copyNumber]);
}

function columnsOf(schema: StructType): Expression[] {
  return schema.fields.map((f, i): Expression => ({ kind: 'column', path: [f.name], ordinal: i }));
}

function schemaText(schema: StructType): string {
  return schema.fields.map((f) => `${f.name} ${typeName(f.dataType)}`).join(', ');
}
