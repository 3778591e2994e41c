/**
 * A group fold: how the streaming aggregate folds one micro-batch's input into its groups (steps 1
 * and 2 of stateful-aggregate-exec.ts). Two strategies compute the same groups and accumulators:
 * over column batches with integer keys (integer-key-fold.ts), and row by row for keys it does not
 * handle (row-key-fold.ts).
 */
import type { StateStore } from '../state/state-store.js';
import type { ExecutionContext } from './execution-context.js';
import type { Group } from './grouping.js';
import type { PhysicalOperator } from './physical-operator.js';

/** Folds an input into groups. */
export interface GroupFold {
  /**
   * Folds every row `input` produces into `changed` (groups by encoded key, loaded from `store`
   * the first time they are met, copied so the stored version is never mutated, or new). Rows
   * whose group's event time is <= `lateBefore` are left out; returns how many were.
   */
  fold(
    input: PhysicalOperator,
    ctx: ExecutionContext,
    store: StateStore,
    lateBefore: number | undefined,
    changed: Map<string, Group>,
  ): number;
}
