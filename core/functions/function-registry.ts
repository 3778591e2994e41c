/**
 * What the function families share: each (string, math, datetime, JSON) lives in its own module and
 * contributes a table of binders (core/expr/function-table.ts); builtin-functions.ts assembles them.
 */
import type { BoundExpression } from '../expr/bound-expression.js';

/**
 * Wraps a function of non-null argument values so that any null argument yields null, SQL's rule
 * for nearly every scalar function.
 */
export function nullIntolerant(
  args: readonly BoundExpression[],
  fn: (...values: unknown[]) => unknown,
): BoundExpression['eval'] {
  if (args.length === 1) {
    const a = args[0].eval;
    return (row) => {
      const x = a(row);
      return x === null ? null : fn(x);
    };
  }
  if (args.length === 2) {
    const a = args[0].eval;
    const b = args[1].eval;
    return (row) => {
      const x = a(row);
      if (x === null) return null;
      const y = b(row);
      return y === null ? null : fn(x, y);
    };
  }
  const evals = args.map((e) => e.eval);
  return (row) => {
    const values = new Array<unknown>(evals.length);
    for (let i = 0; i < evals.length; i++) {
      const v = evals[i](row);
      if (v === null) return null;
      values[i] = v;
    }
    return fn(...values);
  };
}
