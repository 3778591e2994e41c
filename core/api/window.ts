/**
 * Window specifications of the DataFrame API, as Spark's `Window`:
 * `Window.partitionBy('user').orderBy('ts').rowsBetween(Window.unboundedPreceding, Window.currentRow)`,
 * used with `fn.over(window)`. Frame bounds count rows (`rowsBetween`) or order values
 * (`rangeBetween`) from the current row: negative before it, positive after, 0 the current row.
 * core/expr/window-function-binder.ts states the semantics (Spark's).
 */
import type { WindowFrame, WindowOrder, WindowSpec } from '../expr/expression.js';
import { Column, columnOrName, type SortColumn } from './column.js';

/** A window: its partitioning, ordering and frame. Every method returns a new spec. */
export class WindowSpecBuilder {
  constructor(
    /** The specification this builder stands for. */
    readonly spec: WindowSpec = { partitionBy: [], orderBy: [] },
  ) {}

  /** Rows with equal values of these columns form one partition. */
  partitionBy(...columns: (Column | string)[]): WindowSpecBuilder {
    return new WindowSpecBuilder({ ...this.spec, partitionBy: columns.map(columnOrName) });
  }

  /** The order of rows within a partition (ascending, nulls first, unless given `col(x).desc()`). */
  orderBy(...columns: (Column | string | SortColumn)[]): WindowSpecBuilder {
    const orderBy: WindowOrder[] = columns.map((c) =>
      c instanceof Column || typeof c === 'string'
        ? { expr: columnOrName(c), ascending: true, nullsFirst: true }
        : { expr: c.column.expr, ascending: c.ascending, nullsFirst: c.nullsFirst },
    );
    return new WindowSpecBuilder({ ...this.spec, orderBy });
  }

  /** The frame: from `start` rows to `end` rows relative to the current row. */
  rowsBetween(start: number, end: number): WindowSpecBuilder {
    return this.framed({ type: 'rows', start, end });
  }

  /** The frame: rows whose order value lies within [value + start, value + end]. */
  rangeBetween(start: number, end: number): WindowSpecBuilder {
    return this.framed({ type: 'range', start, end });
  }

  private framed(frame: WindowFrame): WindowSpecBuilder {
    return new WindowSpecBuilder({ ...this.spec, frame });
  }
}

/** Starts window specifications, and names the frame bounds. */
export const Window = {
  /** The first row of the partition. */
  unboundedPreceding: -Infinity,
  /** The last row of the partition. */
  unboundedFollowing: Infinity,
  /** The current row (for a range frame, its peers too). */
  currentRow: 0,
  /** A window partitioned by these columns. */
  partitionBy: (...columns: (Column | string)[]): WindowSpecBuilder =>
    new WindowSpecBuilder().partitionBy(...columns),
  /** A window over the whole table, ordered by these columns. */
  orderBy: (...columns: (Column | string | SortColumn)[]): WindowSpecBuilder =>
    new WindowSpecBuilder().orderBy(...columns),
} as const;
