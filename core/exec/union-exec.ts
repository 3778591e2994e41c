/**
 * Union: the rows of every input, in input order, duplicates kept.
 */
import type { ExecutionContext } from './execution-context.js';
import { type PhysicalOperator, produceRows, type RowConsumer } from './physical-operator.js';
import type { RowOperator } from './row-adapter-exec.js';

/** Runs a Union node. */
export class UnionExec implements RowOperator {
  constructor(private readonly inputs: readonly PhysicalOperator[]) {}

  produce(ctx: ExecutionContext, consume: RowConsumer): void {
    for (const input of this.inputs) produceRows(input, ctx, consume);
  }
}
