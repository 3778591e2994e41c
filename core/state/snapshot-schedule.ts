/**
 * When a partition whose changes travel in the commit (inline-state.ts) gets its snapshot in the
 * object store. Every partition of every store has a slot, and batch N snapshots the partition whose
 * slot is N modulo the period, if its changes since its last snapshot make one worth writing
 * (state-repository.ts): snapshots are staggered, at most one per batch, rather than every
 * partition writing its whole contents in the same batch.
 * The period is the snapshot interval, or the number of slots when there are more, so that each
 * partition still gets its turn. Between turns its changes merge inline, which keeps the commit
 * bounded by the keys changed since the snapshot, and a budget on the commit (state-repository.ts)
 * bounds the rest.
 */

/** Where a partition's turn comes: stores in manifest-entry order, partitions in order within each. */
export function snapshotSlot(
  entries: readonly string[],
  entry: string,
  partition: number,
  numPartitions: number,
): number {
  return [...entries].sort().indexOf(entry) * numPartitions + partition;
}

/** Whether batch `batchId` is the turn of the partition in `slot`, out of `slots`. */
export function snapshotTurn(
  batchId: number,
  slot: number,
  slots: number,
  interval: number,
): boolean {
  return batchId % Math.max(interval, slots) === slot;
}
