/**
 * String functions: lower, upper, length, concat, substring, split, trim, ltrim, rtrim,
 * regexp_extract. A null argument gives null.
 *
 * As in Spark: positions and lengths count characters (code points), not UTF-16 units; numbers,
 * booleans, dates and timestamps passed where a string is expected are read as their text;
 * patterns are Java regular expressions, run by the JS engine, whose syntax is the same for
 * everything but rarities (possessive quantifiers, `\p{Alpha}`-style classes).
 *
 * These are the binders; the DataFrame API builds the calls in core/api/string-functions.ts.
 */
import { AnalysisError } from '../errors.js';
import type { BoundExpression } from '../expr/bound-expression.js';
import type { FunctionCall } from '../expr/expression.js';
import { ArrayOf, IntegerType, StringType } from '../types/data-types.js';
import { argumentAs, constantInteger, constantString, requireArity } from './function-arguments.js';
import type { FunctionTable } from '../expr/function-table.js';
import { nullIntolerant } from './function-registry.js';

/** Binders of the string functions. */
export const stringFunctions: FunctionTable = {
  lower: (args) => stringToString('lower', args, (s) => s.toLowerCase()),
  upper: (args) => stringToString('upper', args, (s) => s.toUpperCase()),
  length: (args) => {
    requireArity('length', args, 1);
    const str = argumentAs('length', args, 0, StringType);
    return {
      dataType: IntegerType,
      nullable: str.nullable,
      eval: nullIntolerant([str], (s) => [...(s as string)].length),
    };
  },
  concat: (args) => {
    const strings = args.map((_, i) => argumentAs('concat', args, i, StringType));
    return {
      dataType: StringType,
      nullable: strings.some((s) => s.nullable),
      eval: nullIntolerant(strings, (...values) => values.join('')),
    };
  },
  substring: bindSubstring,
  split: bindSplit,
  trim: (args, call) => bindTrim('trim', args, call),
  ltrim: (args, call) => bindTrim('ltrim', args, call),
  rtrim: (args, call) => bindTrim('rtrim', args, call),
  regexp_extract: bindRegexpExtract,
};

function stringToString(
  name: string,
  args: readonly BoundExpression[],
  fn: (s: string) => string,
): BoundExpression {
  requireArity(name, args, 1);
  const str = argumentAs(name, args, 0, StringType);
  return {
    dataType: StringType,
    nullable: str.nullable,
    eval: nullIntolerant([str], (s) => fn(s as string)),
  };
}

function bindSubstring(args: readonly BoundExpression[]): BoundExpression {
  requireArity('substring', args, 2, 3);
  const operands = args.map((_, i) =>
    argumentAs('substring', args, i, i === 0 ? StringType : IntegerType),
  );
  return {
    dataType: StringType,
    nullable: operands.some((o) => o.nullable),
    // without a length, Spark takes the rest of the string
    eval: nullIntolerant(operands, (s, pos, len = Number.MAX_SAFE_INTEGER) =>
      substringSql(s as string, pos as number, len as number),
    ),
  };
}

/** Spark's `UTF8String.substringSQL`: 1-based, negative from the end, 0 as 1, clamped to the string. */
function substringSql(s: string, pos: number, len: number): string {
  const chars = Array.from(s);
  const start = pos > 0 ? pos - 1 : pos < 0 ? chars.length + pos : 0;
  const end = start + len;
  const from = Math.max(start, 0);
  return from >= end ? '' : chars.slice(from, end).join('');
}

function bindSplit(args: readonly BoundExpression[], call: FunctionCall): BoundExpression {
  requireArity('split', args, 2, 3);
  const str = argumentAs('split', args, 0, StringType);
  const pattern = constantString('split', call, 1, 'pattern');
  const limit = args.length === 3 ? constantInteger('split', call, 2, 'limit') : -1;
  const regex = compileRegex('split', pattern, 'g');
  return {
    dataType: ArrayOf(StringType, false),
    nullable: str.nullable,
    eval: nullIntolerant([str], (s) =>
      pattern === '' ? splitCharacters(s as string, limit) : splitJava(s as string, regex, limit),
    ),
  };
}

