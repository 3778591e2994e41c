/**
 * Functions that find or replace within strings: instr, locate, regexp_replace.
 *
 * As in Spark: positions are 1-based and count characters (code points), 0 meaning not found;
 * an empty substring is found at position 1. `locate(substr, str, pos)` searches from position
 * `pos`, gives 0 for a `pos` below 1 and for a null `pos` (Spark's rule), null for a null string or
 * substring. `regexp_replace(str, regexp, rep[, pos])` replaces every match found from character
 * `pos` on; `rep` is a Java replacement string (`$0` for the match, `$1` and `${name}` for groups, `\` to quote the
 * next character). The pattern is a constant, checked when the query is analysed; a null argument
 * gives null.
 *
 * These are the binders; the DataFrame API builds the calls in core/api/string-functions.ts.
 */
import { AnalysisError } from '../errors.js';
import type { BoundExpression } from '../expr/bound-expression.js';
import type { FunctionCall } from '../expr/expression.js';
import type { FunctionTable } from '../expr/function-table.js';
import { IntegerType, StringType } from '../types/data-types.js';
import { argumentAs, constantInteger, constantString, requireArity } from './function-arguments.js';
import { nullIntolerant } from './function-registry.js';
import { compileRegex } from './string-functions.js';

/** Binders of instr, locate and regexp_replace. */
export const stringSearchFunctions: FunctionTable = {
  instr: (args) => {
    requireArity('instr', args, 2);
    const operands = [
      argumentAs('instr', args, 0, StringType),
      argumentAs('instr', args, 1, StringType),
    ];
    return {
      dataType: IntegerType,
      nullable: operands.some((o) => o.nullable),
      eval: nullIntolerant(operands, (s, sub) => position(s as string, sub as string, 1)),
    };
  },
  locate: bindLocate,
  regexp_replace: bindRegexpReplace,
};

function bindLocate(args: readonly BoundExpression[]): BoundExpression {
  requireArity('locate', args, 2, 3);
  const sub = argumentAs('locate', args, 0, StringType).eval;
  const str = argumentAs('locate', args, 1, StringType).eval;
  const start = args.length === 3 ? argumentAs('locate', args, 2, IntegerType).eval : () => 1;
  return {
    dataType: IntegerType,
    nullable: args[0].nullable || args[1].nullable,
    eval: (row) => {
      const pos = start(row) as number | null;
      if (pos === null) return 0;
      const needle = sub(row) as string | null;
      const haystack = str(row) as string | null;
      if (needle === null || haystack === null) return null;
      return pos < 1 ? 0 : position(haystack, needle, pos);
    },
  };
}

/** The 1-based character position of `sub` in `s` at or after character `from`, or 0. */
function position(s: string, sub: string, from: number): number {
  if (sub === '') return 1;
  const chars = Array.from(s);
  const unitOffset = chars.slice(0, from - 1).join('').length;
  if (from - 1 > chars.length) return 0;
  const found = s.indexOf(sub, unitOffset);
  return found < 0 ? 0 : Array.from(s.slice(0, found)).length + 1;
}

function bindRegexpReplace(args: readonly BoundExpression[], call: FunctionCall): BoundExpression {
  requireArity('regexp_replace', args, 3, 4);
  const str = argumentAs('regexp_replace', args, 0, StringType);
  const pattern = constantString('regexp_replace', call, 1, 'pattern');
  const regex = compileRegex('regexp_replace', pattern, 'g');
  const replacement = argumentAs('regexp_replace', args, 2, StringType);
  const from = args.length === 4 ? constantInteger('regexp_replace', call, 3, 'position') : 1;
  if (from < 1) {
    throw new AnalysisError(
      `regexp_replace() needs a position of 1 or more as argument 4, got ${from}; positions count characters from 1.`,
    );
  }
  return {
    dataType: StringType,
    nullable: str.nullable || replacement.nullable,
    eval: nullIntolerant([str, replacement], (s, rep) => {
      const chars = Array.from(s as string);
      const head = chars.slice(0, from - 1).join('');
      const tail = chars.slice(from - 1).join('');
      return head + tail.replace(regex, javaReplacement(rep as string));
    }),
  };
}

/**
 * A Java replacement string (`$1`, `${name}`, `\$` for a dollar) in the syntax of JS's
 * `String.replace`, where a literal dollar is `$$` and backslashes are plain characters.
 */
function javaReplacement(rep: string): string {
  let out = '';
  for (let i = 0; i < rep.length; i++) {
    const c = rep[i];
    if (c === '\\' && i + 1 < rep.length) {
      const next = rep[++i];
      out += next === '$' ? '$$' : next;
    } else if (c === '$' && rep[i + 1] === '0') {
      out += '$&'; // JS has no group 0: `$&` is the whole match
      i++;
    } else if (c === '$' && rep[i + 1] === '{' && rep.includes('}', i)) {
      const end = rep.indexOf('}', i);
      out += `$<${rep.slice(i + 2, end)}>`;
      i = end;
    } else out += c;
  }
  return out;
}
