/**
 * A physical operator: a logical node with its expressions bound, ready to run. `execute` takes the
 * whole input of a batch (or of a batch query) and returns its output rows; operators are synchronous
 * and do no I/O, since the runner loads leaf rows and state before execution starts.
 */
import type { Row } from '../types/row.js';
import type { ExecutionContext } from './execution-context.js';

/** A runnable operator. */
export interface PhysicalOperator {
  execute(ctx: ExecutionContext): Row[];
}
