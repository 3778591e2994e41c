/**
 * The date and time functions of the reference: core/functions/datetime-functions.ts,
 * date-arithmetic-functions.ts and window-functions.ts, and the event-time windows SQL builds.
 */
import { type FunctionDocs, NULL_IN_NULL_OUT } from './function-doc.js';

const UNPARSED = 'Null when an argument is null or the text does not match the format.';

/** Date and time functions. */
export const DATETIME_FUNCTIONS: FunctionDocs = {
  to_timestamp: {
    signatures: ['to_timestamp(str STRING[, format STRING]) → TIMESTAMP'],
    column: 'to_timestamp',
    does: 'The text read as a timestamp, by the format (a constant) or, without one, as Spark casts text.',
    nulls: UNPARSED,
    example: {
      sql: "to_timestamp('02/01/2026 03:04', 'dd/MM/yyyy HH:mm')",
      result: '2026-01-02 03:04:00',
    },
  },
  to_date: {
    signatures: ['to_date(str STRING[, format STRING]) → DATE'],
    column: 'to_date',
    does: 'The text read as a date, by the format (a constant) or, without one, as Spark casts text; a timestamp gives its date.',
    nulls: UNPARSED,
    example: { sql: "to_date('02/01/2026', 'dd/MM/yyyy')", result: '2026-01-02' },
  },
  unix_timestamp: {
    signatures: ['unix_timestamp(time STRING | TIMESTAMP | DATE[, format STRING]) → BIGINT'],
    column: 'unix_timestamp',
    does: 'Seconds since the epoch; text is read by the format (default `yyyy-MM-dd HH:mm:ss`).',
    nulls: UNPARSED,
    example: { sql: "unix_timestamp('2026-01-01 00:00:00')", result: '1767225600' },
  },
  date_trunc: {
    signatures: ['date_trunc(unit STRING, ts TIMESTAMP) → TIMESTAMP'],
    column: 'date_trunc',
    does: 'The timestamp truncated to the unit (a constant: YEAR, QUARTER, MONTH, WEEK, DAY, HOUR, MINUTE, SECOND, ...).',
    nulls: NULL_IN_NULL_OUT,
    example: {
      sql: "date_trunc('HOUR', TIMESTAMP '2026-01-02 03:04:05')",
      result: '2026-01-02 03:00:00',
    },
  },
  year: {
    signatures: ['year(date DATE | TIMESTAMP) → INT'],
    column: 'year',
    does: 'The year.',
    nulls: NULL_IN_NULL_OUT,
    example: { sql: "year(DATE '2026-03-04')", result: '2026' },
  },
  month: {
    signatures: ['month(date DATE | TIMESTAMP) → INT'],
    column: 'month',
    does: 'The month, 1 to 12.',
    nulls: NULL_IN_NULL_OUT,
    example: { sql: "month(DATE '2026-03-04')", result: '3' },
  },
  dayofmonth: {
    aliases: ['day'],
    signatures: ['dayofmonth(date DATE | TIMESTAMP) → INT'],
    column: 'dayofmonth',
    does: 'The day of the month, 1 to 31.',
    nulls: NULL_IN_NULL_OUT,
    example: { sql: "dayofmonth(DATE '2026-03-04')", result: '4' },
  },
  hour: {
    signatures: ['hour(ts TIMESTAMP) → INT'],
    column: 'hour',
    does: 'The hour, 0 to 23.',
    nulls: NULL_IN_NULL_OUT,
    example: { sql: "hour(TIMESTAMP '2026-01-02 03:04:05')", result: '3' },
  },
  minute: {
    signatures: ['minute(ts TIMESTAMP) → INT'],
    column: 'minute',
    does: 'The minute, 0 to 59.',
    nulls: NULL_IN_NULL_OUT,
    example: { sql: "minute(TIMESTAMP '2026-01-02 03:04:05')", result: '4' },
  },
  second: {
    signatures: ['second(ts TIMESTAMP) → INT'],
    column: 'second',
    does: 'The second, 0 to 59 (without its fraction).',
    nulls: NULL_IN_NULL_OUT,
    example: { sql: "second(TIMESTAMP '2026-01-02 03:04:05.9')", result: '5' },
  },
  date_format: {
    signatures: ['date_format(ts TIMESTAMP | DATE | STRING, format STRING) → STRING'],
    column: 'date_format',
    does: 'The timestamp as text in the format (a constant).',
    nulls: NULL_IN_NULL_OUT,
    example: {
      sql: "date_format(TIMESTAMP '2026-01-02 03:04:05', 'yyyy/MM/dd HH:mm')",
      result: '2026/01/02 03:04',
    },
  },
  date_add: {
    signatures: ['date_add(start DATE, days INT) → DATE'],
    column: 'date_add',
    does: 'The date `days` days after `start`.',
    nulls: NULL_IN_NULL_OUT,
    example: { sql: "date_add(DATE '2026-01-30', 3)", result: '2026-02-02' },
  },
  date_sub: {
    signatures: ['date_sub(start DATE, days INT) → DATE'],
    column: 'date_sub',
    does: 'The date `days` days before `start`.',
    nulls: NULL_IN_NULL_OUT,
    example: { sql: "date_sub(DATE '2026-03-01', 1)", result: '2026-02-28' },
  },
  datediff: {
    signatures: ['datediff(end DATE, start DATE) → INT'],
    column: 'datediff',
    does: 'The number of days from `start` to `end`.',
    nulls: NULL_IN_NULL_OUT,
    example: { sql: "datediff(DATE '2026-03-01', DATE '2026-02-01')", result: '28' },
  },
  add_months: {
    signatures: ['add_months(start DATE, months INT) → DATE'],
    column: 'add_months',
    does: 'The date `months` months after `start`, its day clamped to the end of the month.',
    nulls: NULL_IN_NULL_OUT,
    example: { sql: "add_months(DATE '2026-01-31', 1)", result: '2026-02-28' },
  },
  months_between: {
    signatures: ['months_between(end TIMESTAMP, start TIMESTAMP[, roundOff BOOLEAN]) → DOUBLE'],
    column: 'months_between',
    does: 'The months from `start` to `end`: whole when the days of month match or both are month ends, else counting the rest in 31-day months, rounded to 8 digits unless `roundOff` is false.',
    nulls: NULL_IN_NULL_OUT,
    example: {
      sql: "months_between(TIMESTAMP '1997-02-28 10:30:00', TIMESTAMP '1996-10-30')",
      result: '3.94959677',
    },
  },
  from_unixtime: {
    signatures: ['from_unixtime(seconds BIGINT[, format STRING]) → STRING'],
    column: 'from_unixtime',
    does: 'Seconds since the epoch as text in the format (default `yyyy-MM-dd HH:mm:ss`).',
    nulls: NULL_IN_NULL_OUT,
    example: { sql: 'from_unixtime(86400)', result: '1970-01-02 00:00:00' },
  },
  unix_millis: {
    signatures: ['unix_millis(ts TIMESTAMP) → BIGINT'],
    column: 'unix_millis',
    does: 'Milliseconds since the epoch (rounded down).',
    nulls: NULL_IN_NULL_OUT,
    example: { sql: "unix_millis(TIMESTAMP '1970-01-01 00:00:01.5')", result: '1500' },
  },
  date_part: {
    aliases: ['datepart'],
    signatures: [
      'date_part(field STRING, source DATE | TIMESTAMP | INTERVAL) → INT | DOUBLE',
      'EXTRACT(field FROM source)',
    ],
    column: 'date_part',
    does: 'A field (a constant: YEAR, QUARTER, MONTH, WEEK, DAY, DAYOFWEEK, DAYOFWEEK_ISO, DOY, HOUR, MINUTE, SECOND and their abbreviations); SECOND keeps its fraction.',
    nulls: NULL_IN_NULL_OUT,
    example: { sql: "date_part('DOY', DATE '2026-02-01')", result: '32' },
  },
  current_date: {
    signatures: ['current_date() → DATE', 'CURRENT_DATE'],
    column: 'current_date',
    does: "The date of the batch's processing time: the same for every row of a batch, and again when the batch re-runs.",
    nulls: 'Never null.',
    example: { sql: 'datediff(current_date(), current_date)', result: '0' },
  },
  current_timestamp: {
    aliases: ['now'],
    signatures: ['current_timestamp() → TIMESTAMP', 'CURRENT_TIMESTAMP'],
    column: 'current_timestamp',
    does: "The batch's processing time: the same for every row of a batch, and again when the batch re-runs.",
    nulls: 'Never null.',
    example: { sql: 'current_timestamp() = now()', result: 'true' },
  },
  window: {
    signatures: [
      'window(time TIMESTAMP, duration STRING[, slide STRING[, startTime STRING]]) → STRUCT<start: TIMESTAMP, end: TIMESTAMP>',
    ],
    column: 'window',
    does: 'The event-time window (tumbling, or sliding with a slide) holding the time; durations are constants, as strings or INTERVAL literals.',
    nulls: 'A null time belongs to no window.',
    example: {
      sql: "window(TIMESTAMP '2026-01-01 10:07:00', '5 minutes')",
      result: '{2026-01-01 10:05:00, 2026-01-01 10:10:00}',
    },
  },
  session_window: {
    signatures: [
      'session_window(time TIMESTAMP, gap STRING | expression) → STRUCT<start: TIMESTAMP, end: TIMESTAMP>',
    ],
    column: 'session_window',
    does: 'The session holding the time: events of a group closer than the gap merge into one session; a grouping key only.',
    nulls: 'A row whose time is null, or whose gap is null or not positive, is dropped.',
    example: {
      sql: "SELECT session_window, count(*) FROM t GROUP BY session_window(TIMESTAMP '2026-01-01 10:00:00', '5 minutes')",
      result: '{2026-01-01 10:00:00, 2026-01-01 10:05:00}, 5',
    },
  },
  window_time: {
    signatures: ['window_time(window STRUCT<start: TIMESTAMP, end: TIMESTAMP>) → TIMESTAMP'],
    column: 'window_time',
    does: "The window's event time, its end minus a microsecond; it keeps the window's watermark.",
    nulls: NULL_IN_NULL_OUT,
    example: {
      sql: "window_time(window(TIMESTAMP '2026-01-01 10:07:00', '5 minutes'))",
      result: '2026-01-01 10:09:59.999999',
    },
  },
};
