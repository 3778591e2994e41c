/**
 * Scan: a leaf's rows, which the runner loaded into the context before execution, as one batch of
 * `values` columns (see batch-rows.ts: raw source text is not dictionary-encoded).
 */
import { rowsToValuesBatch } from '../columnar/batch-rows.js';
import { ExecutionError } from '../errors.js';
import type { StructType } from '../types/data-types.js';
import type { ExecutionContext } from './execution-context.js';
import type { BatchConsumer, PhysicalOperator } from './physical-operator.js';

/** Emits the rows loaded for the leaf with logical id `planId`. */
export class ScanExec implements PhysicalOperator {
  constructor(
    private readonly planId: number,
    private readonly description: string,
    private readonly schema: StructType,
  ) {}

  produceBatches(ctx: ExecutionContext, consume: BatchConsumer): void {
    const rows = ctx.inputs.get(this.planId);
    if (!rows) {
      throw new ExecutionError(
        `Internal error: no rows were loaded for ${this.description} (plan node ${this.planId}).`,
      );
    }
    if (rows.length > 0) consume(rowsToValuesBatch(this.schema, rows));
  }
}
