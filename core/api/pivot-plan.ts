/**
 * `groupBy(...).pivot(column, values).agg(...)` as Spark plans it (its PivotFirst): first aggregate
 * by the keys and the pivot column, then turn each pivot value's aggregates into columns of the
 * key's row. A key with no rows for a value has null there, for every aggregate (count included),
 * as in Spark. Columns are named after the value (`'2024'`, `'null'`), or `value_aggregate` when
 * there are several aggregates.
 */
import { InvalidOptionError, UnsupportedOperationError } from '../errors.js';
import type { Expression } from '../expr/expression.js';
import { expressionName } from '../expr/expression-name.js';
import type { LogicalPlan } from '../plan/logical-plan.js';
import * as build from '../plan/plan-builder.js';
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

/** One row per key: the keys, then for each pivot value its aggregates. */
export function pivotAggregate(
  input: LogicalPlan,
  keys: readonly Expression[],
  pivot: Pivot,
  aggregates: readonly Expression[],
): LogicalPlan {
  const perValue = build.aggregate(input, [...keys, pivot.column], aggregates);
  const at = (i: number): Expression => ({
    kind: 'column',
    path: [perValue.schema.fields[i].name],
    ordinal: i,
  });
  const pivotType = perValue.schema.fields[keys.length].dataType;
  const names = aggregates.map(expressionName);
  const columns = pivot.values.flatMap((value) => {
    const matches: Expression = {
      kind: 'binary',
      op: '<=>',
      left: at(keys.length),
      right: { kind: 'cast', child: toLiteral(value), to: pivotType },
    };
    return names.map((name, i): Expression => ({
      kind: 'alias',
      name: names.length === 1 ? String(value) : `${String(value)}_${name}`,
      child: {
        kind: 'aggregate',
        fn: 'first',
        args: [{ kind: 'caseWhen', branches: [{ when: matches, then: at(keys.length + 1 + i) }] }],
        distinct: false,
        ignoreNulls: true,
      },
    }));
  });
  return build.aggregate(
    perValue,
    keys.map((_, i) => at(i)),
    columns,
  );
}
