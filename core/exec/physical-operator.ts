/**
 * A physical operator: a logical node with its expressions bound, ready to run. Operators push
 * column batches: `produceBatches` hands every output batch of the run to `consume`, so a chain of
 * selects, filters and the aggregation dispatches once per batch and per expression, and runs
 * typed loops over columns in between. Operators that need all their input (aggregation, sort, the
 * build side of a join) gather it themselves. Operators that are not columnar yet are row
 * operators behind a row adapter (row-adapter-exec.ts). Operators are synchronous and do no I/O:
 * the runner loads leaf rows and state before execution starts.
 */
import { rowsOf } from '../columnar/batch-rows.js';
import type { ColumnBatch } from '../columnar/column-batch.js';
import type { Row } from '../types/row.js';
import type { ExecutionContext } from './execution-context.js';

/** Receives one batch. */
export type BatchConsumer = (batch: ColumnBatch) => void;

/** Receives one row. */
export type RowConsumer = (row: Row) => void;

/** A runnable operator. */
export interface PhysicalOperator {
  /** Pushes every output batch of this run to `consume`, in order; empty batches may be left out. */
  produceBatches(ctx: ExecutionContext, consume: BatchConsumer): void;
}

/** Runs an operator and pushes its output rows, in order, to `consume`. */
export function produceRows(
  operator: PhysicalOperator,
  ctx: ExecutionContext,
  consume: RowConsumer,
): void {
  operator.produceBatches(ctx, (batch) => {
    const rows = rowsOf(batch);
    for (let i = 0; i < rows.length; i++) consume(rows[i]);
  });
}

/** Runs an operator and gathers its output rows. */
export function collectRows(operator: PhysicalOperator, ctx: ExecutionContext): Row[] {
  const rows: Row[] = [];
  produceRows(operator, ctx, (row) => rows.push(row));
  return rows;
}
