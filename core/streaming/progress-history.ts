/**
 * A query's recent progress read back from its checkpoint: each commit stores its batch's progress
 * record (CommitRecord.progress), so history needs no log of its own and survives restarts and
 * Lambda invocations. Commits written before progress was stored, or that expired from the commit
 * log, have none and are skipped.
 */
import type { CheckpointStore } from '../checkpoint/checkpoint-store.js';
import type { StreamingQueryProgress } from './progress.js';

/** How many progress records `progressHistory` returns unless told otherwise. */
export const DEFAULT_HISTORY_LENGTH = 20;

/**
 * The progress records of the last `limit` committed batches, oldest first. Each is read from its
 * commit (one read per batch), since a backend's head may hold the commit without its progress.
 */
export async function progressHistory(
  checkpoint: CheckpointStore,
  limit = DEFAULT_HISTORY_LENGTH,
): Promise<StreamingQueryProgress[]> {
  const head = await checkpoint.latestCommit();
  if (!head) return [];
  const first = Math.max(0, head.batchId - limit + 1);
  const batchIds = Array.from({ length: head.batchId - first + 1 }, (_, i) => first + i);
  const commits = await Promise.all(batchIds.map((b) => checkpoint.getCommit(b)));
  return commits.flatMap((c) =>
    c?.progress === undefined ? [] : [c.progress as unknown as StreamingQueryProgress],
  );
}
