/**
 * Test helper for operators on column batches: an input operator that pushes given batches, and
 * the batches an operator pushes.
 */
import type { ColumnBatch } from '../../core/columnar/column-batch.js';
import type { ExecutionContext } from '../../core/exec/execution-context.js';
import type { PhysicalOperator } from '../../core/exec/physical-operator.js';

/** An operator that pushes `batches`, in order. */
export function batchesOperator(...batches: ColumnBatch[]): PhysicalOperator {
  return { produceBatches: (_ctx, consume) => batches.forEach((b) => consume(b)) };
}

/** The batches `operator` pushes when run with `ctx`. */
export function producedBatches(operator: PhysicalOperator, ctx: ExecutionContext): ColumnBatch[] {
  const out: ColumnBatch[] = [];
  operator.produceBatches(ctx, (b) => out.push(b));
  return out;
}

/** A context for a batch query: no leaf rows (the input operators push them), no counters yet. */
export function batchContext(): ExecutionContext {
  return { inputs: new Map(), counters: {} };
}
