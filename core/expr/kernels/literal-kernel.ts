/**
 * Literals: the constant in every row.
 */
import type { Kernel } from './kernel.js';

/** The kernel of a literal `value`. */
export function literalKernel(value: unknown): Kernel {
  return (input) => {
    const n = input.batch.numRows;
    return { kind: 'values', length: n, values: new Array<unknown>(n).fill(value) };
  };
}
