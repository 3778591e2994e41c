/**
 * Kernels of one operand (NOT, IS NULL, casts): the operand is evaluated for the selected rows,
 * then the result is computed from its value at each of them, by the same function the row
 * evaluator applies.
 */
import { readerOf } from '../../columnar/column-reader.js';
import type { DataType } from '../../types/data-types.js';
import type { Kernel } from './kernel.js';
import { mapRows } from './kernel-output.js';

/** The kernel of `result(operand value)` for an expression of type `t`. */
export function unaryKernel(
  operand: Kernel,
  t: DataType,
  result: (value: unknown) => unknown,
): Kernel {
  return (input, active) => {
    const value = readerOf(operand(input, active));
    return mapRows(input, active, t, (i) => result(value(i)));
  };
}
