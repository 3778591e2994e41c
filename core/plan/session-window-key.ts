/**
 * The session window of an aggregation: `groupBy(session_window(ts, gap), ...)`. Spark allows at
 * most one per aggregation and none next to a `window()`, since together they would multiply each
 * row into every combination of its windows; the session window's time must be a timestamp and a
 * dynamic gap an interval string.
 */
import { AnalysisError } from '../errors.js';
import { bindExpression } from '../expr/binder.js';
import type { Expression, SessionWindowExpression } from '../expr/expression.js';
import type { Scope } from '../expr/scope.js';
import { windowStructType } from '../expr/time-window.js';
import { expressionName } from '../expr/expression-name.js';
import { field, type StructField, typeName } from '../types/data-types.js';

/** A grouping key that is a session window: where it is among the keys, and the window. */
export interface SessionWindowKey {
  readonly index: number;
  readonly window: SessionWindowExpression;
}

/** The session window among `groupBy`, if any; refuses two of them, or one beside a `window()`. */
export function sessionWindowKey(groupBy: readonly Expression[]): SessionWindowKey | undefined {
  const keys = groupBy.map((e, index) => ({ index, inner: e.kind === 'alias' ? e.child : e }));
  const sessions = keys.filter((k) => k.inner.kind === 'sessionWindow');
  if (sessions.length === 0) return undefined;
  if (sessions.length > 1) {
    throw new AnalysisError(
      `An aggregation may group by at most one session_window(), as in Spark; got ${sessions.length}. Aggregate the sessions of each in a DataFrame of its own.`,
    );
  }
  if (keys.some((k) => k.inner.kind === 'window')) {
    throw new AnalysisError(
      'An aggregation cannot group by both session_window() and window(), as in Spark: each row would be counted in every combination of its windows. Group by one of them.',
    );
  }
  const [{ index, inner }] = sessions;
  return { index, window: inner as SessionWindowExpression };
}

/**
 * The output field of session window key `e` (the window or its alias): a window struct that
 * carries its time column's event-time metadata, so a watermark on the time closes sessions.
 */
export function sessionWindowField(
  e: Expression,
  window: SessionWindowExpression,
  scope: Scope,
): StructField {
  const time = bindExpression(window.timeColumn, scope);
  if (time.dataType.kind !== 'timestamp') {
    throw new AnalysisError(
      `session_window() needs a timestamp column, got ${typeName(time.dataType)} from '${expressionName(window.timeColumn)}'; convert it with to_timestamp first.`,
    );
  }
  if (window.gap.kind === 'dynamic') {
    const gap = bindExpression(window.gap.expression, scope);
    if (gap.dataType.kind !== 'string' && gap.dataType.kind !== 'null') {
      throw new AnalysisError(
        `session_window() takes a dynamic gap as an interval string per row (e.g. '5 minutes'), got ${typeName(gap.dataType)} from '${expressionName(window.gap.expression)}'; cast or format it as a string.`,
      );
    }
  }
  return field(expressionName(e), windowStructType(time.metadata), true, time.metadata);
}
