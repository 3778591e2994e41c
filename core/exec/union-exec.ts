/**
 * Union: the rows of every input, in input order, duplicates kept.
 */
import type { ExecutionContext } from './execution-context.js';
import type { PhysicalOperator, RowConsumer } from './physical-operator.js';

/** Runs a Union node. */
export class UnionExec implements PhysicalOperator {
  constructor(private readonly inputs: readonly PhysicalOperator[]) {}

  produce(ctx: ExecutionContext, consume: RowConsumer): void {
    for (const input of this.inputs) input.produce(ctx, consume);
  }
}
