/**
 * Scan: a leaf's batch, which the runner loaded into the context before execution (a source's own
 * column batch, or its rows as `values` columns: see batch-rows.ts).
 */
import { ExecutionError } from '../errors.js';
import type { ExecutionContext } from './execution-context.js';
import type { BatchConsumer, PhysicalOperator } from './physical-operator.js';

/** Emits the batch loaded for the leaf with logical id `planId`. */
export class ScanExec implements PhysicalOperator {
  constructor(
    private readonly planId: number,
    private readonly description: string,
  ) {}

  produceBatches(ctx: ExecutionContext, consume: BatchConsumer): void {
    const batch = ctx.inputs.get(this.planId);
    if (!batch) {
      throw new ExecutionError(
        `Internal error: no rows were loaded for ${this.description} (plan node ${this.planId}).`,
      );
    }
    if (batch.numRows > 0) consume(batch);
  }
}
