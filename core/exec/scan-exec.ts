/**
 * Scan: a leaf's rows, which the runner loaded into the context before execution.
 */
import { ExecutionError } from '../errors.js';
import type { ExecutionContext } from './execution-context.js';
import type { PhysicalOperator, RowConsumer } from './physical-operator.js';

/** Emits the rows loaded for the leaf with logical id `planId`. */
export class ScanExec implements PhysicalOperator {
  constructor(
    private readonly planId: number,
    private readonly description: string,
  ) {}

  produce(ctx: ExecutionContext, consume: RowConsumer): void {
    const rows = ctx.inputs.get(this.planId);
    if (!rows) {
      throw new ExecutionError(
        `Internal error: no rows were loaded for ${this.description} (plan node ${this.planId}).`,
      );
    }
    for (let i = 0; i < rows.length; i++) consume(rows[i]);
  }
}
