/**
 * GroupedData: the result of `groupBy`, waiting for its aggregates.
 */
import { InvalidOptionError } from '../errors.js';
import type { Expression } from '../expr/expression.js';
import * as build from '../plan/plan-builder.js';
import type { StatefulProcessor, TimeMode } from '../plan/stateful-processor.js';
import { transformWithState } from '../plan/transform-with-state-node.js';
import type { StructType } from '../types/data-types.js';
import { parseSchema } from '../types/type-names.js';
import { type Column, columnOrName } from './column.js';
import { DataFrame } from './dataframe.js';
import { avg, count, max, min, sum } from './functions.js';
import { checkedPivot, type Pivot, pivotAggregate, type PivotValue } from './pivot-plan.js';

/** How `transformWithState` runs its processor. */
export interface TransformWithStateOptions {
  /** What drives timers and TTL: `none`, `processingTime` or `eventTime`. */
  readonly timeMode: TimeMode;
  /** The processor's output mode (Spark's), given to its `init`: `append` or `update`. */
  readonly outputMode: 'append' | 'update';
  /** The schema of the rows the processor returns: a StructType or DDL (`'user STRING, n BIGINT'`). */
  readonly schema: StructType | string;
  /** A batch DataFrame grouped by keys of the same types: each key's one row sets up its state. */
  readonly initialState?: GroupedData;
  /**
   * A timestamp column of `schema` that carries event time on to stateful operators above this one
   * (Spark's `eventTimeColumnName`): with it, the output is watermarked like the input, and a row
   * the processor returns older than the watermark fails the batch. Needs timeMode `eventTime`.
   */
  readonly eventTimeColumnName?: string;
}

/** A grouped DataFrame. */
export class GroupedData {
  constructor(
    private readonly df: DataFrame,
    private readonly keys: readonly Expression[],
    private readonly pivotBy?: Pivot,
  ) {}

  /**
   * Spreads the values of `column` into columns: the aggregation that follows gives, per group, one
   * column per value in `values` (named after it; `value_aggregate` with several aggregates), null
   * where the group has no rows with that value. Values are required (Spark can find them itself,
   * with a job of its own); tables only, as in Spark.
   */
  pivot(column: Column | string, values?: readonly PivotValue[]): GroupedData {
    if (this.pivotBy) {
      throw new InvalidOptionError(
        'pivot was already called on this grouping; pivot by one column.',
      );
    }
    const pivot = checkedPivot(this.df.plan, columnOrName(column), values);
    return new GroupedData(this.df, this.keys, pivot);
  }

  /** One row per group: the keys, then each aggregate. */
  agg(...aggregates: Column[]): DataFrame {
    const exprs = aggregates.map((a) => a.expr);
    const plan = this.pivotBy
      ? pivotAggregate(this.df.plan, this.keys, this.pivotBy, exprs)
      : build.aggregate(this.df.plan, this.keys, exprs);
    return new DataFrame(this.df.session, plan);
  }

  /**
   * Runs `processor` (a StatefulProcessor) per group: in a stream, each micro-batch gives it each
   * key's new rows and expired timers, and it keeps what it needs in named state variables; on a
   * batch DataFrame it sees each key's rows once. Groups by columns only.
   */
  transformWithState(processor: StatefulProcessor, options: TransformWithStateOptions): DataFrame {
    if (this.pivotBy) {
      throw new InvalidOptionError(
        'transformWithState cannot follow pivot: pivot is for aggregations; group without pivot.',
      );
    }
    const initial = options.initialState;
    const plan = transformWithState(this.df.plan, this.keys, processor, {
      timeMode: options.timeMode,
      outputMode: options.outputMode,
      schema: typeof options.schema === 'string' ? parseSchema(options.schema) : options.schema,
      ...(initial ? { initialState: { plan: initial.df.plan, keys: initial.keys } } : {}),
      ...(options.eventTimeColumnName === undefined
        ? {}
        : { eventTimeColumnName: options.eventTimeColumnName }),
    });
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
