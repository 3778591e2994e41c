/**
 * Garbage collection of state files. Keeps every file that a retained version references — the
 * manifests of the last `minBatchesToRetain` committed batches and the snapshots and deltas they
 * name — and deletes the rest: files of older versions and files of attempts that never committed.
 * Files of batches after the last commit are never touched, since an attempt may be writing them now.
 */
import type { CheckpointStore } from '../checkpoint/checkpoint-store.js';
import type { ObjectStore } from '../checkpoint/object-store.js';
import type { StateRepository } from './state-repository.js';

/** Default number of committed versions whose state stays loadable. */
export const DEFAULT_MIN_BATCHES_TO_RETAIN = 100;

/** What one collection did. */
export interface GarbageCollection {
  readonly deleted: number;
  readonly kept: number;
}

/** Deletes unreferenced state files of batches up to the last commit. */
export async function collectStateGarbage(
  checkpoint: CheckpointStore,
  stateObjects: ObjectStore,
  repository: StateRepository,
  minBatchesToRetain = DEFAULT_MIN_BATCHES_TO_RETAIN,
): Promise<GarbageCollection> {
  const head = await checkpoint.latestCommit();
  if (!head) return { deleted: 0, kept: 0 };
  const referenced = await referencedFiles(
    checkpoint,
    repository,
    head.batchId,
    minBatchesToRetain,
  );
  if (!referenced) return { deleted: 0, kept: 0 };
  const keys = await stateObjects.list('state/');
  const garbage = keys.filter(
    (k) => !referenced.has(k) && (batchOf(k) ?? Infinity) <= head.batchId,
  );
  for (const key of garbage) await stateObjects.delete(key);
  return { deleted: garbage.length, kept: keys.length - garbage.length };
}

/** Every file the retained versions reference, or undefined when a retained commit cannot be read (then nothing is deleted). */
async function referencedFiles(
  checkpoint: CheckpointStore,
  repository: StateRepository,
  headBatchId: number,
  minBatchesToRetain: number,
): Promise<Set<string> | undefined> {
  const referenced = new Set<string>();
  const first = Math.max(0, headBatchId - minBatchesToRetain + 1);
  for (let batchId = first; batchId <= headBatchId; batchId++) {
    const commit = await checkpoint.getCommit(batchId);
    if (!commit) return undefined;
    if (!commit.stateManifest) continue;
    referenced.add(commit.stateManifest);
    const manifest = await repository.readManifest(commit.stateManifest, batchId);
    for (const partitions of Object.values(manifest.operators)) {
      for (const files of partitions) {
        if (files.snapshot) referenced.add(files.snapshot);
        for (const delta of files.deltas) referenced.add(delta);
      }
    }
  }
  return referenced;
}

/** The batch id in a state file name (`.../<batchId>-<attempt>.<kind>`). */
function batchOf(key: string): number | undefined {
  const m = /\/(\d{20})-[^/]+$/.exec(key);
  return m ? Number(m[1]) : undefined;
}
