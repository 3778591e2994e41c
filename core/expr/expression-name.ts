/**
 * The output column name Spark gives an unaliased expression: `category`, `count(1)`, `lower(name)`,
 * `(a + b)`, `window`.
 */
import { type CalendarInterval, intervalText } from '../types/calendar-interval.js';
import type { Expression, WindowSpec } from './expression.js';

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
    case 'windowFunction': {
      const fn =
        e.fn.kind === 'aggregate'
          ? expressionName(e.fn)
          : `${e.fn.name}(${e.fn.args.map(expressionName).join(', ')})`;
      return `${fn} OVER (${windowSpecText(e.spec)})`;
    }
  }
}

/** A window's PARTITION BY, ORDER BY and (when given) frame, as Spark writes them. */
export function windowSpecText(spec: WindowSpec): string {
  const parts: string[] = [];
  if (spec.partitionBy.length > 0) {
    parts.push(`PARTITION BY ${spec.partitionBy.map(expressionName).join(', ')}`);
  }
  if (spec.orderBy.length > 0) {
    const keys = spec.orderBy.map(
      (o) =>
        `${expressionName(o.expr)} ${o.ascending ? 'ASC' : 'DESC'} NULLS ${o.nullsFirst ? 'FIRST' : 'LAST'}`,
    );
    parts.push(`ORDER BY ${keys.join(', ')}`);
  }
  if (spec.frame) {
    const { type, start, end } = spec.frame;
    parts.push(`${type.toUpperCase()} BETWEEN ${boundText(start)} AND ${boundText(end)}`);
  }
  return parts.join(' ');
}

function boundText(bound: number): string {
  if (bound === 0) return 'CURRENT ROW';
  if (!Number.isFinite(bound)) return bound < 0 ? 'UNBOUNDED PRECEDING' : 'UNBOUNDED FOLLOWING';
  return bound < 0 ? `${-bound} PRECEDING` : `${bound} FOLLOWING`;
}
