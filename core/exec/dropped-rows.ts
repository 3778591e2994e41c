/**
 * Dropped rows: the rows an expression dropped while a batch was evaluated (DROPMALFORMED), added
 * to the batch's progress counters under their reasons, one per row, as the row operators count them.
 */
import type { KernelInput } from '../expr/kernels/kernel.js';
import { count, type ExecutionContext } from './execution-context.js';

/** Adds the rows `input`'s expressions dropped to the counters, by reason. */
export function countDrops(ctx: ExecutionContext, input: KernelInput): void {
  for (const [reason, n] of input.dropReasons) count(ctx, reason, n);
}
