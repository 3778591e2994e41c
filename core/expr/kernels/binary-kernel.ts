/**
 * Kernels of two operands (arithmetic, comparisons, AND, OR). The row evaluator of each of these
 * evaluates its left operand, and its right one only when the left one did not decide the result
 * (`null + x` is null, `false AND x` is false), so the right operand of the kernel is evaluated
 * only for the rows where the left one did not decide: what the row evaluator never computes
 * cannot fail here either.
 */
import { readerOf } from '../../columnar/column-reader.js';
import type { DataType } from '../../types/data-types.js';
import type { Kernel } from './kernel.js';
import { mapRows } from './kernel-output.js';

/** How a binary expression computes its value from its operands, as its row evaluator does. */
export interface BinaryRule {
  /** True when the left operand's value alone decides the result. */
  decided(left: unknown): boolean;
  /** The result when the left operand decided it. */
  decidedResult(left: unknown): unknown;
  /** The result from both operands. */
  combine(left: unknown, right: unknown): unknown;
}

/** The kernel of a binary expression of type `t`. */
export function binaryKernel(left: Kernel, right: Kernel, t: DataType, rule: BinaryRule): Kernel {
  return (input, active) => {
    const x = readerOf(left(input, active));
    const n = input.batch.numRows;
    const live = input.live(active);
    const undecided = new Uint8Array(n);
    for (let i = 0; i < n; i++)
      undecided[i] = (live === null || live[i] === 1) && !rule.decided(x(i)) ? 1 : 0;
    const y = readerOf(right(input, undecided));
    return mapRows(input, active, t, (i) =>
      undecided[i] === 1 ? rule.combine(x(i), y(i)) : rule.decidedResult(x(i)),
    );
  };
}
