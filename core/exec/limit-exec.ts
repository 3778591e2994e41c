/**
 * Limit: the first n rows of its input.
 */
import type { ExecutionContext } from './execution-context.js';
import type { PhysicalOperator, RowConsumer } from './physical-operator.js';

/** Runs a Limit node. */
export class LimitExec implements PhysicalOperator {
  constructor(
    private readonly n: number,
    private readonly input: PhysicalOperator,
  ) {}

  produce(ctx: ExecutionContext, consume: RowConsumer): void {
    let remaining = this.n;
    this.input.produce(ctx, (row) => {
      if (remaining > 0) {
        remaining--;
        consume(row);
      }
    });
  }
}
