/**
 * Limit: the first n rows of its input.
 */
import type { ExecutionContext } from './execution-context.js';
import { type PhysicalOperator, produceRows, type RowConsumer } from './physical-operator.js';
import type { RowOperator } from './row-adapter-exec.js';

/** Runs a Limit node. */
export class LimitExec implements RowOperator {
  constructor(
    private readonly n: number,
    private readonly input: PhysicalOperator,
  ) {}

  produce(ctx: ExecutionContext, consume: RowConsumer): void {
    let remaining = this.n;
    produceRows(this.input, ctx, (row) => {
      if (remaining > 0) {
        remaining--;
        consume(row);
      }
    });
  }
}