/**
 * Java's `String.split(regex, limit)` with limit 0 read as -1 (Spark keeps trailing empty strings):
 * a zero-width match at the very start gives no leading empty string, and `limit > 0` caps the
 * number of parts, the last one holding the rest of the input.
 */
function splitJava(s: string, regex: RegExp, limit: number): string[] {
  const parts: string[] = [];
  let index = 0;
  for (const m of s.matchAll(regex)) {
    if (limit > 0 && parts.length === limit - 1) break;
    const end = m.index + m[0].length;
    if (end === 0) continue;
    parts.push(s.slice(index, m.index));
    index = end;
  }
  parts.push(s.slice(index));
  return parts;
}

/** Spark special-cases the empty pattern: one entry per character, at most `limit`, nothing left over. */
function splitCharacters(s: string, limit: number): string[] {
  const chars = Array.from(s);
  if (chars.length === 0) return [''];
  return limit > 0 && limit < chars.length ? chars.slice(0, limit) : chars;
}

function bindTrim(
  name: 'trim' | 'ltrim' | 'rtrim',
  args: readonly BoundExpression[],
  call: FunctionCall,
): BoundExpression {
  requireArity(name, args, 1, 2);
  const str = argumentAs(name, args, 0, StringType);
  // Spark trims the space character only, not tabs or newlines.
  const characters = args.length === 2 ? constantString(name, call, 1, 'trim string') : ' ';
  const set = `[${characters.replace(/[\\\][^-]/g, '\\$&')}]+`;
  const leading = name === 'rtrim' ? '' : `^${set}`;
  const trailing = name === 'ltrim' ? '' : `${set}$`;
  const edges = new RegExp([leading, trailing].filter(Boolean).join('|'), 'gu');
  return {
    dataType: StringType,
    nullable: str.nullable,
    eval: nullIntolerant([str], (s) => (s as string).replace(edges, '')),
  };
}

function bindRegexpExtract(args: readonly BoundExpression[], call: FunctionCall): BoundExpression {
  requireArity('regexp_extract', args, 3);
  const str = argumentAs('regexp_extract', args, 0, StringType);
  const pattern = constantString('regexp_extract', call, 1, 'pattern');
  const group = constantInteger('regexp_extract', call, 2, 'group index');
  const regex = compileRegex('regexp_extract', pattern, '');
  const groups = groupCount(regex);
  if (group < 0 || group > groups) {
    throw new AnalysisError(
      `regexp_extract() asks for group ${group} but '${pattern}' has ${groups} group(s); use an index from 0 (the whole match) to ${groups}.`,
    );
  }
  return {
    dataType: StringType,
    nullable: str.nullable,
    eval: nullIntolerant([str], (s) => regex.exec(s as string)?.[group] ?? ''),
  };
}

/** The number of capturing groups: an alternative that matches the empty string reveals them all. */
function groupCount(regex: RegExp): number {
  return (new RegExp(`${regex.source}|`, regex.flags).exec('') as RegExpExecArray).length - 1;
}

/**
 * Compiles a Java-style regular expression. Java's leading inline flags (`(?i)`, `(?s)`, `(?m)`)
 * become JS flags, since the JS engine has no inline form of them.
 */
export function compileRegex(name: string, pattern: string, flags: string): RegExp {
  const inline = /^\(\?([ims]+)\)/.exec(pattern);
  const source = inline ? pattern.slice(inline[0].length) : pattern;
  try {
    return new RegExp(source, flags + (inline?.[1] ?? ''));
  } catch (error) {
    throw new AnalysisError(
      `${name}() cannot use the regular expression '${pattern}': ${(error as Error).message}. Escape characters such as '.', '|' or '(' with a backslash to match them literally.`,
      { cause: error },
    );
  }
}
