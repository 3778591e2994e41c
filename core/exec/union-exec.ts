/**
 * Union: the rows of every input, in input order, duplicates kept.
 */
import type { Row } from '../types/row.js';
import type { ExecutionContext } from './execution-context.js';
import type { PhysicalOperator } from './physical-operator.js';

/** Runs a Union node. */
export class UnionExec implements PhysicalOperator {
  constructor(private readonly inputs: readonly PhysicalOperator[]) {}

  execute(ctx: ExecutionContext): Row[] {
    return this.inputs.flatMap((input) => input.execute(ctx));
  }
}
