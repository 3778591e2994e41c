/**
 * The approximate aggregates, whose constant parameters tune a mergeable sketch:
 * `approx_count_distinct(col, rsd)` over a HyperLogLog sketch and
 * `percentile_approx(col, percentage, accuracy)` over a Greenwald-Khanna quantile summary. Their
 * parameters are literals, checked when the query is analyzed, as Spark requires them foldable.
 */
import { AnalysisError } from '../errors.js';
import { ArrayOf, type DataType, isNumeric, LongType, typeName } from '../types/data-types.js';
import type { AggregateRule } from './aggregate-functions.js';
import type { BoundExpression } from './bound-expression.js';
import type { AggregateCall, AggregateFunctionName, Expression } from './expression.js';
import { expressionName } from './expression-name.js';
import {
  addToSketch,
  emptySketch,
  type HyperLogLogSketch,
  mergeSketches,
  sketchEstimate,
  sketchPrecision,
} from './hyper-log-log-sketch.js';
import {
  addToSummary,
  emptySummary,
  mergeSummaries,
  type QuantileSummary,
  summaryPercentiles,
} from './quantile-summary.js';

/** Spark's default relative standard deviation of approx_count_distinct. */
export const DEFAULT_RSD = 0.05;
/** Spark's default accuracy of percentile_approx (a relative rank error of 1 / accuracy). */
export const DEFAULT_ACCURACY = 10000;

/** The aggregates whose arguments after the first are constant parameters. */
export const PARAMETERIZED: ReadonlySet<AggregateFunctionName> = new Set([
  'approx_count_distinct',
  'percentile_approx',
]);

/** Binds a parameterized aggregate over its (bound) first argument. */
export function bindParameterized(call: AggregateCall, arg: BoundExpression): AggregateRule {
  const name = expressionName(call);
  if (call.distinct)
    throw new AnalysisError(`DISTINCT is only supported with count(); got ${name}.`);
  return call.fn === 'approx_count_distinct'
    ? bindApproxCountDistinct(name, call, arg)
    : bindPercentileApprox(name, call, arg);
}

function bindApproxCountDistinct(
  name: string,
  call: AggregateCall,
  arg: BoundExpression,
): AggregateRule {
  arity(name, call, 1, 2);
  if (arg.dataType.kind === 'map') {
    throw new AnalysisError(
      `${name} cannot hash map values (Spark refuses them); count a key or a struct instead.`,
    );
  }
  const rsd = call.args.length > 1 ? constantNumber(name, call.args[1], 'rsd') : DEFAULT_RSD;
  const p = sketchPrecision(rsd, name);
  return {
    name,
    dataType: LongType,
    nullable: false,
    input: arg.eval,
    init: () => emptySketch(p),
    update: (acc, v) => (v === null ? acc : addToSketch(acc as HyperLogLogSketch, v)),
    merge: (a, b) => mergeSketches(a as HyperLogLogSketch, b as HyperLogLogSketch),
    result: (acc) => sketchEstimate(acc as HyperLogLogSketch),
  };
}

function bindPercentileApprox(
  name: string,
  call: AggregateCall,
  arg: BoundExpression,
): AggregateRule {
  arity(name, call, 2, 3);
  if (!orderedNumber(arg.dataType)) {
    throw new AnalysisError(
      `${name} needs a numeric, date or timestamp column, got ${typeName(arg.dataType)}; cast it first.`,
    );
  }
  const { percentages, array } = percentagesOf(name, call.args[1]);
  const accuracy =
    call.args.length > 2 ? constantNumber(name, call.args[2], 'accuracy') : DEFAULT_ACCURACY;
  if (!Number.isInteger(accuracy) || accuracy <= 0 || accuracy > 2147483647) {
    throw new AnalysisError(
      `${name}: the accuracy must be an integer literal in (0, 2147483647], got ${accuracy}.`,
    );
  }
  const relativeError = 1 / accuracy;
  return {
    name,
    dataType: array ? ArrayOf(arg.dataType, false) : arg.dataType,
    nullable: true,
    input: arg.eval,
    init: emptySummary,
    update: (acc, v) =>
      v === null ? acc : addToSummary(acc as QuantileSummary, v as number, relativeError),
    merge: (a, b) => mergeSummaries(a as QuantileSummary, b as QuantileSummary, relativeError),
    result: (acc) => {
      const values = summaryPercentiles(acc as QuantileSummary, percentages, relativeError);
      return values === null || array ? values : values[0];
    },
  };
}

function orderedNumber(t: DataType): boolean {
  return isNumeric(t) || t.kind === 'date' || t.kind === 'timestamp';
}

/** A percentage literal, or an array literal of them, each in [0, 1]. */
function percentagesOf(
  name: string,
  e: Expression,
): { percentages: readonly number[]; array: boolean } {
  const value = e.kind === 'literal' ? e.value : undefined;
  const array = Array.isArray(value);
  const percentages = (array ? value : [value]) as unknown[];
  const valid =
    percentages.length > 0 && percentages.every((p) => typeof p === 'number' && p >= 0 && p <= 1);
  if (!valid) {
    throw new AnalysisError(
      `${name}: the percentage must be a constant in [0.0, 1.0] or an array of them, got ${expressionName(e)}; pass literals, not columns.`,
    );
  }
  return { percentages: percentages as number[], array };
}

function constantNumber(name: string, e: Expression, what: string): number {
  if (e.kind !== 'literal' || typeof e.value !== 'number') {
    throw new AnalysisError(
      `${name}: the ${what} must be a constant number, got ${expressionName(e)}; pass a literal, not a column.`,
    );
  }
  return e.value;
}

function arity(name: string, call: AggregateCall, min: number, max: number): void {
  if (call.args.length >= min && call.args.length <= max) return;
  const expected = min === max ? `${min}` : `${min} to ${max}`;
  throw new AnalysisError(
    `${call.fn}() takes ${expected} arguments, got ${call.args.length} in ${name}.`,
  );
}
