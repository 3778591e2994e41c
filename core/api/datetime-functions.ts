/**
 * The date and time functions of the DataFrame API: to_timestamp, to_date, unix_timestamp,
 * date_trunc, year, month, dayofmonth, hour, minute, second. Each builds a call expression;
 * core/functions/datetime-functions.ts binds and evaluates it, and its module doc states the
 * semantics (Spark's).
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

function call(name: string, args: Expression[]): Column {
  return new Column({ kind: 'call', name, args });
}

function optional(format: string | undefined): Expression[] {
  return format === undefined ? [] : [toLiteral(format)];
}
