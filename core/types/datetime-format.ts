/**
 * Writing timestamps as text with Spark's datetime patterns (Java `DateTimeFormatter` letters), as
 * `date_format` and `from_unixtime` use them; the reading side is core/types/datetime-pattern.ts.
 * A pattern compiles once into a list of field writers; formatting is string concatenation.
 *
 * Supported: `y`/`u` year (`yy` its last two digits), `M`/`L` month (`MMM` Jan, `MMMM` January),
 * `d` day, `D` day of year, `H` hour 0-23, `h` hour 1-12, `a` AM/PM, `m` minute, `s` second, `S...`
 * fraction (as many digits as letters), `E` day name (`EEEE` in full), `Q` quarter, offsets `X`, `x`
 * and `Z` (always UTC, the session time zone); `'quoted text'`, `''` for a quote; any other
 * non-letter is literal. A letter out of this list is an AnalysisError naming the pattern.
 */
import { AnalysisError } from '../errors.js';
import { civilFromDays, daysFromCivil, epochDay, floorMod } from './calendar.js';
import { MICROS } from './time-units.js';

/** Formats microseconds since the epoch (UTC) as text. */
export type DateTimeFormatter = (micros: number) => string;

/** The fields of one instant that the field writers read. */
interface InstantFields {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly dayOfYear: number;
  /** 0 is Monday. */
  readonly dayOfWeek: number;
  readonly microsOfDay: number;
}

type FieldWriter = (f: InstantFields) => string;

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const SUPPORTED_LETTERS = 'y u M L d D H h a m s S E Q X x Z';

/** Compiles a datetime pattern for writing; `owner` names the function in errors. */
export function compileDateTimeFormat(pattern: string, owner: string): DateTimeFormatter {
  const writers = parts(pattern, (problem) => {
    throw new AnalysisError(
      `${owner}: invalid datetime pattern '${pattern}': ${problem}. Supported letters: ${SUPPORTED_LETTERS}; quote literal letters, as in "yyyy-MM-dd'T'HH:mm:ss".`,
    );
  });
  return (micros) => {
    const fields = instantFields(micros);
    let text = '';
    for (const write of writers) text += write(fields);
    return text;
  };
}

function instantFields(micros: number): InstantFields {
  const days = epochDay(micros);
  const { year, month, day } = civilFromDays(days);
  return {
    year,
    month,
    day,
    dayOfYear: days - daysFromCivil(year, 1, 1) + 1,
    // 1970-01-01 was a Thursday (3 days after a Monday)
    dayOfWeek: floorMod(days + 3, 7),
    microsOfDay: micros - days * MICROS.day,
  };
}

function parts(pattern: string, fail: (problem: string) => never): FieldWriter[] {
  const writers: FieldWriter[] = [];
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i];
    if (c === "'") {
      const end = pattern.indexOf("'", i + 1);
      if (end < 0) fail(`the quote at position ${i} is not closed`);
      const text = end === i + 1 ? "'" : pattern.slice(i + 1, end);
      writers.push(() => text);
      i = end + 1;
    } else if (/[A-Za-z]/.test(c)) {
      let count = 1;
      while (pattern[i + count] === c) count++;
      writers.push(fieldWriter(c, count) ?? fail(`'${c.repeat(count)}' is not supported`));
      i += count;
    } else {
      writers.push(() => c);
      i++;
    }
  }
  return writers;
}

function fieldWriter(letter: string, count: number): FieldWriter | undefined {
  const pad = (n: number) => String(n).padStart(count, '0');
  const time = (unit: number, period: number) => (f: InstantFields) =>
    pad(Math.floor(f.microsOfDay / unit) % period);
  switch (letter) {
    case 'y':
    case 'u':
      return count === 2
        ? (f) => String(floorMod(f.year, 100)).padStart(2, '0')
        : (f) => pad(f.year);
    case 'M':
    case 'L':
      if (count <= 2) return (f) => pad(f.month);
      return count <= 4 ? (f) => name(MONTHS[f.month - 1], count) : undefined;
    case 'd':
      return count <= 2 ? (f) => pad(f.day) : undefined;
    case 'D':
      return count <= 3 ? (f) => pad(f.dayOfYear) : undefined;
    case 'Q':
      return count <= 2 ? (f) => pad(Math.ceil(f.month / 3)) : undefined;
    case 'E':
      return count <= 4 ? (f) => name(DAYS[f.dayOfWeek], count) : undefined;
    case 'a':
      return count === 1 ? (f) => (f.microsOfDay < 12 * MICROS.hour ? 'AM' : 'PM') : undefined;
    case 'H':
      return count <= 2 ? time(MICROS.hour, 24) : undefined;
    case 'h':
      return count <= 2
        ? (f) => pad(Math.floor(f.microsOfDay / MICROS.hour) % 12 || 12)
        : undefined;
    case 'm':
      return count <= 2 ? time(MICROS.minute, 60) : undefined;
    case 's':
      return count <= 2 ? time(MICROS.second, 60) : undefined;
    case 'S':
      return count <= 9
        ? (f) =>
            String(f.microsOfDay % MICROS.second)
              .padStart(6, '0')
              .padEnd(9, '0')
              .slice(0, count)
        : undefined;
    case 'X':
      return count <= 3 ? () => 'Z' : undefined;
    case 'x':
      return count <= 3 ? () => ['+00', '+0000', '+00:00'][count - 1] : undefined;
    case 'Z':
      return count <= 3 ? () => '+0000' : count === 5 ? () => 'Z' : undefined;
    default:
      return undefined;
  }
}

/** A month or day name: abbreviated to three letters unless the pattern has four. */
function name(full: string, count: number): string {
  return count === 4 ? full : full.slice(0, 3);
}
