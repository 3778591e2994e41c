/**
 * Parsing text with Spark's datetime patterns (Java `DateTimeFormatter` letters), as `to_timestamp`,
 * `to_date` and `unix_timestamp` use them. A pattern compiles once into an anchored regular
 * expression plus one setter per captured field; parsing is a match and a range check.
 *
 * Supported: `y`/`u` year (`yy` is 2000-2099), `M`/`L` month (`MMM` Jan, `MMMM` January), `d` day,
 * `D` day of year, `H` hour 0-23, `h` hour 1-12 with `a` AM/PM, `m` minute, `s` second, `S...`
 * fraction (1 to as many digits as letters), `E` day name (read, not checked), offsets `X`/`XX`/`XXX`
 * (`Z` for UTC allowed), `x`/`xx`/`xxx`, `Z` (+HHMM), `ZZZZZ` (+HH:MM or Z); `'quoted text'`, `''`
 * for a quote, `[optional sections]`; any other non-letter is literal.
 *
 * As in Spark: matching is case-insensitive, the whole text must match, missing fields default to
 * 1970-01-01 00:00:00 UTC, and out-of-range fields (February 30, hour 24) make the text invalid.
 */
import { AnalysisError } from '../errors.js';
import { daysFromCivil, daysInMonth, isLeapYear } from './calendar.js';
import { MICROS } from './timestamp-text.js';

/** Parses text into microseconds since the epoch, or null when it does not match the pattern. */
export type DateTimeParser = (text: string) => number | null;

/** Fields read from the text; absent ones take their defaults when the instant is resolved. */
interface ParsedFields {
  year?: number;
  month?: number;
  day?: number;
  dayOfYear?: number;
  hour?: number;
  hourOfHalfDay?: number;
  pm?: boolean;
  minute?: number;
  second?: number;
  micros?: number;
  /** NaN when the offset's hours or minutes are out of range. */
  offsetMinutes?: number;
}

type Setter = (fields: ParsedFields, text: string) => void;

/** One pattern field: the regular expression it matches and how the match is stored. */
interface FieldRule {
  readonly regex: string;
  readonly set?: Setter;
}

const SHORT_MONTHS = [
  'jan',
  'feb',
  'mar',
  'apr',
  'may',
  'jun',
  'jul',
  'aug',
  'sep',
  'oct',
  'nov',
  'dec',
];
const LONG_MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const SHORT_DAYS = 'mon|tue|wed|thu|fri|sat|sun';
const LONG_DAYS = 'monday|tuesday|wednesday|thursday|friday|saturday|sunday';
const SUPPORTED_LETTERS = 'y u M L d D H h a m s S E X x Z';

/**
 * Compiles a datetime pattern. `owner` names the function in errors, which are AnalysisErrors
 * because a pattern is a constant checked when the query is analysed.
 */
export function compileDateTimePattern(pattern: string, owner: string): DateTimeParser {
  const fail = (problem: string): never => {
    throw new AnalysisError(
      `${owner}: invalid datetime pattern '${pattern}': ${problem}. Supported letters: ${SUPPORTED_LETTERS}; quote literal letters, as in "yyyy-MM-dd'T'HH:mm:ss".`,
    );
  };
  const { source, setters } = translate(pattern, fail);
  const regex = new RegExp(`^${source}$`, 'i');
  return (text) => {
    const m = regex.exec(text);
    if (!m) return null;
    const fields: ParsedFields = {};
    for (let i = 0; i < setters.length; i++) {
      const group = m[i + 1];
      if (group !== undefined) setters[i](fields, group);
    }
    return resolve(fields);
  };
}

/** Turns a pattern into a regular expression source and the setters of its capturing groups, in order. */
function translate(
  pattern: string,
  fail: (problem: string) => never,
): { source: string; setters: Setter[] } {
  let source = '';
  const setters: Setter[] = [];
  let depth = 0;
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i];
    if (c === "'") {
      const [text, next] = quoted(pattern, i, fail);
      source += escapeRegex(text);
      i = next;
    } else if (/[A-Za-z]/.test(c)) {
      let count = 1;
      while (pattern[i + count] === c) count++;
      const rule = fieldRule(c, count) ?? fail(`'${c.repeat(count)}' is not supported`);
      source += rule.set ? `(${rule.regex})` : `(?:${rule.regex})`;
      if (rule.set) setters.push(rule.set);
      i += count;
    } else {
      if (c === '[') depth++;
      if (c === ']' && --depth < 0) fail("']' closes no optional section");
      source += c === '[' ? '(?:' : c === ']' ? ')?' : escapeRegex(c);
      i++;
    }
  }
  if (depth > 0) fail("an optional section '[' is not closed");
  return { source, setters };
}

/** Reads quoted text starting at `start` (a quote); `''` inside or outside quotes is one quote. */
function quoted(
  pattern: string,
  start: number,
  fail: (problem: string) => never,
): [text: string, next: number] {
  if (pattern[start + 1] === "'") return ["'", start + 2];
  let text = '';
  let i = start + 1;
  while (i < pattern.length) {
    if (pattern[i] !== "'") text += pattern[i++];
    else if (pattern[i + 1] === "'") {
      text += "'";
      i += 2;
    } else return [text, i + 1];
  }
  return fail(`the quote at position ${start} is not closed`);
}

