/**
 * The date and time functions of the DataFrame API: to_timestamp, to_date, unix_timestamp,
 * date_trunc, year, month, dayofmonth, hour, minute, second, date_format, date_add, date_sub,
 * datediff, add_months, months_between, current_date, from_unixtime, unix_millis, date_part. Each
 * builds a call expression; core/functions/datetime-functions.ts and date-arithmetic-functions.ts
 * bind and evaluate them, and their module docs state the semantics (Spark's).
 */
import type { Expression } from '../expr/expression.js';
import { Column, columnOrName } from './column.js';
import { toLiteral } from './literal.js';

/**
 * Parses a string into a timestamp with a datetime pattern (`'dd/MM/yyyy HH:mm'`); without one,
 * reads it as a cast does (`2024-01-15 10:30:00`, `2024-01-15T10:30:00Z`, ...). Text that does not
 * match gives null. Dates and timestamps are converted, not parsed.
 */
export function to_timestamp(c: Column | string, format?: string): Column {
  return call('to_timestamp', [columnOrName(c), ...optional(format)]);
}

/** Like `to_timestamp`, then keeps the (UTC) date. */
export function to_date(c: Column | string, format?: string): Column {
  return call('to_date', [columnOrName(c), ...optional(format)]);
}

/**
 * Seconds since the epoch, a long: of a timestamp or date, or of a string parsed with `format`
 * (default `'yyyy-MM-dd HH:mm:ss'`; text that does not match gives null).
 */
export function unix_timestamp(c: Column | string, format?: string): Column {
  return call('unix_timestamp', [columnOrName(c), ...optional(format)]);
}

/**
 * Truncates a timestamp to the start of its `unit`: `'year'`, `'quarter'`, `'month'`, `'week'`
 * (starting Monday), `'day'`, `'hour'`, `'minute'`, `'second'`, `'millisecond'` or
 * `'microsecond'` (also Spark's aliases `'yyyy'`, `'yy'`, `'mm'`, `'mon'`, `'dd'`), case-insensitive.
 */
export function date_trunc(unit: string, timestamp: Column | string): Column {
  return call('date_trunc', [toLiteral(unit), columnOrName(timestamp)]);
}

/** The year of a date or timestamp, an int. */
export function year(c: Column | string): Column {
  return call('year', [columnOrName(c)]);
}

/** The month (1-12) of a date or timestamp, an int. */
export function month(c: Column | string): Column {
  return call('month', [columnOrName(c)]);
}

/** The day of the month (1-31) of a date or timestamp, an int. */
export function dayofmonth(c: Column | string): Column {
  return call('dayofmonth', [columnOrName(c)]);
}

/** The hour (0-23, UTC) of a timestamp, an int. */
export function hour(c: Column | string): Column {
  return call('hour', [columnOrName(c)]);
}

/** The minute (0-59) of a timestamp, an int. */
export function minute(c: Column | string): Column {
  return call('minute', [columnOrName(c)]);
}

/** The second (0-59, without the fraction) of a timestamp, an int. */
export function second(c: Column | string): Column {
  return call('second', [columnOrName(c)]);
}

/** A timestamp (or date) as text in a datetime pattern: `date_format('ts', 'yyyy-MM-dd HH:mm')`. */
export function date_format(c: Column | string, format: string): Column {
  return call('date_format', [columnOrName(c), toLiteral(format)]);
}

/** The date `days` days after a date (or a timestamp's date). */
export function date_add(start: Column | string, days: number | Column): Column {
  return call('date_add', [columnOrName(start), numberOrColumn(days)]);
}

/** The date `days` days before a date (or a timestamp's date). */
export function date_sub(start: Column | string, days: number | Column): Column {
  return call('date_sub', [columnOrName(start), numberOrColumn(days)]);
}

/** The number of days from `start` to `end`, an int. */
export function datediff(end: Column | string, start: Column | string): Column {
  return call('datediff', [columnOrName(end), columnOrName(start)]);
}

/** The date `months` months after a date, its day clamped to the end of the target month. */
export function add_months(start: Column | string, months: number | Column): Column {
  return call('add_months', [columnOrName(start), numberOrColumn(months)]);
}

/**
 * The months from `start` to `end`, a double: whole when the days of month match (or both are
 * month ends), else with the rest in 31-day months, rounded to 8 digits unless `roundOff` is false.
 */
export function months_between(
  end: Column | string,
  start: Column | string,
  roundOff = true,
): Column {
  return call('months_between', [columnOrName(end), columnOrName(start), toLiteral(roundOff)]);
}

/** The date (UTC) of the current batch's processing time, the same for every row of a batch. */
export function current_date(): Column {
  return call('current_date', []);
}

/** Seconds since the epoch as text in a datetime pattern (default `'yyyy-MM-dd HH:mm:ss'`). */
export function from_unixtime(c: Column | string, format?: string): Column {
  return call('from_unixtime', [columnOrName(c), ...optional(format)]);
}

/** Milliseconds since the epoch of a timestamp, a long (rounded towards the past). */
export function unix_millis(c: Column | string): Column {
  return call('unix_millis', [columnOrName(c)]);
}

/**
 * A field of a date or timestamp, as SQL's `EXTRACT(field FROM source)`: `'YEAR'`, `'QUARTER'`,
 * `'MONTH'`, `'WEEK'`, `'DAY'`, `'DAYOFWEEK'`, `'DAYOFWEEK_ISO'`, `'DOY'`, `'HOUR'`, `'MINUTE'` (ints)
 * or `'SECOND'` (a double with the fraction), case-insensitive.
 */
export function date_part(field: string, source: Column | string): Column {
  return call('date_part', [toLiteral(field), columnOrName(source)]);
}

function numberOrColumn(value: number | Column): Expression {
  return typeof value === 'number' ? toLiteral(value) : value.expr;
}

function call(name: string, args: Expression[]): Column {
  return new Column({ kind: 'call', name, args });
}

function optional(format: string | undefined): Expression[] {
  return format === undefined ? [] : [toLiteral(format)];
}
