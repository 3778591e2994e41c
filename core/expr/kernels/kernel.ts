/**
 * Kernels: an expression compiled, once, into a function over a whole column batch, so a batch is
 * dispatched once per expression instead of once per row. The binder attaches a kernel to the
 * expressions it can vectorize (column references, struct fields, literals, arithmetic,
 * comparisons, boolean logic, null tests, casts, tumbling windows); any other expression runs its
 * row evaluator over the batch's rows (`kernelOf`).
 *
 * A kernel has exactly the row evaluator's semantics, including which rows it evaluates at all: a
 * row evaluator stops at the first operand that decides the result (`false AND x`, `null + x`) and
 * at a dropped row (DROPMALFORMED), and what it does not evaluate cannot fail. So a kernel gets a
 * selection of the rows to evaluate and passes its operands narrower ones; rows an evaluator drops
 * are recorded in the KernelInput and never evaluated again.
 */
import type { Column, ColumnBatch } from '../../columnar/column-batch.js';
import { rowsOf } from '../../columnar/batch-rows.js';
import type { Row } from '../../types/row.js';

/** Which rows of a batch to evaluate: 1 = evaluate; null = every row. */
export type Selection = Uint8Array | null;

/**
 * Computes an expression for the rows of `input` that `active` selects (and no dropped row); the
 * column's values at other rows are unspecified.
 */
export type Kernel = (input: KernelInput, active: Selection) => Column;

/** One batch as one operator evaluates its expressions over it. */
export class KernelInput {
  /** Rows an evaluator dropped (1 = dropped); null until the first. */
  private droppedRows: Uint8Array | null = null;
  /** How many rows were dropped, by reason (a progress counter, e.g. malformedRecords). */
  readonly dropReasons = new Map<string, number>();
  private rowsCache: readonly Row[] | undefined;

  constructor(readonly batch: ColumnBatch) {}

  /** The batch as rows, for row evaluators: built at most once per batch. */
  rows(): readonly Row[] {
    this.rowsCache ??= rowsOf(this.batch);
    return this.rowsCache;
  }

  /** True when some row has been dropped. */
  get hasDrops(): boolean {
    return this.droppedRows !== null;
  }

  /** True when row `i` has been dropped. */
  isDropped(i: number): boolean {
    return this.droppedRows !== null && this.droppedRows[i] === 1;
  }

  /** Records that an evaluator dropped row `i`, for `reason`. */
  drop(i: number, reason: string): void {
    this.droppedRows ??= new Uint8Array(this.batch.numRows);
    if (this.droppedRows[i] === 1) return;
    this.droppedRows[i] = 1;
    this.dropReasons.set(reason, (this.dropReasons.get(reason) ?? 0) + 1);
  }

  /** The rows of `active` that have not been dropped; null when that is every row. */
  live(active: Selection): Selection {
    const dropped = this.droppedRows;
    if (dropped === null) return active;
    const live = new Uint8Array(this.batch.numRows);
    for (let i = 0; i < live.length; i++)
      live[i] = dropped[i] === 0 && (active === null || active[i] === 1) ? 1 : 0;
    return live;
  }

  /** Positions of the rows not dropped, ascending. */
  keptPositions(): Int32Array {
    const n = this.batch.numRows;
    const kept = new Int32Array(n - this.droppedCount());
    for (let i = 0, j = 0; i < n; i++) if (!this.isDropped(i)) kept[j++] = i;
    return kept;
  }

  private droppedCount(): number {
    let total = 0;
    for (const n of this.dropReasons.values()) total += n;
    return total;
  }
}
