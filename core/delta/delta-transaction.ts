/**
 * One optimistic write to a Delta table, shared by the streaming sink and the batch writer:
 *   1. catch up  read the log (a writer with no snapshot yet). A writer that has one tries the
 *                version after it at once: if another writer took that version, step 6 catches up,
 *                so the log is not listed before every write of a writer that is usually alone.
 *                (The streaming sink reads the log first after a write that lost a race: its
 *                table has other writers, and its snapshot is likely behind.)
 *   2. done?     if the table already holds the write (a streaming batch whose txn is in, a batch
 *                write in mode ignore to a table that exists), stop.
 *   3. check     the table's protocol, schema, partitioning and properties admit the write (another
 *                writer may have created or changed the table meanwhile).
 *   4. write     the data files, under names no other writer or attempt uses.
 *   5. commit    create log version (latest + 1) with put-if-absent.
 *   6. race      if another writer took that version: catch up (the winner's commit, which the
 *                commit's read-back found, is not read again; the log is listed only when the
 *                snapshot was a writer's last one, not one just read); stop if the write is now
 *                done (a concurrent attempt of the same batch won); else check again, write the
 *                data files anew if the winner created the table or changed its metadata (their
 *                layout follows the partition columns and NOT NULL columns), and go to 5 with the
 *                actions rebuilt on the new snapshot (an overwrite removes what is there now); at
 *                most maxAttempts times, then fail with the retriable DeltaConflictError.
 *   7. checkpoint  if the new version is due for a checkpoint, write it, best effort
 *                (delta-checkpoint.ts): the write has succeeded whatever becomes of it.
 * A crash anywhere leaves either no new version (the data files are unreferenced garbage) or the whole
 * write; readers only ever see files that a version lists.
 */
import { randomUUID } from 'node:crypto';
import type { DeltaConflictError } from '../errors.js';
import type { StructType } from '../types/data-types.js';
import {
  type AddFileAction,
  DELTA_READER_VERSION,
  DELTA_WRITER_VERSION,
  type DeltaAction,
} from './delta-actions.js';
import { checkpointIfDue, type CheckpointOutcome } from './delta-checkpoint.js';
import type { DeltaLog } from './delta-log.js';
import { toDeltaSchemaString } from './delta-schema.js';
import { type DeltaCommit, DeltaSnapshot } from './delta-snapshot.js';

/** What the commit loop needs to know of one write. */
export interface DeltaWrite {
  /** True when the table as `snapshot` has it (undefined: no table) already holds this write. */
  isDone(snapshot: DeltaSnapshot | undefined): boolean;
  /** Throws when the write may not go to the table as `snapshot` has it (undefined: to create it). */
  check(snapshot: DeltaSnapshot | undefined): void;
  /** Writes the data files in the layout of `snapshot`'s table, or of the table the write creates. */
  writeFiles(snapshot: DeltaSnapshot | undefined): Promise<AddFileAction[]>;
  /** The actions of the commit on top of `snapshot` that adds `adds`. */
  actions(snapshot: DeltaSnapshot | undefined, adds: readonly AddFileAction[]): DeltaAction[];
  /** The error for a write that lost the race for versions `first` to `last` in `attempts` attempts. */
  conflict(first: number, last: number, attempts: number): DeltaConflictError;
}

/** How a write ended, and how many races for a version it lost on the way. */
export type DeltaWriteOutcome = (
  | {
      readonly kind: 'committed';
      /** The table right after the write's version. */
      readonly snapshot: DeltaSnapshot;
      /** The checkpoint the version was due for; undefined when it was not due for one. */
      readonly checkpoint?: CheckpointOutcome;
    }
  | { readonly kind: 'done-before'; readonly snapshot: DeltaSnapshot | undefined }
) & { readonly racesLost: number };

/** The snapshot a write starts from: the writer's last one, or one read from the log just now. */
export interface WriteStart {
  readonly snapshot: DeltaSnapshot | undefined;
  /** True when `snapshot` was the log's latest version as it was read, not a writer's last one. */
  readonly latest: boolean;
}

