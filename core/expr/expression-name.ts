/**
 * The output column name Spark gives an unaliased expression: `category`, `count(1)`, `lower(name)`,
 * `(a + b)`, `window`.
 */
import { type CalendarInterval, intervalText } from '../types/calendar-interval.js';
import type { Expression } from './expression.js';

/** The default output name of an expression. */
export function expressionName(e: Expression): string {
  switch (e.kind) {
    case 'column':
      return e.path[e.path.length - 1];
    case 'literal':
      if (e.value === null) return 'NULL';
      if (Array.isArray(e.value)) return `array(${e.value.map(String).join(', ')})`;
      return e.dataType.kind === 'interval'
        ? `INTERVAL '${intervalText(e.value as CalendarInterval)}'`
        : String(e.value);
    case 'alias':
      return e.name;
    case 'binary':
      return `(${expressionName(e.left)} ${e.op.toUpperCase()} ${expressionName(e.right)})`;
    case 'not':
      return `(NOT ${expressionName(e.child)})`;
    case 'isNull':
      return `(${expressionName(e.child)} IS ${e.negated ? 'NOT ' : ''}NULL)`;
    case 'cast':
      return expressionName(e.child);
    case 'caseWhen':
      return `CASE ${e.branches
        .map((b) => `WHEN ${expressionName(b.when)} THEN ${expressionName(b.then)}`)
        .join(' ')}${e.otherwise ? ` ELSE ${expressionName(e.otherwise)}` : ''} END`;
    case 'call':
      return `${e.name}(${e.args.map(expressionName).join(', ')})`;
    case 'aggregate': {
      // approx_count_distinct's rsd is a parameter of the sketch, not a child, so Spark leaves it out
      const named = e.fn === 'approx_count_distinct' ? e.args.slice(0, 1) : e.args;
      const args = named.length === 0 ? '1' : named.map(expressionName).join(', ');
      return `${e.fn}(${e.distinct ? 'DISTINCT ' : ''}${args})`;
    }
    case 'window':
      return 'window';
    case 'sessionWindow':
      return 'session_window';
    case 'explode':
      return 'col';
  }
}
