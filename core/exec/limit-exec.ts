/**
 * Limit: the first n rows of its input.
 */
import type { Row } from '../types/row.js';
import type { ExecutionContext } from './execution-context.js';
import type { PhysicalOperator } from './physical-operator.js';

/** Runs a Limit node. */
export class LimitExec implements PhysicalOperator {
  constructor(
    private readonly n: number,
    private readonly input: PhysicalOperator,
  ) {}

  execute(ctx: ExecutionContext): Row[] {
    return this.input.execute(ctx).slice(0, this.n);
  }
}
