/**
 * Functions that build or reshape strings: concat_ws, lpad, rpad, initcap.
 *
 * As in Spark: `concat_ws` skips null values (only a null separator gives null) and flattens
 * `array<string>` arguments; `lpad`/`rpad` count characters (code points), cut a string longer than
 * the length, and with an empty pad only cut; `initcap` lower-cases the string and upper-cases the
 * first letter of each word, words being separated by spaces only. Any other null argument gives null.
 *
 * These are the binders; the DataFrame API builds the calls in core/api/string-functions.ts.
 */
import { AnalysisError } from '../errors.js';
import type { BoundExpression } from '../expr/bound-expression.js';
import type { FunctionTable } from '../expr/function-table.js';
import { IntegerType, StringType, typeName } from '../types/data-types.js';
import { argumentAs, requireArity } from './function-arguments.js';
import { nullIntolerant } from './function-registry.js';

/** Binders of concat_ws, lpad, rpad and initcap. */
export const stringFormatFunctions: FunctionTable = {
  concat_ws: bindConcatWs,
  lpad: (args) => bindPad('lpad', args, (s, fill) => fill + s),
  rpad: (args) => bindPad('rpad', args, (s, fill) => s + fill),
  initcap: (args) => {
    requireArity('initcap', args, 1);
    const str = argumentAs('initcap', args, 0, StringType);
    return {
      dataType: StringType,
      nullable: str.nullable,
      eval: nullIntolerant([str], (s) => initcap(s as string)),
    };
  },
};

function bindConcatWs(args: readonly BoundExpression[]): BoundExpression {
  if (args.length === 0) {
    throw new AnalysisError('concat_ws() needs a separator as argument 1, then the strings.');
  }
  const separator = argumentAs('concat_ws', args, 0, StringType).eval;
  const parts = args.slice(1).map((a, i) => {
    const t = a.dataType;
    if (t.kind === 'array' && (t.elementType.kind === 'string' || t.elementType.kind === 'null')) {
      return a.eval;
    }
    if (t.kind === 'array') {
      throw new AnalysisError(
        `concat_ws() needs strings or array<string> as argument ${i + 2}, got ${typeName(t)}; cast the array with .cast('array<string>').`,
      );
    }
    return argumentAs('concat_ws', args, i + 1, StringType).eval;
  });
  return {
    dataType: StringType,
    nullable: args[0].nullable,
    eval: (row) => {
      const sep = separator(row);
      if (sep === null) return null;
      const kept: string[] = [];
      for (const part of parts) {
        const v = part(row);
        if (Array.isArray(v)) kept.push(...(v.filter((s) => s !== null) as string[]));
        else if (v !== null) kept.push(v as string);
      }
      return kept.join(sep as string);
    },
  };
}

function bindPad(
  name: string,
  args: readonly BoundExpression[],
  place: (s: string, fill: string) => string,
): BoundExpression {
  requireArity(name, args, 2, 3);
  const operands = [
    argumentAs(name, args, 0, StringType),
    argumentAs(name, args, 1, IntegerType),
    ...(args.length === 3 ? [argumentAs(name, args, 2, StringType)] : []),
  ];
  return {
    dataType: StringType,
    nullable: operands.some((o) => o.nullable),
    eval: nullIntolerant(operands, (s, len, pad = ' ') =>
      padTo(s as string, len as number, pad as string, place),
    ),
  };
}

/** Spark's `UTF8String.lpad`/`rpad`: a longer string (or an empty pad) is cut to `len` characters. */
function padTo(
  s: string,
  len: number,
  pad: string,
  place: (s: string, fill: string) => string,
): string {
  const chars = Array.from(s);
  const missing = len - chars.length;
  if (missing <= 0 || pad === '') return chars.slice(0, Math.max(len, 0)).join('');
  const padChars = Array.from(pad);
  const fill = Array.from({ length: missing }, (_, i) => padChars[i % padChars.length]).join('');
  return place(s, fill);
}

function initcap(s: string): string {
  return s
    .toLowerCase()
    .split(' ')
    .map((word) => {
      const [first, ...rest] = Array.from(word);
      return first === undefined ? '' : first.toUpperCase() + rest.join('');
    })
    .join(' ');
}
