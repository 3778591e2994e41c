/**
 * The plan fingerprint: a readable description of what a query keeps in state (its stateful
 * operators, their keys and values, and the state partition count). It is recorded when a checkpoint
 * is created; restarting with a different one would read state with the wrong shape, so it is refused.
 */
import type { PhysicalPlan } from '../exec/physical-planner.js';

/** Describes the state layout of a planned query. */
export function planFingerprint(plan: PhysicalPlan, numStatePartitions: number): string {
  const operators = plan.statefulOperators.map((op) => `#${op.operatorId} ${op.stateDescription}`);
  return `${operators.join('; ') || 'stateless'}; partitions: ${numStatePartitions}`;
}
