/**
 * Expressions as plans print them: by name (expression-name.ts), an alias as `child AS name`, a
 * window with its column and lengths.
 */
import { durationText } from '../types/duration-text.js';
import type { Expression, TimeWindowExpression } from './expression.js';
import { expressionName } from './expression-name.js';

/** `e` as a plan line shows it. */
export function expressionText(e: Expression): string {
  if (e.kind === 'alias') return `${expressionText(e.child)} AS ${e.name}`;
  if (e.kind === 'window') return windowText(e);
  return expressionName(e);
}

/** `window(ts, 10 minutes, 5 minutes)`: the time column, duration, and slide and start when set. */
function windowText(e: TimeWindowExpression): string {
  const args = [expressionName(e.timeColumn), durationText(e.durationMicros)];
  if (e.slideMicros !== e.durationMicros || e.startMicros !== 0)
    args.push(durationText(e.slideMicros));
  if (e.startMicros !== 0) args.push(durationText(e.startMicros));
  return `window(${args.join(', ')})`;
}

/** A list of expressions in brackets: `[a, count(1) AS n]`. */
export function expressionsText(exprs: readonly Expression[]): string {
  return `[${exprs.map(expressionText).join(', ')}]`;
}
