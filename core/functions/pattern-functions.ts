/**
 * Pattern matching: `like`, `ilike` and `rlike`, the functions behind SQL's LIKE, ILIKE and RLIKE
 * (REGEXP). A null string or pattern gives null.
 *
 * As in Spark: LIKE matches the whole string, `_` standing for one character and `%` for any run
 * of them (newlines included); the escape character (`\` unless given) makes the next `_`, `%` or
 * itself literal, and before any other character is an error. ILIKE is LIKE ignoring case. RLIKE
 * is true when the regular expression matches anywhere in the string (Java's `find`).
 * Unlike Spark, the pattern must be a constant, so that it is checked and compiled once.
 */
import { AnalysisError } from '../errors.js';
import type { BoundExpression } from '../expr/bound-expression.js';
import type { FunctionCall } from '../expr/expression.js';
import type { FunctionTable } from '../expr/function-table.js';
import { BooleanType, StringType } from '../types/data-types.js';
import { argumentAs, constantString, requireArity } from './function-arguments.js';
import { nullIntolerant } from './function-registry.js';
import { compileRegex } from './string-functions.js';

/** Binders of the pattern functions. */
export const patternFunctions: FunctionTable = {
  like: (args, call) => bindLike('like', args, call, ''),
  ilike: (args, call) => bindLike('ilike', args, call, 'i'),
  rlike: (args, call) => {
    requireArity('rlike', args, 2);
    const regex = compileRegex('rlike', patternArgument('rlike', args, call), '');
    return matcher(args, (s) => regex.test(s));
  },
};

function bindLike(
  name: string,
  args: readonly BoundExpression[],
  call: FunctionCall,
  flags: string,
): BoundExpression {
  requireArity(name, args, 2, 3);
  const pattern = patternArgument(name, args, call);
  const escape = args.length === 3 ? constantString(name, call, 2, 'escape character') : '\\';
  if ([...escape].length !== 1) {
    throw new AnalysisError(`${name}() needs a single escape character, got '${escape}'.`);
  }
  const regex = new RegExp(`^${likeRegex(name, pattern, escape)}$`, `s${flags}`);
  return matcher(args, (s) => regex.test(s));
}

/** The pattern argument: a constant string, or a NULL literal (every result is then null). */
function patternArgument(
  name: string,
  args: readonly BoundExpression[],
  call: FunctionCall,
): string {
  argumentAs(name, args, 1, StringType);
  const p = call.args[1];
  if (p?.kind === 'literal' && p.value === null) return '';
  return constantString(name, call, 1, 'pattern');
}

function matcher(args: readonly BoundExpression[], test: (s: string) => boolean): BoundExpression {
  const str = argumentAs('like', args, 0, StringType);
  const pattern = args[1];
  const patternIsNull = pattern.dataType.kind === 'null';
  return {
    dataType: BooleanType,
    nullable: str.nullable || patternIsNull,
    eval: patternIsNull ? () => null : nullIntolerant([str], (s) => test(s as string)),
  };
}

/** A LIKE pattern as a regular expression source (Spark's StringUtils.escapeLikeRegex). */
function likeRegex(name: string, pattern: string, escape: string): string {
  const chars = [...pattern];
  let source = '';
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if (c === escape) {
      const next = chars[i + 1];
      if (next !== '_' && next !== '%' && next !== escape) {
        throw new AnalysisError(
          `${name}() pattern '${pattern}' is invalid: the escape character '${escape}' may only precede '_', '%' or itself.`,
        );
      }
      source += regexLiteral(next);
      i++;
    } else if (c === '_') source += '.';
    else if (c === '%') source += '.*';
    else source += regexLiteral(c);
  }
  return source;
}

function regexLiteral(c: string): string {
  return c.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}