/**
 * Runs `write` against the table of `log` as the module doc describes, starting from `start` (the
 * writer's snapshot, if it has one; else the log is read). Throws what `check` throws, and
 * DeltaConflictError after `maxAttempts` lost races.
 */
export async function commitWrite(
  log: DeltaLog,
  start: WriteStart | undefined,
  write: DeltaWrite,
  maxAttempts: number,
): Promise<DeltaWriteOutcome> {
  let snapshot = start ? start.snapshot : await log.snapshot();
  // whether `snapshot` was the log's latest version when it was read, rather than a writer's last
  let caughtUp = start?.latest ?? true;
  if (write.isDone(snapshot)) return { kind: 'done-before', snapshot, racesLost: 0 };
  write.check(snapshot);
  let filesFor = snapshot?.metadata;
  let adds = await write.writeFiles(snapshot);
  const firstVersion = (snapshot?.version ?? -1) + 1;
  for (let attempts = 1; ; attempts++) {
    const version = (snapshot?.version ?? -1) + 1;
    const actions = write.actions(snapshot, adds);
    const attempt = await log.commit(version, actions);
    if (attempt.kind === 'created') {
      const committed = DeltaSnapshot.replay(log.table, snapshot, [{ version, actions }]);
      const checkpoint = await checkpointIfDue(log.store, committed);
      return {
        kind: 'committed',
        snapshot: committed,
        ...(checkpoint ? { checkpoint } : {}),
        racesLost: attempts - 1,
      };
    }
    snapshot = await catchUp(log, snapshot, attempt.winner, caughtUp);
    caughtUp = true;
    if (write.isDone(snapshot)) return { kind: 'done-before', snapshot, racesLost: attempts };
    if (attempts === maxAttempts) throw write.conflict(firstVersion, version, attempts);
    write.check(snapshot);
    if (snapshot?.metadata !== filesFor) {
      filesFor = snapshot?.metadata;
      adds = await write.writeFiles(snapshot);
    }
  }
}

/**
 * The table after a lost race for the version after `snapshot`. A snapshot that was the latest
 * when it was read becomes the latest plus the winner's commit, read back by the lost attempt:
 * the next version is tried without listing the log, since racing writers lose to one another
 * version after version, and each listing is a round trip more per loss. A writer's last snapshot
 * may be many versions behind, so the log is listed once to catch up.
 */
function catchUp(
  log: DeltaLog,
  snapshot: DeltaSnapshot | undefined,
  winner: DeltaCommit | undefined,
  caughtUp: boolean,
): Promise<DeltaSnapshot | undefined> {
  if (caughtUp && winner)
    return Promise.resolve(DeltaSnapshot.replay(log.table, snapshot, [winner]));
  return log.snapshot(snapshot, winner ? [winner] : []);
}

/** The protocol and metaData actions that create a table of `schema`. */
export function createTableActions(
  schema: StructType,
  partitionColumns: readonly string[],
  configuration: Readonly<Record<string, string>>,
  now: number,
): DeltaAction[] {
  return [
    {
      protocol: { minReaderVersion: DELTA_READER_VERSION, minWriterVersion: DELTA_WRITER_VERSION },
    },
    {
      metaData: {
        id: randomUUID(),
        format: { provider: 'parquet', options: {} },
        schemaString: toDeltaSchemaString(schema),
        partitionColumns,
        configuration,
        createdTime: now,
      },
    },
  ];
}

/** `remove` actions taking every file of `snapshot` out of the table (a complete or overwrite write). */
export function removeAllActions(snapshot: DeltaSnapshot, now: number): DeltaAction[] {
  return [...snapshot.files.values()].map((add) => ({
    remove: {
      path: add.path,
      deletionTimestamp: now,
      dataChange: true,
      extendedFileMetadata: true,
      partitionValues: add.partitionValues,
      size: add.size,
    },
  }));
}
