/**
 * Date arithmetic and conversions: date_add, date_sub, datediff, add_months, months_between,
 * date_format, from_unixtime, unix_millis and date_part (SQL's EXTRACT). A null argument gives null.
 *
 * As in Spark (session time zone UTC): timestamps and date text passed where a date is expected are
 * read as their date; `add_months` clamps the day to the end of the target month (Jan 31 + 1 month is
 * Feb 28/29); `months_between(end, start)` is a whole number when both days of month are equal or both
 * are the last of their month, otherwise it counts the rest in 31-day months, rounded to 8 digits
 * unless `roundOff` is false. `date_part` fields are Spark's (YEAR, QUARTER, MONTH, WEEK (ISO), DAY,
 * DAYOFWEEK (1 = Sunday), DAYOFWEEK_ISO (1 = Monday), DOY, HOUR, MINUTE, SECOND, with Spark's
 * abbreviations); SECOND includes the fraction, a double here since Sluice has no decimal type.
 *
 * These are the binders; the DataFrame API builds the calls in core/api/datetime-functions.ts.
 */
import { AnalysisError } from '../errors.js';
import type { BoundExpression } from '../expr/bound-expression.js';
import type { FunctionCall } from '../expr/expression.js';
import type { FunctionTable } from '../expr/function-table.js';
import {
  civilFromDays,
  daysFromCivil,
  daysInMonth,
  epochDay,
  floorMod,
} from '../types/calendar.js';
import {
  type AtomicType,
  type DataType,
  DateType,
  DoubleType,
  IntegerType,
  LongType,
  StringType,
  TimestampType,
} from '../types/data-types.js';
import { compileDateTimeFormat } from '../types/datetime-format.js';
import { MICROS } from '../types/time-units.js';
import { argumentAs, constantString, requireArity } from './function-arguments.js';
import { nullIntolerant } from './function-registry.js';

/** from_unixtime's format when none is given, as in Spark. */
const DEFAULT_FORMAT = 'yyyy-MM-dd HH:mm:ss';

/** Binders of the date arithmetic functions. */
export const dateArithmeticFunctions: FunctionTable = {
  date_add: (args) => typed('date_add', args, [DateType, IntegerType], DateType, (d, n) => d + n),
  date_sub: (args) => typed('date_sub', args, [DateType, IntegerType], DateType, (d, n) => d - n),
  datediff: (args) =>
    typed('datediff', args, [DateType, DateType], IntegerType, (end, start) => end - start),
  add_months: (args) => typed('add_months', args, [DateType, IntegerType], DateType, addMonths),
  months_between: bindMonthsBetween,
  unix_millis: (args) =>
    typed('unix_millis', args, [TimestampType], LongType, (t) =>
      Math.floor(t / MICROS.millisecond),
    ),
  date_format: (args, call) => {
    requireArity('date_format', args, 2);
    const format = compileDateTimeFormat(
      constantString('date_format', call, 1, 'format'),
      'date_format()',
    );
    const timestamp = argumentAs('date_format', args, 0, TimestampType);
    return formatted(timestamp, (t) => format(t));
  },
  from_unixtime: (args, call) => {
    requireArity('from_unixtime', args, 1, 2);
    const pattern =
      args.length === 2 ? constantString('from_unixtime', call, 1, 'format') : DEFAULT_FORMAT;
    const format = compileDateTimeFormat(pattern, 'from_unixtime()');
    const seconds = argumentAs('from_unixtime', args, 0, LongType);
    return formatted(seconds, (s) => format(s * MICROS.second));
  },
  date_part: bindDatePart,
};

/** A function of non-null numeric arguments cast to `types`, giving `result`. */
function typed(
  name: string,
  args: readonly BoundExpression[],
  types: readonly AtomicType[],
  result: DataType,
  fn: (...values: number[]) => number,
): BoundExpression {
  requireArity(name, args, types.length);
  const operands = types.map((t, i) => argumentAs(name, args, i, t));
  return {
    dataType: result,
    nullable: operands.some((o) => o.nullable),
    eval: nullIntolerant(operands, (...values) => fn(...(values as number[]))),
  };
}

function formatted(value: BoundExpression, format: (v: number) => string): BoundExpression {
  return {
    dataType: StringType,
    nullable: value.nullable,
    eval: nullIntolerant([value], (v) => format(v as number)),
  };
}

/** Spark's `DateTimeUtils.dateAddMonths` (Java's `LocalDate.plusMonths`): the day is clamped. */
function addMonths(days: number, months: number): number {
  const { year, month, day } = civilFromDays(days);
  const total = year * 12 + (month - 1) + months;
  const y = Math.floor(total / 12);
  const m = floorMod(total, 12) + 1;
  return daysFromCivil(y, m, Math.min(day, daysInMonth(y, m)));
}

function bindMonthsBetween(args: readonly BoundExpression[], call: FunctionCall): BoundExpression {
  requireArity('months_between', args, 2, 3);
  const roundOff = args.length === 3 ? constantBoolean(call) : true;
  return typed(
    'months_between',
    args.slice(0, 2),
    [TimestampType, TimestampType],
    DoubleType,
    (end, start) => monthsBetween(end, start, roundOff),
  );
}

