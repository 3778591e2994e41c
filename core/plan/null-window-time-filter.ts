/**
 * Spark's windowing drops the rows whose window time is null before the node that computes the
 * window (a select, a filter or a groupBy), so no null window is ever produced, whether the window
 * is a key, a selected column or part of a condition.
 */
import { childrenOf, type Expression, type TimeWindowExpression } from '../expr/expression.js';
import { expressionName } from '../expr/expression-name.js';
import { type LogicalPlan, newPlanId } from './logical-plan.js';

/**
 * `input`, below a filter that keeps only the rows whose window time is not null, when `exprs` hold
 * a `window()`; else `input` itself.
 */
export function withoutNullWindowTimes(
  input: LogicalPlan,
  exprs: readonly Expression[],
): LogicalPlan {
  const times = new Map<string, Expression>();
  for (const w of exprs.flatMap(windowsIn)) times.set(expressionName(w.timeColumn), w.timeColumn);
  return [...times.values()].reduce<LogicalPlan>(
    (plan, time) => ({
      kind: 'filter',
      id: newPlanId(),
      input: plan,
      condition: { kind: 'isNull', child: time, negated: true },
      schema: plan.schema,
      isStreaming: plan.isStreaming,
    }),
    input,
  );
}

function windowsIn(e: Expression): TimeWindowExpression[] {
  const nested = childrenOf(e).flatMap(windowsIn);
  return e.kind === 'window' ? [e, ...nested] : nested;
}
