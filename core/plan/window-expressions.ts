/**
 * Window expressions in a select (Spark's ExtractWindowExpressions): each one found in the select
 * list is computed by a Window node below the select, as an extra column, and the select reads
 * that column instead, so `select(col('a'), row_number().over(w).plus(1))` works as in Spark.
 */
import { containsExpression, type Expression, replaceExpressions } from '../expr/expression.js';
import type { WindowExpression } from '../expr/expression.js';
import { expressionName } from '../expr/expression-name.js';

/** The name of the Window node's column for its `i`-th window expression. */
export function windowColumnName(i: number): string {
  return `_we${i}`;
}

/**
 * The window expressions of `exprs` and the select list reading their columns (which follow the
 * `inputWidth` input columns), or undefined when there are none.
 */
export function extractWindowExpressions(
  exprs: readonly Expression[],
  inputWidth: number,
): { windowExprs: WindowExpression[]; exprs: Expression[] } | undefined {
  if (!exprs.some((e) => containsExpression(e, (x) => x.kind === 'windowFunction'))) {
    return undefined;
  }
  const windowExprs: WindowExpression[] = [];
  const rewritten = exprs.map((e) => {
    const replaced = replaceExpressions(e, (x) => {
      if (x.kind !== 'windowFunction') return undefined;
      windowExprs.push(x);
      const i = windowExprs.length - 1;
      return { kind: 'column', path: [windowColumnName(i)], ordinal: inputWidth + i };
    });
    // keep Spark's output name for an unaliased window expression
    return e !== replaced && e.kind !== 'alias'
      ? ({ kind: 'alias', child: replaced, name: expressionName(e) } as const)
      : replaced;
  });
  return { windowExprs, exprs: rewritten };
}
