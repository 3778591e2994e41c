/**
 * Date and time functions: to_timestamp, to_date, unix_timestamp, date_trunc, and the field
 * extractors year, month, dayofmonth, hour, minute, second. A null argument gives null.
 *
 * The session time zone is UTC. Text that does not match its format gives null rather than
 * failing, so one bad record cannot stop a stream; a bad format or unit is an AnalysisError.
 * Formats use Spark's datetime pattern letters (see core/types/datetime-pattern.ts).
 *
 * These are the binders; the DataFrame API builds the calls in core/api/datetime-functions.ts.
 */
import { AnalysisError } from '../errors.js';
import { coerce } from '../expr/binary-operators.js';
import type { BoundExpression } from '../expr/bound-expression.js';
import type { FunctionCall } from '../expr/expression.js';
import {
  type AtomicType,
  DateType,
  IntegerType,
  LongType,
  TimestampType,
} from '../types/data-types.js';
import { civilFromDays, daysFromCivil, epochDay, floorMod } from '../types/calendar.js';
import { compileDateTimePattern } from '../types/datetime-pattern.js';
import { MICROS } from '../types/timestamp-text.js';
import { argumentAs, constantString, requireArity } from './function-arguments.js';
import type { FunctionTable } from '../expr/function-table.js';
import { nullIntolerant } from './function-registry.js';

/** unix_timestamp's format when none is given, as in Spark. */
const DEFAULT_FORMAT = 'yyyy-MM-dd HH:mm:ss';

/** Binders of the date and time functions. */
export const datetimeFunctions: FunctionTable = {
  to_timestamp: (args, call) => bindParse('to_timestamp', args, call),
  to_date: (args, call) => coerce(bindParse('to_date', args, call), DateType),
  unix_timestamp: (args, call) => {
    const timestamp = bindParse('unix_timestamp', args, call, DEFAULT_FORMAT);
    return {
      dataType: LongType,
      nullable: true,
      eval: nullIntolerant([timestamp], (v) => epochSecond(v as number)),
    };
  },
  date_trunc: bindDateTrunc,
  year: (args) => extract('year', args, DateType, (days) => civilFromDays(days).year),
  month: (args) => extract('month', args, DateType, (days) => civilFromDays(days).month),
  dayofmonth: (args) => extract('dayofmonth', args, DateType, (days) => civilFromDays(days).day),
  hour: (args) =>
    extract('hour', args, TimestampType, (t) => timeField(t, MICROS.day, MICROS.hour)),
  minute: (args) =>
    extract('minute', args, TimestampType, (t) => timeField(t, MICROS.hour, MICROS.minute)),
  second: (args) =>
    extract('second', args, TimestampType, (t) => timeField(t, MICROS.minute, MICROS.second)),
};

/**
 * A timestamp from argument 0: strings are parsed with the format of argument 1 (or
 * `defaultFormat`; with neither, read as a cast reads them); dates and timestamps are converted.
 */
function bindParse(
  name: string,
  args: readonly BoundExpression[],
  call: FunctionCall,
  defaultFormat?: string,
): BoundExpression {
  requireArity(name, args, 1, 2);
  const format = args.length === 2 ? constantString(name, call, 1, 'format') : defaultFormat;
  const value = args[0];
  if (format === undefined || value.dataType.kind !== 'string') {
    return argumentAs(name, args, 0, TimestampType);
  }
  const parse = compileDateTimePattern(format, `${name}()`);
  return {
    dataType: TimestampType,
    nullable: true,
    eval: nullIntolerant([value], (s) => parse(s as string)),
  };
}

function epochSecond(micros: number): number {
  return (micros - floorMod(micros, MICROS.second)) / MICROS.second;
}

/** `unit`-sized field of a timestamp within the enclosing `period` (hour within day, ...). */
function timeField(micros: number, period: number, unit: number): number {
  return Math.floor(floorMod(micros, period) / unit);
}

function extract(
  name: string,
  args: readonly BoundExpression[],
  from: AtomicType,
  fn: (value: number) => number,
): BoundExpression {
  requireArity(name, args, 1);
  const value = argumentAs(name, args, 0, from);
  return {
    dataType: IntegerType,
    nullable: value.nullable,
    eval: nullIntolerant([value], (v) => fn(v as number)),
  };
}

/** Each truncation unit (and Spark's aliases) with the start of the unit containing a timestamp. */
const TRUNCATIONS: ReadonlyMap<string, (micros: number) => number> = new Map([
  ['year', startOfMonth(() => 1)],
  ['yyyy', startOfMonth(() => 1)],
  ['yy', startOfMonth(() => 1)],
  ['quarter', startOfMonth((m) => m - ((m - 1) % 3))],
  ['month', startOfMonth((m) => m)],
  ['mm', startOfMonth((m) => m)],
  ['mon', startOfMonth((m) => m)],
  ['week', startOfWeek],
  ['day', startOf(MICROS.day)],
  ['dd', startOf(MICROS.day)],
  ['hour', startOf(MICROS.hour)],
  ['minute', startOf(MICROS.minute)],
  ['second', startOf(MICROS.second)],
  ['millisecond', startOf(MICROS.millisecond)],
  ['microsecond', (t: number) => t],
]);

function startOfWeek(micros: number): number {
  const day = epochDay(micros);
  // 1970-01-01 was a Thursday, three days after a Monday.
  return (day - floorMod(day + 3, 7)) * MICROS.day;
}

function startOf(unit: number): (micros: number) => number {
  return (t) => t - floorMod(t, unit);
}

/** The first day of the month `firstMonth` picks from the timestamp's month, in its year. */
function startOfMonth(firstMonth: (month: number) => number): (micros: number) => number {
  return (t) => {
    const date = civilFromDays(epochDay(t));
    return daysFromCivil(date.year, firstMonth(date.month), 1) * MICROS.day;
  };
}

function bindDateTrunc(args: readonly BoundExpression[], call: FunctionCall): BoundExpression {
  requireArity('date_trunc', args, 2);
  const unit = constantString('date_trunc', call, 0, 'unit');
  const truncate = TRUNCATIONS.get(unit.toLowerCase());
  if (!truncate) {
    throw new AnalysisError(
      `date_trunc() does not know the unit '${unit}'; use one of: ${[...TRUNCATIONS.keys()].join(', ')}.`,
    );
  }
  const timestamp = argumentAs('date_trunc', args, 1, TimestampType);
  return {
    dataType: TimestampType,
    nullable: timestamp.nullable,
    eval: nullIntolerant([timestamp], (t) => truncate(t as number)),
  };
}
