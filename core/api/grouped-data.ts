/**
 * GroupedData: the result of `groupBy`, waiting for its aggregates.
 */
import type { Expression } from '../expr/expression.js';
import * as build from '../plan/plan-builder.js';
import type { Column } from './column.js';
import { DataFrame } from './dataframe.js';
import { avg, count, max, min, sum } from './functions.js';

/** A grouped DataFrame. */
export class GroupedData {
  constructor(
    private readonly df: DataFrame,
    private readonly keys: readonly Expression[],
  ) {}

  /** One row per group: the keys, then each aggregate. */
  agg(...aggregates: Column[]): DataFrame {
    const plan = build.aggregate(
      this.df.plan,
      this.keys,
      aggregates.map((a) => a.expr),
    );
    return new DataFrame(this.df.session, plan);
  }

  /** Rows per group, in a column named `count`. */
  count(): DataFrame {
    return this.agg(count().alias('count'));
  }

  /** The sum of each named column per group. */
  sum(...columns: string[]): DataFrame {
    return this.agg(...columns.map((c) => sum(c)));
  }

  /** The mean of each named column per group. */
  avg(...columns: string[]): DataFrame {
    return this.agg(...columns.map((c) => avg(c)));
  }

  /** The minimum of each named column per group. */
  min(...columns: string[]): DataFrame {
    return this.agg(...columns.map((c) => min(c)));
  }

  /** The maximum of each named column per group. */
  max(...columns: string[]): DataFrame {
    return this.agg(...columns.map((c) => max(c)));
  }
}
