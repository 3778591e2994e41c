/**
 * The window functions of the reference: the functions OVER takes besides aggregates
 * (core/api/window-expression.ts), computed by core/expr/window-function-binder.ts.
 */
import type { FunctionDocs } from './function-doc.js';

const NO_NULLS = 'Never null.';

/** Window functions. */
export const WINDOW_FUNCTIONS: FunctionDocs = {
  row_number: {
    signatures: ['row_number() → INT'],
    column: 'row_number',
    does: "The row's 1-based position in its partition, by the window's order.",
    nulls: NO_NULLS,
    example: {
      sql: 'SELECT x, row_number() OVER (ORDER BY x) FROM t ORDER BY x',
      result: 'NULL, 1; 1, 2; 2, 3; 2, 4; 5, 5',
    },
  },
  rank: {
    signatures: ['rank() → INT'],
    column: 'rank',
    does: 'The rank by the order, with gaps after ties.',
    nulls: NO_NULLS,
    example: {
      sql: 'SELECT x, rank() OVER (ORDER BY x) FROM t WHERE x IS NOT NULL ORDER BY x',
      result: '1, 1; 2, 2; 2, 2; 5, 4',
    },
  },
  dense_rank: {
    signatures: ['dense_rank() → INT'],
    column: 'dense_rank',
    does: 'The rank by the order, without gaps after ties.',
    nulls: NO_NULLS,
    example: {
      sql: 'SELECT x, dense_rank() OVER (ORDER BY x) FROM t WHERE x IS NOT NULL ORDER BY x',
      result: '1, 1; 2, 2; 2, 2; 5, 3',
    },
  },
  ntile: {
    signatures: ['ntile(n INT) → INT'],
    column: 'ntile',
    does: 'The bucket, 1 to n, of the row when the partition is split into n buckets as even as can be (the first ones larger).',
    nulls: NO_NULLS,
    example: {
      sql: 'SELECT y, ntile(2) OVER (ORDER BY y) FROM t ORDER BY y',
      result: 'NULL, 1; 1.5, 1; 2.0, 1; 3.0, 2; 4.0, 2',
    },
  },
  lag: {
    signatures: ['lag(e[, offset INT[, default]]) → the type of e'],
    column: 'lag',
    does: 'The value of `e` `offset` rows (default 1) before the row in its partition, or `default` when there is none.',
    nulls: 'Null (or `default`) before the first row; a null value is returned as null.',
    example: {
      sql: "SELECT x, lag(x) OVER (ORDER BY x) FROM t WHERE g = 'b' ORDER BY x",
      result: 'NULL, NULL; 2, NULL; 5, 2',
    },
  },
  lead: {
    signatures: ['lead(e[, offset INT[, default]]) → the type of e'],
    column: 'lead',
    does: 'The value of `e` `offset` rows (default 1) after the row in its partition, or `default` when there is none.',
    nulls: 'Null (or `default`) after the last row; a null value is returned as null.',
    example: {
      sql: "SELECT x, lead(x, 1, 0) OVER (ORDER BY x) FROM t WHERE g = 'b' ORDER BY x",
      result: 'NULL, 2; 2, 5; 5, 0',
    },
  },
  first_value: {
    signatures: ['first_value(e[, ignoreNulls BOOLEAN]) → the type of e'],
    column: 'first_value',
    does: "The value of `e` at the first row of the row's frame (by default from the partition's start to the row).",
    nulls: 'A null counts unless `ignoreNulls` is true.',
    example: {
      sql: 'SELECT x, first_value(x, true) OVER (ORDER BY x) FROM t ORDER BY x',
      result: 'NULL, NULL; 1, 1; 2, 1; 2, 1; 5, 1',
    },
  },
  last_value: {
    signatures: ['last_value(e[, ignoreNulls BOOLEAN]) → the type of e'],
    column: 'last_value',
    does: "The value of `e` at the last row of the row's frame (by default the row and its ties).",
    nulls: 'A null counts unless `ignoreNulls` is true.',
    example: {
      sql: 'SELECT x, last_value(x) OVER (ORDER BY x) FROM t ORDER BY x',
      result: 'NULL, NULL; 1, 1; 2, 2; 2, 2; 5, 5',
    },
  },
};
