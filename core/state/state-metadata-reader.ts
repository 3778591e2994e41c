/**
 * The state metadata of a checkpoint, as Spark's `state-metadata` source gives it: one row per
 * state store of the latest committed version, with the batches whose state can still be read. The
 * commit log is a contiguous run of batches (older ones are deleted, or expire, from the oldest),
 * so the first retained batch is found by a binary search over it.
 */
import type { CheckpointBackend, CheckpointStore } from '../checkpoint/checkpoint-store.js';
import { listStateStores } from './state-store-reader.js';

/** One state store of a checkpoint, by Spark's column names. */
export interface StateStoreMetadata {
  readonly operatorId: number;
  /** The operator's kind, the head of its state schema (e.g. `aggregate`), or null when unknown. */
  readonly operatorName: string | null;
  readonly stateStoreName: string;
  readonly numPartitions: number;
  /** The oldest batch whose commit, and so whose state version, is still retained. */
  readonly minBatchId: number;
  readonly maxBatchId: number;
}

/** The state stores of `backend`'s latest committed version (none before the first commit). */
export async function readStateMetadata(backend: CheckpointBackend): Promise<StateStoreMetadata[]> {
  const head = await backend.checkpoint.latestCommit();
  if (!head) return [];
  const stores = await listStateStores(backend, head.batchId);
  if (stores.length === 0) return [];
  const minBatchId = await firstRetainedCommit(backend.checkpoint, head.batchId);
  return stores.map((s) => ({
    operatorId: s.operatorId,
    operatorName: s.stateSchema?.match(/^[^(]+/)?.[0] ?? null,
    stateStoreName: s.storeName,
    numPartitions: s.numPartitions,
    minBatchId,
    maxBatchId: head.batchId,
  }));
}

/** The first batch in [0, last] that still has its commit, given that `last` has. */
async function firstRetainedCommit(checkpoint: CheckpointStore, last: number): Promise<number> {
  let low = 0;
  let high = last;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (await checkpoint.getCommit(middle)) high = middle;
    else low = middle + 1;
  }
  return low;
}
