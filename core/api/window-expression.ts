/**
 * `fn OVER (window)`: turns a window function call (row_number(), lag(...), ...) or an aggregate
 * into a window expression, for `Column.over` and SQL's OVER. Anything else is refused by name.
 */
import { AnalysisError } from '../errors.js';
import type {
  Expression,
  WindowExpression,
  WindowFunctionName,
  WindowSpec,
} from '../expr/expression.js';
import { expressionName } from '../expr/expression-name.js';

/** The functions that need OVER. */
export const WINDOW_FUNCTION_NAMES: readonly WindowFunctionName[] = [
  'row_number',
  'rank',
  'dense_rank',
  'ntile',
  'lag',
  'lead',
  'first_value',
  'last_value',
];

/** `fn` computed over `spec`; an AnalysisError when `fn` is neither a window function nor an aggregate. */
export function windowed(fn: Expression, spec: WindowSpec): WindowExpression {
  if (fn.kind === 'aggregate') return { kind: 'windowFunction', fn, spec };
  const name = fn.kind === 'call' ? (fn.name as WindowFunctionName) : undefined;
  if (fn.kind === 'call' && name && WINDOW_FUNCTION_NAMES.includes(name)) {
    return { kind: 'windowFunction', fn: { kind: 'windowCall', name, args: fn.args }, spec };
  }
  throw new AnalysisError(
    `${expressionName(fn)} is not a window function or an aggregate, so it cannot be used with OVER; use one of ${WINDOW_FUNCTION_NAMES.join(', ')}, or count, sum, avg, min, max, first, last, collect_list.`,
  );
}
