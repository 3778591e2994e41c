/**
 * A physical operator: a logical node with its expressions bound, ready to run. Operators push rows:
 * `produce` hands every output row of the batch to `consume`, one at a time, so a chain of selects,
 * filters and the aggregation runs as one loop per input row, and intermediate rows die young instead
 * of filling arrays of a million rows per stage. Operators that need all their input (aggregation,
 * sort, the build side of a join) gather it themselves. Operators are synchronous and do no I/O: the
 * runner loads leaf rows and state before execution starts.
 */
import type { Row } from '../types/row.js';
import type { ExecutionContext } from './execution-context.js';

/** Receives one row. */
export type RowConsumer = (row: Row) => void;

/** A runnable operator. */
export interface PhysicalOperator {
  /** Pushes every output row of this run to `consume`, in order. */
  produce(ctx: ExecutionContext, consume: RowConsumer): void;
}

/** Runs an operator and gathers its output rows. */
export function collectRows(operator: PhysicalOperator, ctx: ExecutionContext): Row[] {
  const rows: Row[] = [];
  operator.produce(ctx, (row) => rows.push(row));
  return rows;
}
