/**
 * A session window's gap per row: the static gap, or a dynamic gap read from each row's interval
 * string. As in Spark, a row whose gap is null, not an interval, zero or negative belongs to no
 * session; such a row is dropped from the aggregation (it is not late: no watermark decided it).
 */
import { ExecutionError, InvalidOptionError } from '../errors.js';
import { bindExpression } from '../expr/binder.js';
import type { SessionGap } from '../expr/expression.js';
import type { Scope } from '../expr/scope.js';
import { parseInterval } from '../types/interval.js';
import type { Row } from '../types/row.js';

/** The gap of a row's session in microseconds, or undefined when the row belongs to no session. */
export type GapEvaluator = (row: Row) => number | undefined;

/** Binds `gap` against the aggregation's input. */
export function bindSessionGap(gap: SessionGap, scope: Scope): GapEvaluator {
  if (gap.kind === 'static') return () => gap.micros;
  const text = bindExpression(gap.expression, scope).eval;
  // Rows repeat a handful of gap strings: each is parsed once.
  const parsed = new Map<string, number | undefined>();
  return (row) => {
    const value = text(row) as string | null;
    if (value === null) return undefined;
    let micros = parsed.get(value);
    if (micros === undefined && !parsed.has(value)) {
      micros = dynamicGapMicros(value);
      parsed.set(value, micros);
    }
    return micros;
  };
}

/** A dynamic gap's microseconds; undefined when it gives the row no session. */
function dynamicGapMicros(text: string): number | undefined {
  let interval;
  try {
    interval = parseInterval(text, 'session_window gap');
  } catch (e) {
    // Spark casts the text to an interval, and text that is none casts to null (non-ANSI).
    if (e instanceof InvalidOptionError) return undefined;
    throw e;
  }
  if (interval.months !== 0) {
    throw new ExecutionError(
      `A row's session_window gap '${text}' has months or years, which have no fixed length; give the gap in weeks, days or smaller units, e.g. '30 days'.`,
    );
  }
  return interval.micros > 0 ? interval.micros : undefined;
}
