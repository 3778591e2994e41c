/**
 * The core column functions: column references, literals, conditionals, aggregates, event-time
 * windows and explode. Families of scalar functions (string, math, datetime, JSON) live in
 * `core/functions/` and are exported alongside these from `core/index.ts`.
 */
import { InvalidOptionError } from '../errors.js';
import type { AggregateFunctionName, Expression, SessionGap } from '../expr/expression.js';
import { parseDuration, parseFixedInterval } from '../types/duration.js';
import { Column, type ColumnLike, columnOrName, columnRef, toExpr } from './column.js';
import { calendarInterval, IntervalType } from '../types/calendar-interval.js';
import { toLiteral } from './literal.js';

/** A column by name; `'a.b'` reaches into a struct, `'*'` and `'s.*'` expand in select. */
export function col(name: string): Column {
  return new Column(columnRef(name));
}

/** A literal value. */
export function lit(value: string | number | boolean | null | Date | Uint8Array): Column {
  return new Column(toLiteral(value));
}

/**
 * An interval literal (Spark's calendar interval: months, days, microseconds), read as Spark reads
 * interval strings: `interval('1 hour')`, `interval('1 month 2 days')`,
 * `interval("INTERVAL '1 10:30' DAY TO MINUTE")`. Add it to or subtract it from a timestamp:
 * `col('impressionTime').plus(interval('1 hour'))`.
 */
export function interval(text: string): Column {
  return new Column({ kind: 'literal', value: calendarInterval(text), dataType: IntervalType });
}

/** Starts a `CASE WHEN` chain: `when(cond, value).when(...).otherwise(...)`. */
export function when(condition: Column, value: ColumnLike): Column {
  return new Column({
    kind: 'caseWhen',
    branches: [{ when: condition.expr, then: toExpr(value) }],
  });
}

/** The first non-null argument. */
export function coalesce(...columns: (Column | string)[]): Column {
  if (columns.length === 0) throw new InvalidOptionError('coalesce() needs at least one column.');
  return new Column({ kind: 'call', name: 'coalesce', args: columns.map(columnOrName) });
}

/**
 * The processing time of the current batch: the same for every row of a batch, and the same again when
 * a batch re-runs after a crash (it is recorded in the batch's intent).
 */
export function current_timestamp(): Column {
  return new Column({ kind: 'call', name: 'current_timestamp', args: [] });
}

/** `NOT c`. */
export function not(c: Column): Column {
  return c.not();
}

/** `count(*)` without an argument (or with `'*'`); `count(col)` counts non-null values. */
export function count(c?: Column | string): Column {
  if (c === undefined || c === '*') return aggregate('count', []);
  return aggregate('count', [columnOrName(c)]);
}

/** The number of distinct non-null values (of one or several columns together). */
export function countDistinct(...columns: (Column | string)[]): Column {
  return aggregate('count', columns.map(columnOrName), true);
}

/** The sum of non-null values; null when there are none. */
export function sum(c: Column | string): Column {
  return aggregate('sum', [columnOrName(c)]);
}

/** The mean of non-null values, a double; null when there are none. */
export function avg(c: Column | string): Column {
  return aggregate('avg', [columnOrName(c)]);
}

/** The smallest non-null value. */
export function min(c: Column | string): Column {
  return aggregate('min', [columnOrName(c)]);
}

/** The largest non-null value. */
export function max(c: Column | string): Column {
  return aggregate('max', [columnOrName(c)]);
}

/** The first value seen in each group (in input order; nulls included unless `ignoreNulls`). */
export function first(c: Column | string, ignoreNulls = false): Column {
  return aggregate('first', [columnOrName(c)], false, ignoreNulls);
}

/** The last value seen in each group (in input order; nulls included unless `ignoreNulls`). */
export function last(c: Column | string, ignoreNulls = false): Column {
  return aggregate('last', [columnOrName(c)], false, ignoreNulls);
}

/** The non-null values of each group as an array, in input order. */
export function collect_list(c: Column | string): Column {
  return aggregate('collect_list', [columnOrName(c)]);
}

