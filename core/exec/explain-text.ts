/**
 * What `df.explain()` prints, after Spark's `Dataset.explain`: the physical plan (`simple`), or
 * the parsed logical plan and then the physical plan (`extended`). A streaming plan is planned as a
 * query would plan it (its stateful operators, their ids and stores), without starting one.
 */
import { InvalidOptionError } from '../errors.js';
import { logicalPlanLines } from '../plan/logical-plan-text.js';
import type { LogicalPlan } from '../plan/logical-plan.js';
import type { OutputMode } from '../sinks/sink.js';
import { physicalPlanLines } from './physical-plan-text.js';
import { planPhysical } from './physical-planner.js';

/** What explain prints: `simple` the physical plan, `extended` the logical plan too. */
export type ExplainMode = 'simple' | 'extended';

const MODES: readonly ExplainMode[] = ['simple', 'extended'];

/**
 * The text `explain(mode)` prints for `plan`. `mode` may be `true` for `extended` and `false` for
 * `simple`, as in Spark; `outputMode` is the output mode a streaming plan's stateful operators show.
 */
export function explainText(
  plan: LogicalPlan,
  mode: ExplainMode | boolean = 'simple',
  outputMode?: OutputMode,
): string {
  const chosen = typeof mode === 'boolean' ? (mode ? 'extended' : 'simple') : mode;
  if (!MODES.includes(chosen)) {
    throw new InvalidOptionError(
      `explain mode '${String(mode)}' is not supported; use one of ${MODES.map((m) => `'${m}'`).join(', ')}.`,
    );
  }
  // planned at the epoch: the plan's shape does not depend on the batch's processing time
  const physical = planPhysical(plan, plan.isStreaming, { batchTimestampMicros: 0 });
  const physicalText = physicalPlanLines(plan, physical, plan.isStreaming ? outputMode : undefined);
  const sections = [['== Physical Plan ==', ...physicalText]];
  if (chosen === 'extended')
    sections.unshift(['== Parsed Logical Plan ==', ...logicalPlanLines(plan)]);
  return sections.map((lines) => lines.join('\n')).join('\n\n');
}
