/**
 * Failures in row order. Kernels evaluate column by column, so when several rows of a batch fail,
 * a kernel can meet a later row's failure before an earlier row's, while row evaluators, running
 * row by row, always report the earliest. Whether a batch fails is the same both ways (kernels
 * evaluate exactly the rows row evaluators do); to report the same failure too, a caller whose
 * kernels failed evaluates the batch again row by row and throws the first failure it meets.
 * Evaluation has no side effects, so running it twice changes nothing else.
 */
import type { Column } from '../../columnar/column-batch.js';
import type { Evaluator } from '../bound-expression.js';
import { DropRow } from '../drop-row.js';
import type { Kernel, KernelInput } from './kernel.js';

/**
 * The columns of `kernels` over every row of `input`; when one fails, throws the failure that
 * `evaluators` (the same expressions, row by row, in order) meet first.
 */
export function evaluateColumns(
  input: KernelInput,
  kernels: readonly Kernel[],
  evaluators: readonly Evaluator[],
): Column[] {
  try {
    return kernels.map((kernel) => kernel(input, null));
  } catch (e) {
    throw firstRowFailure(input, evaluators) ?? e;
  }
}

/** The first failure evaluating `evaluators` row by row (a dropped row stops its row), if any. */
function firstRowFailure(input: KernelInput, evaluators: readonly Evaluator[]): unknown {
  for (const row of input.rows()) {
    try {
      for (const evaluate of evaluators) evaluate(row);
    } catch (e) {
      if (!(e instanceof DropRow)) return e;
    }
  }
  return undefined;
}