function constantBoolean(call: FunctionCall): boolean {
  const e = call.args[2];
  if (e.kind !== 'literal' || typeof e.value !== 'boolean') {
    throw new AnalysisError('months_between() needs true or false as argument 3 (roundOff).');
  }
  return e.value;
}

/** Spark's `DateTimeUtils.monthsBetween`, in UTC. */
function monthsBetween(t1: number, t2: number, roundOff: boolean): number {
  const d1 = epochDay(t1);
  const d2 = epochDay(t2);
  const a = civilFromDays(d1);
  const b = civilFromDays(d2);
  const monthDiff = a.year * 12 + a.month - (b.year * 12 + b.month);
  const lastDay = (c: typeof a) => c.day === daysInMonth(c.year, c.month);
  if (a.day === b.day || (lastDay(a) && lastDay(b))) return monthDiff;
  const secondsInDay = (t: number, d: number) => Math.floor((t - d * MICROS.day) / MICROS.second);
  const secondsDiff = (a.day - b.day) * 86_400 + secondsInDay(t1, d1) - secondsInDay(t2, d2);
  const diff = monthDiff + secondsDiff / (31 * 86_400);
  return roundOff ? Math.round(diff * 1e8) / 1e8 : diff;
}

/** One date_part field: what it reads (a date or a timestamp), its type, and the value. */
interface DatePartField {
  readonly from: AtomicType;
  readonly dataType: AtomicType;
  readonly read: (value: number) => number;
}

const dateField = (read: (days: number) => number): DatePartField => ({
  from: DateType,
  dataType: IntegerType,
  read,
});
const timeField = (unit: number, period: number): DatePartField => ({
  from: TimestampType,
  dataType: IntegerType,
  read: (t) => Math.floor(floorMod(t, period) / unit),
});

const YEAR = dateField((d) => civilFromDays(d).year);
const QUARTER = dateField((d) => Math.ceil(civilFromDays(d).month / 3));
const MONTH = dateField((d) => civilFromDays(d).month);
const WEEK = dateField(isoWeek);
const DAY = dateField((d) => civilFromDays(d).day);
const DAY_OF_WEEK = dateField((d) => floorMod(d + 4, 7) + 1);
const DAY_OF_WEEK_ISO = dateField((d) => floorMod(d + 3, 7) + 1);
const DAY_OF_YEAR = dateField((d) => d - daysFromCivil(civilFromDays(d).year, 1, 1) + 1);
const HOUR = timeField(MICROS.hour, MICROS.day);
const MINUTE = timeField(MICROS.minute, MICROS.hour);
const SECOND: DatePartField = {
  from: TimestampType,
  dataType: DoubleType,
  read: (t) => floorMod(t, MICROS.minute) / MICROS.second,
};

/** Spark's field names and their abbreviations. */
const DATE_PART_FIELDS: ReadonlyMap<string, DatePartField> = new Map([
  ...['YEAR', 'Y', 'YEARS', 'YR', 'YRS'].map((n) => [n, YEAR] as const),
  ...['QUARTER', 'QTR'].map((n) => [n, QUARTER] as const),
  ...['MONTH', 'MON', 'MONS', 'MONTHS'].map((n) => [n, MONTH] as const),
  ...['WEEK', 'W', 'WEEKS'].map((n) => [n, WEEK] as const),
  ...['DAY', 'D', 'DAYS'].map((n) => [n, DAY] as const),
  ...['DAYOFWEEK', 'DOW'].map((n) => [n, DAY_OF_WEEK] as const),
  ...['DAYOFWEEK_ISO', 'DOW_ISO'].map((n) => [n, DAY_OF_WEEK_ISO] as const),
  ['DOY', DAY_OF_YEAR],
  ...['HOUR', 'H', 'HOURS', 'HR', 'HRS'].map((n) => [n, HOUR] as const),
  ...['MINUTE', 'M', 'MIN', 'MINS', 'MINUTES'].map((n) => [n, MINUTE] as const),
  ...['SECOND', 'S', 'SEC', 'SECONDS', 'SECS'].map((n) => [n, SECOND] as const),
]);

/** The names EXTRACT and date_part accept, for the parser's messages. */
export const datePartFieldNames: readonly string[] = [...DATE_PART_FIELDS.keys()];

function bindDatePart(args: readonly BoundExpression[], call: FunctionCall): BoundExpression {
  requireArity('date_part', args, 2);
  const name = constantString('date_part', call, 0, 'field');
  const field = DATE_PART_FIELDS.get(name.toUpperCase());
  if (!field) {
    throw new AnalysisError(
      `date_part() does not know the field '${name}'; use one of: ${datePartFieldNames.join(', ')}.`,
    );
  }
  const source = argumentAs('date_part', args, 1, field.from);
  return {
    dataType: field.dataType,
    nullable: source.nullable,
    eval: nullIntolerant([source], (v) => field.read(v as number)),
  };
}

/** The ISO 8601 week of the year (weeks start on Monday; week 1 holds the year's first Thursday). */
function isoWeek(days: number): number {
  const thursday = days - floorMod(days + 3, 7) + 3;
  const year = civilFromDays(thursday).year;
  return Math.floor((thursday - daysFromCivil(year, 1, 1)) / 7) + 1;
}
