/**
 * The string functions of the DataFrame API: lower, upper, length, concat, substring, split, trim,
 * ltrim, rtrim, regexp_extract. Each builds a call expression; core/functions/string-functions.ts
 * binds and evaluates it, and its module doc states the semantics (Spark's).
 */
import type { Expression } from '../expr/expression.js';
import { Column, columnOrName } from './column.js';
import { toLiteral } from './literal.js';

/** Lower-cases a string column. */
export function lower(c: Column | string): Column {
  return call('lower', [columnOrName(c)]);
}

/** Upper-cases a string column. */
export function upper(c: Column | string): Column {
  return call('upper', [columnOrName(c)]);
}

/** The number of characters in a string, an int. */
export function length(c: Column | string): Column {
  return call('length', [columnOrName(c)]);
}

/** Concatenates strings; null when any of them is null (wrap one in `coalesce(c, lit(''))` to read null as empty). */
export function concat(...columns: (Column | string)[]): Column {
  return call('concat', columns.map(columnOrName));
}

/**
 * The `len` characters starting at 1-based position `pos`; a negative `pos` counts from the end
 * (`-1` is the last character) and 0 means the start. Out-of-range parts give an empty string.
 */
export function substring(str: Column | string, pos: number, len: number): Column {
  return call('substring', [columnOrName(str), toLiteral(pos), toLiteral(len)]);
}

/**
 * Splits a string around matches of the regular expression `pattern` into `array<string>`.
 * With `limit > 0` the array has at most `limit` entries, the last holding the rest of the
 * string; otherwise every match splits. Trailing empty strings are kept.
 */
export function split(str: Column | string, pattern: string, limit = -1): Column {
  return call('split', [columnOrName(str), toLiteral(pattern), toLiteral(limit)]);
}

/** Removes leading and trailing spaces (or the characters of `trimString`). */
export function trim(c: Column | string, trimString?: string): Column {
  return trimCall('trim', c, trimString);
}

/** Removes leading spaces (or the characters of `trimString`). */
export function ltrim(c: Column | string, trimString?: string): Column {
  return trimCall('ltrim', c, trimString);
}

/** Removes trailing spaces (or the characters of `trimString`). */
export function rtrim(c: Column | string, trimString?: string): Column {
  return trimCall('rtrim', c, trimString);
}

/**
 * Group `idx` of the first match of the regular expression `pattern` (0 is the whole match);
 * an empty string when nothing matches or the group did not take part in the match.
 */
export function regexp_extract(str: Column | string, pattern: string, idx: number): Column {
  return call('regexp_extract', [columnOrName(str), toLiteral(pattern), toLiteral(idx)]);
}

function call(name: string, args: Expression[]): Column {
  return new Column({ kind: 'call', name, args });
}

function trimCall(name: string, c: Column | string, trimString: string | undefined): Column {
  const args = [columnOrName(c)];
  return call(name, trimString === undefined ? args : [...args, toLiteral(trimString)]);
}