function fieldRule(letter: string, count: number): FieldRule | undefined {
  switch (letter) {
    case 'y':
    case 'u':
      return yearRule(count);
    case 'M':
    case 'L':
      return monthRule(count);
    case 'd':
      return count <= 2 ? digits(count, 2, (f, n) => (f.day = n)) : undefined;
    case 'D':
      return count <= 3 ? digits(count, 3, (f, n) => (f.dayOfYear = n)) : undefined;
    case 'H':
      return count <= 2 ? digits(count, 2, (f, n) => (f.hour = n)) : undefined;
    case 'h':
      return count <= 2 ? digits(count, 2, (f, n) => (f.hourOfHalfDay = n)) : undefined;
    case 'm':
      return count <= 2 ? digits(count, 2, (f, n) => (f.minute = n)) : undefined;
    case 's':
      return count <= 2 ? digits(count, 2, (f, n) => (f.second = n)) : undefined;
    case 'S':
      return count <= 9 ? fractionRule(count) : undefined;
    case 'a':
      return count === 1
        ? { regex: 'am|pm', set: (f, t) => (f.pm = t.toLowerCase() === 'pm') }
        : undefined;
    case 'E':
      return count <= 4 ? { regex: count === 4 ? LONG_DAYS : SHORT_DAYS } : undefined;
    default:
      return offsetRule(letter, count);
  }
}

/** A decimal field of `count` digits (or 1 to `max` digits for a single letter), as Java reads it. */
function digits(count: number, max: number, set: (f: ParsedFields, n: number) => void): FieldRule {
  return {
    regex: count === 1 ? `\\d{1,${max}}` : `\\d{${count},${max}}`,
    set: (f, t) => set(f, Number(t)),
  };
}

function yearRule(count: number): FieldRule {
  if (count === 2) return { regex: '\\d{2}', set: (f, t) => (f.year = 2000 + Number(t)) };
  return digits(count, Math.max(count, 6), (f, n) => (f.year = n));
}

function monthRule(count: number): FieldRule | undefined {
  if (count <= 2) return digits(count, 2, (f, n) => (f.month = n));
  const names = count === 3 ? SHORT_MONTHS : count === 4 ? LONG_MONTHS : undefined;
  return (
    names && {
      regex: names.join('|'),
      set: (f, t) => (f.month = names.indexOf(t.toLowerCase()) + 1),
    }
  );
}

/** Spark reads a fraction of 1 up to as many digits as there are `S` letters. */
function fractionRule(count: number): FieldRule {
  return {
    regex: `\\d{1,${count}}`,
    set: (f, t) => (f.micros = Number(t.padEnd(6, '0').slice(0, 6))),
  };
}

function offsetRule(letter: string, count: number): FieldRule | undefined {
  const forms: Record<string, string | undefined> = {
    X: ['z|[+-]\\d{2}(?:\\d{2})?', 'z|[+-]\\d{4}', 'z|[+-]\\d{2}:\\d{2}'][count - 1],
    x: ['[+-]\\d{2}(?:\\d{2})?', '[+-]\\d{4}', '[+-]\\d{2}:\\d{2}'][count - 1],
    Z: count <= 3 ? '[+-]\\d{4}' : count === 5 ? 'z|[+-]\\d{2}:\\d{2}' : undefined,
  };
  const regex = forms[letter];
  return regex === undefined
    ? undefined
    : { regex, set: (f, t) => (f.offsetMinutes = offsetMinutes(t)) };
}

/** `Z`, `+05`, `+0530` or `+05:30` as minutes east of UTC; NaN when out of range. */
function offsetMinutes(text: string): number {
  if (text.toLowerCase() === 'z') return 0;
  const digits = text.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = Number(digits.slice(2) || '0');
  if (hours > 18 || minutes > 59) return Number.NaN;
  return (text[0] === '-' ? -1 : 1) * (hours * 60 + minutes);
}

/** Combines the parsed fields into an instant, or null when a field is out of range. */
function resolve(f: ParsedFields): number | null {
  const days = resolveDays(f);
  const hour = resolveHour(f);
  const minute = f.minute ?? 0;
  const second = f.second ?? 0;
  const offset = f.offsetMinutes ?? 0;
  if (days === null || hour === null || minute > 59 || second > 59 || Number.isNaN(offset)) {
    return null;
  }
  return (
    days * MICROS.day +
    hour * MICROS.hour +
    minute * MICROS.minute +
    second * MICROS.second +
    (f.micros ?? 0) -
    offset * MICROS.minute
  );
}

function resolveDays(f: ParsedFields): number | null {
  const year = f.year ?? 1970;
  if (f.dayOfYear !== undefined) {
    const valid = f.dayOfYear >= 1 && f.dayOfYear <= (isLeapYear(year) ? 366 : 365);
    return valid ? daysFromCivil(year, 1, 1) + f.dayOfYear - 1 : null;
  }
  const month = f.month ?? 1;
  const day = f.day ?? 1;
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return daysFromCivil(year, month, day);
}

function resolveHour(f: ParsedFields): number | null {
  if (f.hourOfHalfDay === undefined) {
    const hour = f.hour ?? 0;
    return hour <= 23 ? hour : null;
  }
  if (f.hourOfHalfDay < 1 || f.hourOfHalfDay > 12) return null;
  return (f.hourOfHalfDay % 12) + (f.pm ? 12 : 0);
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
