/**
 * A sliding window that a select cannot expand itself, as Spark's windowing handles it: inside an
 * expression (`window(...).getField('start')`), next to an `explode`, or selected twice. A select
 * below expands each row into one row per window, in a column that the select then reads instead
 * of the window. A select whose only generator is the window, as a whole column, expands it itself.
 */
import { AnalysisError } from '../errors.js';
import { childrenOf, type Expression, replaceExpressions } from '../expr/expression.js';
import type { TimeWindowExpression } from '../expr/expression.js';
import { expressionName } from '../expr/expression-name.js';
import { isTumbling } from '../expr/time-window.js';

/** The name of the column with each row's window, between the two selects. */
export const EXPANDED_WINDOW_COLUMN = '__window';

/**
 * The sliding window a select needs expanded below it, or undefined when it has none or can expand
 * it itself. Refuses two different sliding windows: together they would multiply rows (Spark too).
 */
export function slidingWindowToExpand(
  exprs: readonly Expression[],
): TimeWindowExpression | undefined {
  const windows = new Map<string, TimeWindowExpression>();
  for (const w of exprs.flatMap(slidingWindowsIn)) windows.set(JSON.stringify(w), w);
  if (windows.size > 1) {
    throw new AnalysisError(
      `A select has ${windows.size} different sliding windows; together they would give the cartesian product of their windows per row, which is not supported (as in Spark). Select them in separate DataFrames.`,
    );
  }
  const [window] = windows.values();
  if (!window) return undefined;
  const key = JSON.stringify(window);
  const whole = exprs.filter((e) => JSON.stringify(unalias(e)) === key).length;
  const inside = exprs.filter((e) => slidingWindowsIn(e).length > 0).length;
  const explodes = exprs.some((e) => unalias(e).kind === 'explode');
  return whole === 1 && inside === 1 && !explodes ? undefined : window;
}

/**
 * `exprs` reading the expanded window column instead of `window`; each select column keeps its
 * name.
 */
export function readingExpandedWindow(
  exprs: readonly Expression[],
  window: TimeWindowExpression,
): Expression[] {
  const key = JSON.stringify(window);
  const column: Expression = { kind: 'column', path: [EXPANDED_WINDOW_COLUMN] };
  return exprs.map((e) => {
    const replaced = replaceExpressions(e, (x) => (JSON.stringify(x) === key ? column : undefined));
    if (replaced === e || e.kind === 'alias') return replaced;
    return { kind: 'alias', name: expressionName(e), child: replaced };
  });
}

function slidingWindowsIn(e: Expression): TimeWindowExpression[] {
  const nested = childrenOf(e).flatMap(slidingWindowsIn);
  return e.kind === 'window' && !isTumbling(e) ? [e, ...nested] : nested;
}

function unalias(e: Expression): Expression {
  return e.kind === 'alias' ? e.child : e;
}
