/**
 * Whether a plan reads the processing time: true when any of its expressions calls
 * `current_timestamp()` or `current_date()`, or it runs a stateful processor (whose timers, TTL and timer values read the
 * batch's clock). A plan that does not runs the same under every batch's clock.
 */
import { containsExpression, type Expression } from '../expr/expression.js';
import { allNodes, type LogicalPlan } from './logical-plan.js';

/** True when some expression of `plan` calls `current_timestamp()`, or it runs a stateful processor. */
export function readsProcessingTime(plan: LogicalPlan): boolean {
  return allNodes(plan).some(
    (node) =>
      node.kind === 'transformWithState' ||
      expressionsOf(node).some((e) => containsExpression(e, isCurrentTimestamp)),
  );
}

function isCurrentTimestamp(e: Expression): boolean {
  return e.kind === 'call' && (e.name === 'current_timestamp' || e.name === 'current_date');
}

/** The expressions a node binds (not its inputs'). */
function expressionsOf(node: LogicalPlan): readonly Expression[] {
  switch (node.kind) {
    case 'project':
      return node.exprs;
    case 'filter':
      return [node.condition];
    case 'aggregate':
      return [...node.groupBy, ...node.aggregates];
    case 'join':
      return node.condition ? [node.condition] : [];
    case 'sort':
      return node.orders.map((o) => o.expr);
    case 'window':
      return node.windowExprs;
    case 'relation':
    case 'streamingRelation':
    case 'watermark':
    case 'union':
    case 'limit':
    case 'deduplicate':
    case 'transformWithState':
      return [];
  }
}