function aggregate(
  fn: AggregateFunctionName,
  args: Expression[],
  distinct = false,
  ignoreNulls = false,
): Column {
  return new Column(
    ignoreNulls
      ? { kind: 'aggregate', fn, args, distinct, ignoreNulls }
      : { kind: 'aggregate', fn, args, distinct },
  );
}

/**
 * Event-time windows over a timestamp column, with Spark's boundaries: `window(col('ts'), '10 minutes')`
 * is a tumbling window; with a `slide` it is sliding; `startTime` shifts the boundaries (either sign,
 * shorter than the slide). Durations are interval strings without months or years, as in Spark
 * ('10 minutes', "INTERVAL '1:30' HOUR TO MINUTE").
 * The column it produces is `struct<start: timestamp, end: timestamp>`.
 */
export function window(
  timeColumn: Column | string,
  windowDuration: string,
  slideDuration?: string,
  startTime?: string,
): Column {
  const durationMicros = parseDuration(windowDuration, 'window duration');
  const slideMicros = slideDuration ? parseDuration(slideDuration, 'window slide') : durationMicros;
  if (slideMicros > durationMicros) {
    throw new InvalidOptionError(
      `window slide '${slideDuration}' is longer than the window duration '${windowDuration}'; rows would fall in no window.`,
    );
  }
  // Spark takes a start of either sign whose absolute value is less than the slide: '-2 minutes'
  // with a 5-minute slide gives the same boundaries as '3 minutes'.
  const startMicros = startTime ? parseFixedInterval(startTime, 'window startTime') : 0;
  if (Math.abs(startMicros) >= slideMicros) {
    throw new InvalidOptionError(
      `window startTime '${startTime}' must be shorter than the slide '${slideDuration ?? windowDuration}' (its absolute value, when negative).`,
    );
  }
  return new Column({
    kind: 'window',
    timeColumn: columnOrName(timeColumn),
    durationMicros,
    slideMicros,
    startMicros,
  });
}

/**
 * The event time of a window column (made by `window()`): its end minus one microsecond, a
 * timestamp that keeps the window's watermark, as Spark's `window_time`. Windowing again by it
 * aggregates windowed results in a stream: `groupBy(window(window_time('window'), '1 hour'))`.
 */
export function window_time(windowColumn: Column | string): Column {
  return new Column({ kind: 'call', name: 'window_time', args: [columnOrName(windowColumn)] });
}

/**
 * Session windows over a timestamp column, as Spark's `session_window`: each row opens the session
 * [time, time + gap), and the sessions of a group that overlap or touch merge into one, from its
 * first event to its last plus the gap. `gapDuration` is an interval string without months or years
 * ('5 minutes'), or a Column giving each row's gap as an interval string (Spark's dynamic gap); a row
 * whose gap is null, not an interval, zero or negative belongs to no session and is dropped, as is a
 * row whose time is null. The column it produces is `session_window`, a
 * `struct<start: timestamp, end: timestamp>`; it is valid only as a grouping key of
 * `groupBy(...).agg(...)`, at most one per aggregation.
 */
export function session_window(timeColumn: Column | string, gapDuration: string | Column): Column {
  const gap: SessionGap =
    typeof gapDuration === 'string'
      ? { kind: 'static', micros: parseDuration(gapDuration, 'session_window gap') }
      : { kind: 'dynamic', expression: gapDuration.expr };
  return new Column({ kind: 'sessionWindow', timeColumn: columnOrName(timeColumn), gap });
}

/** One output row per element of an array (column `col`) or per entry of a map (`key`, `value`); rows with an empty or null collection vanish. */
export function explode(c: Column | string): Column {
  return new Column({ kind: 'explode', child: columnOrName(c), outer: false });
}

/** Like `explode`, but a null or empty collection gives one row with nulls. */
export function explode_outer(c: Column | string): Column {
  return new Column({ kind: 'explode', child: columnOrName(c), outer: true });
}
