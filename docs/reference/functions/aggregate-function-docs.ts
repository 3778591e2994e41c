/**
 * The aggregate functions of the reference: the aggregates SQL names (core/sql/sql-functions.ts),
 * computed by core/expr/aggregate-functions.ts and its neighbours.
 */
import type { FunctionDocs } from './function-doc.js';

const SKIPS_NULLS = 'Skips nulls; null over no non-null value.';

/** Aggregate functions. */
export const AGGREGATE_FUNCTIONS: FunctionDocs = {
  count: {
    signatures: [
      'count(*) → BIGINT',
      'count(e1[, e2, ...]) → BIGINT',
      'count(DISTINCT e1[, e2, ...]) → BIGINT',
    ],
    column: 'count',
    does: 'The number of rows, or of rows whose arguments are all non-null (distinct ones with DISTINCT; `countDistinct` in the column API).',
    nulls: 'Rows with a null argument are not counted; 0 over no rows.',
    example: { sql: 'SELECT count(*), count(x), count(DISTINCT x) FROM t', result: '5, 4, 3' },
  },
  sum: {
    signatures: ['sum(x numeric) → BIGINT | DOUBLE'],
    column: 'sum',
    does: 'The sum (a bigint over integers, a double over doubles).',
    nulls: SKIPS_NULLS,
    example: { sql: 'SELECT sum(x) FROM t', result: '10' },
  },
  avg: {
    aliases: ['mean'],
    signatures: ['avg(x numeric) → DOUBLE'],
    column: 'avg',
    does: 'The mean.',
    nulls: SKIPS_NULLS,
    example: { sql: 'SELECT avg(x) FROM t', result: '2.5' },
  },
  min: {
    signatures: ['min(e) → the type of e'],
    column: 'min',
    does: 'The smallest value.',
    nulls: SKIPS_NULLS,
    example: { sql: 'SELECT min(y) FROM t', result: '1.5' },
  },
  max: {
    signatures: ['max(e) → the type of e'],
    column: 'max',
    does: 'The largest value.',
    nulls: SKIPS_NULLS,
    example: { sql: 'SELECT max(x), max(g) FROM t', result: '5, b' },
  },
  first: {
    signatures: ['first(e[, ignoreNulls BOOLEAN]) → the type of e'],
    column: 'first',
    does: "The group's first value in input order (which a shuffle may change, as in Spark).",
    nulls: 'A null counts unless `ignoreNulls` is true.',
    example: {
      sql: "SELECT first(y) AS a, first(y, true) AS b FROM t WHERE g = 'b' OR y IS NULL",
      result: 'NULL, 4.0',
    },
  },
  last: {
    signatures: ['last(e[, ignoreNulls BOOLEAN]) → the type of e'],
    column: 'last',
    does: "The group's last value in input order.",
    nulls: 'A null counts unless `ignoreNulls` is true.',
    example: {
      sql: 'SELECT last(x) AS a, last(x, true) AS b FROM t WHERE y <= 2',
      result: 'NULL, 1',
    },
  },
  collect_list: {
    signatures: ['collect_list(e) → ARRAY'],
    column: 'collect_list',
    does: 'The values as an array, in input order.',
    nulls: 'Skips nulls; an empty array over no non-null value.',
    example: { sql: 'SELECT collect_list(x) FROM t', result: '[1, 2, 2, 5]' },
  },
  collect_set: {
    signatures: ['collect_set(e) → ARRAY'],
    column: 'collect_set',
    does: 'The distinct values as an array, in no set order.',
    nulls: 'Skips nulls; an empty array over no non-null value.',
    example: { sql: 'SELECT size(collect_set(x)) FROM t', result: '3' },
  },
  approx_count_distinct: {
    signatures: ['approx_count_distinct(e[, relativeSD DOUBLE]) → BIGINT'],
    column: 'approx_count_distinct',
    does: 'The number of distinct values, estimated by HyperLogLog++ within the relative standard deviation (default 0.05).',
    nulls: 'Skips nulls; 0 over no non-null value.',
    example: { sql: 'SELECT approx_count_distinct(x) FROM t', result: '3' },
  },
  percentile_approx: {
    aliases: ['approx_percentile'],
    signatures: [
      'percentile_approx(e numeric, percentage DOUBLE[, accuracy INT]) → the type of e',
      'percentile_approx(e, array of percentages[, accuracy]) → ARRAY',
    ],
    column: 'percentile_approx',
    does: 'The smallest value such that at least `percentage` of the values are no greater, from a summary of `1 / accuracy` relative error (default accuracy 10000).',
    nulls: SKIPS_NULLS,
    example: { sql: 'SELECT percentile_approx(x, 0.5) FROM t', result: '2' },
  },
  stddev: {
    aliases: ['std'],
    signatures: ['stddev(x numeric) → DOUBLE'],
    column: 'stddev',
    does: 'The sample standard deviation (as `stddev_samp`).',
    nulls: 'Skips nulls; null over no non-null value, NaN over one.',
    example: { sql: 'SELECT stddev(x) FROM t', result: '1.7320508075688772' },
  },
  stddev_samp: {
    signatures: ['stddev_samp(x numeric) → DOUBLE'],
    column: 'stddev_samp',
    does: 'The sample standard deviation.',
    nulls: 'Skips nulls; null over no non-null value, NaN over one.',
    example: { sql: "SELECT stddev_samp(x) FROM t WHERE g = 'a'", result: '0.7071067811865476' },
  },
  stddev_pop: {
    signatures: ['stddev_pop(x numeric) → DOUBLE'],
    column: 'stddev_pop',
    does: 'The population standard deviation.',
    nulls: SKIPS_NULLS,
    example: { sql: "SELECT stddev_pop(x) FROM t WHERE g = 'a'", result: '0.5' },
  },
  variance: {
    signatures: ['variance(x numeric) → DOUBLE'],
    column: 'variance',
    does: 'The sample variance (as `var_samp`).',
    nulls: 'Skips nulls; null over no non-null value, NaN over one.',
    example: { sql: "SELECT variance(x) FROM t WHERE g = 'a'", result: '0.5' },
  },
  var_samp: {
    signatures: ['var_samp(x numeric) → DOUBLE'],
    column: 'var_samp',
    does: 'The sample variance.',
    nulls: 'Skips nulls; null over no non-null value, NaN over one.',
    example: { sql: "SELECT var_samp(x) FROM t WHERE g = 'c'", result: 'NULL' },
  },
  var_pop: {
    signatures: ['var_pop(x numeric) → DOUBLE'],
    column: 'var_pop',
    does: 'The population variance.',
    nulls: SKIPS_NULLS,
    example: { sql: "SELECT var_pop(x) FROM t WHERE g = 'a'", result: '0.25' },
  },
};
