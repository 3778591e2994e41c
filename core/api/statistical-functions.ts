/**
 * The statistical aggregates of the DataFrame API: collect_set, approx_count_distinct,
 * percentile_approx and the variance family. Each builds an aggregate call; their accumulators
 * (core/expr) merge, so they run in batch groupBy, streaming aggregations and session windows.
 */
import type { AggregateFunctionName, Expression } from '../expr/expression.js';
import { ArrayOf, DoubleType } from '../types/data-types.js';
import { DEFAULT_ACCURACY, DEFAULT_RSD } from '../expr/approximate-aggregates.js';
import { Column, columnOrName } from './column.js';
import { toLiteral } from './literal.js';

/** The distinct non-null values of each group as an array (in first-seen order; Spark leaves it unspecified). */
export function collect_set(c: Column | string): Column {
  return aggregate('collect_set', [columnOrName(c)]);
}

/**
 * The approximate number of distinct non-null values, from a HyperLogLog sketch whose relative
 * standard deviation is `rsd` (Spark's default 0.05; at most 0.39).
 */
export function approx_count_distinct(c: Column | string, rsd = DEFAULT_RSD): Column {
  const args = [columnOrName(c)];
  return aggregate('approx_count_distinct', rsd === DEFAULT_RSD ? args : [...args, toLiteral(rsd)]);
}

/**
 * The smallest value of each group whose rank is at least `percentage` of the non-null values,
 * within a rank error of n / `accuracy`: a value of the input, in its type. With an array of
 * percentages, an array of such values.
 */
export function percentile_approx(
  c: Column | string,
  percentage: number | readonly number[],
  accuracy = DEFAULT_ACCURACY,
): Column {
  const percentages: Expression =
    typeof percentage === 'number'
      ? toLiteral(percentage)
      : { kind: 'literal', value: [...percentage], dataType: ArrayOf(DoubleType, false) };
  return aggregate('percentile_approx', [columnOrName(c), percentages, toLiteral(accuracy)]);
}

/** The sample standard deviation of the non-null values, a double (null for fewer than two). */
export function stddev(c: Column | string): Column {
  return aggregate('stddev', [columnOrName(c)]);
}

/** The sample standard deviation of the non-null values, a double (null for fewer than two). */
export function stddev_samp(c: Column | string): Column {
  return aggregate('stddev_samp', [columnOrName(c)]);
}

/** The population standard deviation of the non-null values, a double (null for none). */
export function stddev_pop(c: Column | string): Column {
  return aggregate('stddev_pop', [columnOrName(c)]);
}

/** The sample variance of the non-null values, a double (null for fewer than two). */
export function variance(c: Column | string): Column {
  return aggregate('variance', [columnOrName(c)]);
}

/** The sample variance of the non-null values, a double (null for fewer than two). */
export function var_samp(c: Column | string): Column {
  return aggregate('var_samp', [columnOrName(c)]);
}

/** The population variance of the non-null values, a double (null for none). */
export function var_pop(c: Column | string): Column {
  return aggregate('var_pop', [columnOrName(c)]);
}

function aggregate(fn: AggregateFunctionName, args: Expression[]): Column {
  return new Column({ kind: 'aggregate', fn, args, distinct: false });
}
