/**
 * The built-in scalar functions, by name. Each family of functions (string, math, datetime, JSON)
 * lives in its own module and contributes a table of binders; binding a call looks the name up here.
 */
import type { BoundExpression } from '../expr/bound-expression.js';
import type { FunctionCall } from '../expr/expression.js';

/**
 * Binds one call: given its already-bound arguments, returns the compiled function.
 * Throws an AnalysisError naming the function when argument types are wrong.
 */
export type FunctionBinder = (
  args: readonly BoundExpression[],
  call: FunctionCall,
) => BoundExpression;

/** A family of functions: name to binder. */
export type FunctionTable = Readonly<Record<string, FunctionBinder>>;

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
