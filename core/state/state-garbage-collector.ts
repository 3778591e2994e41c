/**
 * Garbage collection of state files. Keeps every file that a retained version references — the
 * manifests of the last `minBatchesToRetain` committed batches and the snapshots and deltas they
 * name — and deletes the rest: files of older versions and files of attempts that never committed.
 * Files of batches after the last commit are never touched, since an attempt may be writing them now.
 * A collection may stop at any point (at its deadline): it deletes only files it has shown unreferenced.
 */
import type { CheckpointStore } from '../checkpoint/checkpoint-store.js';
import type { ObjectStore } from '../checkpoint/object-store.js';
import { type StateRepository, stateVersionRefOf } from './state-repository.js';

/** Default number of committed versions whose state stays loadable. */
export const DEFAULT_MIN_BATCHES_TO_RETAIN = 100;

/** What one collection did. */
export interface GarbageCollection {
  readonly deleted: number;
  readonly kept: number;
  /** False when the deadline came before every unreferenced file was deleted. */
  readonly finished: boolean;
}

/** Deletes unreferenced state files of batches up to the last commit, stopping at `deadlineMs` (a clock time). */
export async function collectStateGarbage(
  checkpoint: CheckpointStore,
  stateObjects: ObjectStore,
  repository: StateRepository,
  minBatchesToRetain = DEFAULT_MIN_BATCHES_TO_RETAIN,
  deadlineMs = Infinity,
): Promise<GarbageCollection> {
  const inTime = () => Date.now() < deadlineMs;
  const head = await checkpoint.latestCommit();
  if (!head) return { deleted: 0, kept: 0, finished: true };
  const referenced = await referencedFiles(
    checkpoint,
    repository,
    head.batchId,
    minBatchesToRetain,
    inTime,
  );
  if (referenced === 'unreadable') return { deleted: 0, kept: 0, finished: true };
  if (referenced === 'out of time') return { deleted: 0, kept: 0, finished: false };
  const keys = await stateObjects.list('state/');
  const garbage = keys.filter(
    (k) => !referenced.has(k) && (batchOf(k) ?? Infinity) <= head.batchId,
  );
  let deleted = 0;
  for (const key of garbage) {
    if (!inTime()) break;
    await stateObjects.delete(key);
    deleted++;
  }
  return { deleted, kept: keys.length - deleted, finished: deleted === garbage.length };
}

/**
 * Every file the retained versions reference; 'unreadable' when a retained commit is missing, 'out
 * of time' when `inTime` turned false before all were read (either way, nothing may be deleted).
 */
async function referencedFiles(
  checkpoint: CheckpointStore,
  repository: StateRepository,
  headBatchId: number,
  minBatchesToRetain: number,
  inTime: () => boolean,
): Promise<Set<string> | 'unreadable' | 'out of time'> {
  const referenced = new Set<string>();
  const versions = new Set<string>();
  const first = Math.max(0, headBatchId - minBatchesToRetain + 1);
  for (let batchId = first; batchId <= headBatchId; batchId++) {
    if (!inTime()) return 'out of time';
    const commit = await checkpoint.getCommit(batchId);
    if (!commit) return 'unreadable';
    const version = stateVersionRefOf(commit);
    // batches that changed no state name the version they started from
    const name = version?.manifestKey ?? `inline#${version?.batchId}`;
    if (!version || versions.has(name)) continue;
    versions.add(name);
    if (version.manifestKey) referenced.add(version.manifestKey);
    const manifest = await repository.manifestOf(version);
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
