/**
 * Range checks for integral results: int is 32-bit, long is limited to JS's safe integers. A result
 * outside the type's range is an error (it cannot be represented), never a silent wrap-around.
 */
import { ExecutionError } from '../errors.js';
import type { DataType } from '../types/data-types.js';

/** The smallest and largest value of an integral type. */
export function integralRange(t: DataType): [number, number] {
  return t.kind === 'int'
    ? [-2147483648, 2147483647]
    : [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER];
}

/**
 * A check that passes values of `t` through and throws ExecutionError with `message(n)` for integral
 * results outside `t`'s range; doubles pass unchecked.
 */
export function rangeCheck(t: DataType, message: (n: number) => string): (n: number) => number {
  if (t.kind === 'double') return (n) => n;
  const [min, max] = integralRange(t);
  return (n) => {
    if (n < min || n > max) throw new ExecutionError(message(n));
    return n;
  };
}
