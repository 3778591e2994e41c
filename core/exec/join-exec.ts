/**
 * Join: hash join on the equality keys of the condition, with the rest of the condition as a residual
 * filter; inner, left, right, full outer, left semi and left anti.
 */
import { ExecutionError } from '../errors.js';
import type { Join } from '../plan/logical-plan.js';
import type { Row } from '../types/row.js';
import type { ExecutionContext } from './execution-context.js';
import type { PhysicalOperator } from './physical-operator.js';

/** Runs a Join node. */
export class JoinExec implements PhysicalOperator {
  constructor(
    private readonly node: Join,
    private readonly left: PhysicalOperator,
    private readonly right: PhysicalOperator,
  ) {}

  execute(_ctx: ExecutionContext): Row[] {
    throw new ExecutionError(`join (${this.node.joinType}) is being implemented`);
  }
}
