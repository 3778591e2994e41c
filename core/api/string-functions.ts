/**
 * The string functions of the DataFrame API: lower, upper, length, concat, concat_ws, substring,
 * split, trim, ltrim, rtrim, lpad, rpad, initcap, instr, locate, regexp_extract, regexp_replace.
 * Each builds a call expression; core/functions/string-functions.ts,
 * string-format-functions.ts and string-search-functions.ts bind and evaluate them, and their module
 * docs state the semantics (Spark's).
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

/**
 * Joins strings (or the elements of `array<string>` columns) with `sep`, skipping nulls; null only
 * when `sep` is null.
 */
export function concat_ws(sep: string, ...columns: (Column | string)[]): Column {
  return call('concat_ws', [toLiteral(sep), ...columns.map(columnOrName)]);
}

/** Pads the string on the left with `pad` to `len` characters; a longer string is cut to `len`. */
export function lpad(str: Column | string, len: number, pad = ' '): Column {
  return call('lpad', [columnOrName(str), toLiteral(len), toLiteral(pad)]);
}

/** Pads the string on the right with `pad` to `len` characters; a longer string is cut to `len`. */
export function rpad(str: Column | string, len: number, pad = ' '): Column {
  return call('rpad', [columnOrName(str), toLiteral(len), toLiteral(pad)]);
}

/** Lower-cases the string, then upper-cases the first letter of each space-separated word. */
export function initcap(c: Column | string): Column {
  return call('initcap', [columnOrName(c)]);
}

/** The 1-based position of the first `substring` in the string, 0 when absent. */
export function instr(str: Column | string, substring: string): Column {
  return call('instr', [columnOrName(str), toLiteral(substring)]);
}

/** The 1-based position of the first `substr` in the string at or after position `pos`, 0 when absent. */
export function locate(substr: string, str: Column | string, pos = 1): Column {
  return call('locate', [toLiteral(substr), columnOrName(str), toLiteral(pos)]);
}

/**
 * Replaces every match of the regular expression `pattern` with `replacement`, a Java replacement
 * string (`$1` for a group, `\$` for a dollar), or with the value of a column.
 */
export function regexp_replace(
  str: Column | string,
  pattern: string,
  replacement: string | Column,
): Column {
  const rep = typeof replacement === 'string' ? toLiteral(replacement) : replacement.expr;
  return call('regexp_replace', [columnOrName(str), toLiteral(pattern), rep]);
}

function call(name: string, args: Expression[]): Column {
  return new Column({ kind: 'call', name, args });
}

function trimCall(name: string, c: Column | string, trimString: string | undefined): Column {
  const args = [columnOrName(c)];
  return call(name, trimString === undefined ? args : [...args, toLiteral(trimString)]);
}
