/**
 * How an attempt to commit batch N ended, decided from what its conditional write observed: a pure
 * function, so that both checkpoint stores read their write's outcome by one rule.
 *
 * A commit is one conditional write with two conditions: commit#N must not exist yet, and the head
 * must still be at N-1 under the committing attempt's lease (its epoch and owner). The rule:
 * - commit#N existed: `conflict`. Another attempt committed N first; that decides it, whatever this
 *   attempt's lease, because N is real and must never be committed twice.
 * - otherwise, the head was no longer this attempt's: `lease-lost`. Another invocation took the
 *   lease over (raising the epoch), so this attempt is fenced and its work is discarded.
 * - otherwise: `committed`.
 *
 * The DynamoDB store's commit transaction expresses both conditions: Put commit#N with
 * `attribute_not_exists(pk)` (the first item) and Update head with `(batchId = :previous OR
 * (attribute_not_exists(batchId) AND :previous = :none)) AND epoch = :epoch AND leaseOwner = :owner`
 * (the second); a cancelled transaction's per-item reasons are the observation. The local store
 * creates commits/N with a create-if-absent and its lease is advisory (one writer per checkpoint), so
 * its head condition always holds.
 */
import type { CommitResult } from './checkpoint-store.js';

/**
 * What the commit's conditional write observed: whether commit#N already existed and, when it did
 * not, whether the head was still held under this attempt's lease. (An existing commit decides
 * alone, so a store that only learned that need not know more.)
 */
export type CommitObservation =
  { readonly commitExists: true } | { readonly commitExists: false; readonly leaseHeld: boolean };

/** The outcome of a commit attempt that observed `observation`. */
export function commitDecision(observation: CommitObservation): CommitResult {
  if (observation.commitExists) return 'conflict';
  return observation.leaseHeld ? 'committed' : 'lease-lost';
}
