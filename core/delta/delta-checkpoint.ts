/**
 * Delta checkpoints: after committing version v with v a multiple of `delta.checkpointInterval`
 * (default 10; never version 0), a writer stores the table's reconciled state at v as
 * `_delta_log/<v>.checkpoint.parquet` and then points `_delta_log/_last_checkpoint` at it, so that a
 * reader loading the table reads one Parquet file and the commits after it instead of every commit.
 *
 * A checkpoint holds, as the protocol requires: the protocol, the metadata, the latest txn of each
 * appId, every live file (`add`), and the tombstones (`remove`) younger than
 * `delta.deletedFileRetentionDuration`; file actions with dataChange false, since a checkpoint
 * changes no data. Never commitInfo.
 *
 * Writing one is best effort: the commit before it is the table's truth and stands whatever happens
 * to its checkpoint. A failure is not thrown (the batch or write that committed succeeded); it is
 * returned as a `failed` outcome and emitted as a process warning (code SLUICE_DELTA_CHECKPOINT), so
 * it shows in logs; readers then replay from the previous checkpoint, and the next due version tries
 * again. Two writers writing the same checkpoint write the same state, so either file may win.
 */
import type { ObjectStore } from '../checkpoint/object-store.js';
import { encodeCheckpoint } from './checkpoint-file.js';
import type { DeltaAction } from './delta-actions.js';
import type { DeltaSnapshot } from './delta-snapshot.js';
import { encodeLastCheckpoint, LAST_CHECKPOINT_KEY } from './last-checkpoint.js';
import { checkpointKey } from './log-segment.js';
import { checkpointInterval, deletedFileRetentionMs } from './table-properties.js';

/** The warning code of a checkpoint that could not be written. */
export const CHECKPOINT_WARNING_CODE = 'SLUICE_DELTA_CHECKPOINT';

/** What became of the checkpoint a commit was due for. */
export type CheckpointOutcome =
  | {
      readonly kind: 'written';
      readonly version: number;
      /** The checkpoint file's key under the table root. */
      readonly key: string;
      /** Actions (rows) in the checkpoint. */
      readonly size: number;
      readonly sizeInBytes: number;
    }
  | { readonly kind: 'failed'; readonly version: number; readonly error: Error };

/**
 * The reconciled actions of `snapshot` that its checkpoint holds; tombstones deleted at or before
 * `now` minus the table's retention are left out.
 */
export function checkpointActions(snapshot: DeltaSnapshot, now: number): DeltaAction[] {
  const retention = deletedFileRetentionMs(snapshot.metadata.configuration, snapshot.table);
  const actions: DeltaAction[] = [{ protocol: snapshot.protocol }, { metaData: snapshot.metadata }];
  for (const txn of snapshot.transactions.values()) actions.push({ txn });
  for (const add of snapshot.files.values()) actions.push({ add: { ...add, dataChange: false } });
  for (const remove of snapshot.tombstones.values()) {
    if ((remove.deletionTimestamp ?? 0) > now - retention) {
      actions.push({ remove: { ...remove, dataChange: false } });
    }
  }
  return actions;
}

/**
 * Writes the checkpoint of `snapshot` (just committed to the table rooted at `store`) if its version
 * is due for one; undefined when it is not. Never throws: see the module doc.
 */
export async function checkpointIfDue(
  store: ObjectStore,
  snapshot: DeltaSnapshot,
  now = Date.now(),
): Promise<CheckpointOutcome | undefined> {
  const { version } = snapshot;
  try {
    const interval = checkpointInterval(snapshot.metadata.configuration, snapshot.table);
    if (version === 0 || version % interval !== 0) return undefined;
    return await writeCheckpoint(store, snapshot, now);
  } catch (e) {
    const error = e instanceof Error ? e : new Error(String(e));
    process.emitWarning(
      `Delta table ${snapshot.table}: the checkpoint of version ${version} could not be written (${error.message}); the commit stands, readers replay the log from the previous checkpoint, and the next due version writes one again.`,
      { type: 'DeltaCheckpointWarning', code: CHECKPOINT_WARNING_CODE },
    );
    return { kind: 'failed', version, error };
  }
}

/** Writes the checkpoint of `snapshot` and then `_last_checkpoint`; throws what the store throws. */
export async function writeCheckpoint(
  store: ObjectStore,
  snapshot: DeltaSnapshot,
  now = Date.now(),
): Promise<CheckpointOutcome> {
  const actions = checkpointActions(snapshot, now);
  const bytes = encodeCheckpoint(actions);
  const key = checkpointKey(snapshot.version);
  await store.put(key, bytes);
  await store.put(
    LAST_CHECKPOINT_KEY,
    encodeLastCheckpoint({
      version: snapshot.version,
      size: actions.length,
      sizeInBytes: bytes.byteLength,
      numOfAddFiles: snapshot.files.size,
    }),
  );
  return {
    kind: 'written',
    version: snapshot.version,
    key,
    size: actions.length,
    sizeInBytes: bytes.byteLength,
  };
}
