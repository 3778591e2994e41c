/**
 * `groupBy(...).pivot(column, values).agg(...)` as Spark plans it. When every aggregate gives a
 * number or a boolean, by its PivotFirst: first aggregate by the keys and the pivot column, then
 * turn each pivot value's aggregates into columns of the key's row, so a key with no rows for a
 * value has null there for every aggregate, count included. Otherwise, by conditioning each
 * aggregate's input on the value, so count is 0 there. Columns are named after the value (`'2024'`,
 * `'null'`), or `value_aggregate` when there are several aggregates.
 */
import { InvalidOptionError, UnsupportedOperationError } from '../errors.js';
import { type AggregateCall, type Expression, replaceExpressions } from '../expr/expression.js';
import { expressionName } from '../expr/expression-name.js';
import type { LogicalPlan } from '../plan/logical-plan.js';
import * as build from '../plan/plan-builder.js';
import { type DataType, IntegerType, isNumeric } from '../types/data-types.js';
import { toLiteral } from './literal.js';

/** A value of the pivot column that becomes columns of the result. */
export type PivotValue = string | number | boolean | null;

/** The pivot column and the values it spreads into columns. */
export interface Pivot {
  readonly column: Expression;
  readonly values: readonly PivotValue[];
}

/** `pivot`'s arguments checked: values are required here, and a stream cannot be pivoted. */
export function checkedPivot(
  input: LogicalPlan,
  column: Expression,
  values: readonly PivotValue[] | undefined,
): Pivot {
  if (input.isStreaming) {
    throw new UnsupportedOperationError(
      `pivot on '${expressionName(column)}' is not supported on streaming DataFrames, as in Spark; pivot the sink's output as a table.`,
    );
  }
  if (!Array.isArray(values)) {
    throw new InvalidOptionError(
      `pivot on '${expressionName(column)}' needs its values: Sluice does not run a job to find them. Pass them, e.g. from await df.select(column).distinct().collect().`,
    );
  }
  build.project(input, [column]); // fail now on an unknown column
  return { column, values };
}

/**
 * One row per key: the keys, then for each pivot value its aggregates. When every aggregate gives a
 * number or a boolean, this is Spark's PivotFirst plan (aggregate by keys and pivot column, then
 * spread), where a key with no rows for a value has null even for count. Otherwise (a string, an
 * array, a timestamp among the results) it is Spark's other plan: each aggregate's input is
 * conditioned on the value, so count is 0 there and collect_list an empty array.
 */
export function pivotAggregate(
  input: LogicalPlan,
  keys: readonly Expression[],
  pivot: Pivot,
  aggregates: readonly Expression[],
): LogicalPlan {
  const perValue = build.aggregate(input, [...keys, pivot.column], aggregates);
  const resultTypes = perValue.schema.fields.slice(keys.length + 1).map((f) => f.dataType);
  const pivotType = perValue.schema.fields[keys.length].dataType;
  return resultTypes.every(spreadsAfterAggregating)
    ? pivotFirst(perValue, keys.length, pivot.values, aggregates, pivotType)
    : conditionalPivot(input, keys, pivot, aggregates, pivotType);
}

/** The result types Spark's PivotFirst spreads: numbers and booleans (its mutable row's setters). */
function spreadsAfterAggregating(type: DataType): boolean {
  return isNumeric(type) || type.kind === 'boolean';
}

/** Aggregates of `perValue` (keys, pivot column, aggregates) spread into a row per key. */
function pivotFirst(
  perValue: LogicalPlan,
  keyCount: number,
  values: readonly PivotValue[],
  aggregates: readonly Expression[],
  pivotType: DataType,
): LogicalPlan {
  const at = (i: number): Expression => ({
    kind: 'column',
    path: [perValue.schema.fields[i].name],
    ordinal: i,
  });
  const names = aggregates.map(expressionName);
  const columns = values.flatMap((value) =>
    names.map((name, i): Expression => ({
      kind: 'alias',
      name: columnName(value, name, names.length),
      child: {
        kind: 'aggregate',
        fn: 'first',
        args: [
          {
            kind: 'caseWhen',
            branches: [
              { when: matches(at(keyCount), value, pivotType), then: at(keyCount + 1 + i) },
            ],
          },
        ],
        distinct: false,
        ignoreNulls: true,
      },
    })),
  );
  return build.aggregate(
    perValue,
    Array.from({ length: keyCount }, (_, i) => at(i)),
    columns,
  );
}

/** One aggregation by the keys, each aggregate call seeing only the rows of its pivot value. */
function conditionalPivot(
  input: LogicalPlan,
  keys: readonly Expression[],
  pivot: Pivot,
  aggregates: readonly Expression[],
  pivotType: DataType,
): LogicalPlan {
  const names = aggregates.map(expressionName);
  const columns = pivot.values.flatMap((value) => {
    const when = matches(pivot.column, value, pivotType);
    return aggregates.map((aggregate, i): Expression => ({
      kind: 'alias',
      name: columnName(value, names[i], names.length),
      child: replaceExpressions(unaliased(aggregate), (e) =>
        e.kind === 'aggregate' ? conditioned(e, when) : undefined,
      ),
    }));
  });
  return build.aggregate(input, keys, columns);
}

/**
 * `call` over only the rows where `when` holds: its value arguments become null elsewhere, which
 * every aggregate skips. As in Spark, first and last then skip nulls, count(*) counts the rows
 * matching, and the parameters of percentile_approx and approx_count_distinct stay as they are.
 */
function conditioned(call: AggregateCall, when: Expression): AggregateCall {
  const onlyWhen = (arg: Expression): Expression => ({
    kind: 'caseWhen',
    branches: [{ when, then: arg }],
  });
  if (call.args.length === 0) {
    return { ...call, args: [onlyWhen({ kind: 'literal', value: 1, dataType: IntegerType })] };
  }
  const valueArgs =
    call.fn === 'percentile_approx' || call.fn === 'approx_count_distinct' ? 1 : call.args.length;
  return {
    ...call,
    args: call.args.map((arg, i) => (i < valueArgs ? onlyWhen(arg) : arg)),
    ...(call.fn === 'first' || call.fn === 'last' ? { ignoreNulls: true } : {}),
  };
}

/** The pivot column equals `value` (null matching null), the value cast to the column's type. */
function matches(pivotColumn: Expression, value: PivotValue, pivotType: DataType): Expression {
  return {
    kind: 'binary',
    op: '<=>',
    left: pivotColumn,
    right: { kind: 'cast', child: toLiteral(value), to: pivotType },
  };
}

/** Spark's name for a pivoted column: the value, or `value_aggregate` with several aggregates. */
function columnName(value: PivotValue, aggregate: string, aggregateCount: number): string {
  return aggregateCount === 1 ? String(value) : `${String(value)}_${aggregate}`;
}

/** An aggregate without its alias: the alias names the pivoted column through `columnName`. */
function unaliased(e: Expression): Expression {
  return e.kind === 'alias' ? unaliased(e.child) : e;
}
