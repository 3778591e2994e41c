/**
 * Checkpoint maintenance: what keeps the checkpoint of a long-running query from growing forever.
 *
 *   1. state    delete state files that no retained version references (state-garbage-collector.ts);
 *   2. log      delete the intents and commits of batches before the retained versions, where the
 *               store keeps them as files (DynamoDB's items expire by their TTL instead);
 *   3. writes   delete temporary files that writers killed mid-write left behind.
 *
 * The retained versions are the last `minBatchesToRetain` commits, as for state in Spark. Every
 * step deletes only what no reader or live writer needs, so maintenance may stop at any point: it
 * stops at its deadline, and the next maintenance finishes the work.
 */
import type { CheckpointBackend } from '../checkpoint/checkpoint-store.js';
import {
  collectStateGarbage,
  DEFAULT_MIN_BATCHES_TO_RETAIN,
  type GarbageCollection,
} from '../state/state-garbage-collector.js';
import type { StateRepository } from '../state/state-repository.js';

/** Maintenance runs after every this many committed batches. */
export const MAINTENANCE_INTERVAL = 10;

/** What one maintenance did. */
export interface CheckpointMaintenance {
  readonly stateFiles: GarbageCollection;
  /** Intents and commits deleted. */
  readonly logEntriesDeleted: number;
  /** Temporary files of killed writes deleted. */
  readonly abandonedWritesDeleted: number;
  /** False when the deadline stopped it before it was done. */
  readonly finished: boolean;
}

/** True when committing batch `batchId` makes maintenance due. */
export function maintenanceDue(batchId: number): boolean {
  return (batchId + 1) % MAINTENANCE_INTERVAL === 0;
}

/** Runs the maintenance steps in order until `deadlineMs` (a clock time). */
export async function maintainCheckpoint(
  backend: CheckpointBackend,
  repository: StateRepository,
  minBatchesToRetain = DEFAULT_MIN_BATCHES_TO_RETAIN,
  deadlineMs = Infinity,
): Promise<CheckpointMaintenance> {
  const { checkpoint, stateObjects } = backend;
  const stateFiles = await collectStateGarbage(
    checkpoint,
    stateObjects,
    repository,
    minBatchesToRetain,
    deadlineMs,
  );
  const unfinished = { stateFiles, logEntriesDeleted: 0, abandonedWritesDeleted: 0 };
  if (!stateFiles.finished || Date.now() >= deadlineMs) return { ...unfinished, finished: false };
  const head = await checkpoint.latestCommit();
  // The log goes only as far back as state garbage collection has read it.
  const logEntriesDeleted = head
    ? ((await checkpoint.forgetBatchesBefore?.(head.batchId - minBatchesToRetain + 1)) ?? 0)
    : 0;
  if (Date.now() >= deadlineMs) return { ...unfinished, logEntriesDeleted, finished: false };
  const abandonedWritesDeleted = (await stateObjects.removeAbandonedWrites?.()) ?? 0;
  return { stateFiles, logEntriesDeleted, abandonedWritesDeleted, finished: true };
}
