/**
 * A snapshot: the state of a Delta table at one version, obtained by replaying the actions of its
 * commits in version order ("Action Reconciliation" in the Delta protocol):
 * - the latest `protocol` and `metaData` win;
 * - an `add` puts a data file in the table, a later `remove` of the same path takes it out again and
 *   leaves a tombstone (kept for checkpoints, until it expires) that a later `add` clears;
 * - the latest `txn` of each appId is that application's progress.
 *
 * Replay starts from version 0, or from a checkpoint: the reconciled actions of one version, replayed
 * like a commit of that version. It is pure (no I/O): DeltaLog reads the files and hands them over.
 * A snapshot is immutable; `replay` with a previous snapshot applies only the commits after it, so a
 * writer that keeps its snapshot pays only for new versions. Every snapshot has checked that Sluice
 * may read the table (reader version 1), so everything built on one can rely on it.
 */
import { DeltaTableError } from '../errors.js';
import { sameType, type StructType } from '../types/data-types.js';
import {
  type AddFileAction,
  DELTA_READER_VERSION,
  type DeltaAction,
  type MetadataAction,
  type ProtocolAction,
  type RemoveFileAction,
  type TransactionAction,
} from './delta-actions.js';
import { parseDeltaSchema } from './delta-schema.js';
import { fromLogPath } from './log-paths.js';
import { isPartitionType } from './partition-values.js';

/** The actions of one log version. */
export interface DeltaCommit {
  readonly version: number;
  readonly actions: readonly DeltaAction[];
}

/** The state of a Delta table at one version. */
export class DeltaSnapshot {
  private constructor(
    /** The table's location, for messages. */
    readonly table: string,
    /** The log version this snapshot reflects. */
    readonly version: number,
    /** The protocol versions the table requires. */
    readonly protocol: ProtocolAction,
    /** The table's metadata (id, partition columns, properties). */
    readonly metadata: MetadataAction,
    /** The table's schema, partition columns included. */
    readonly schema: StructType,
    /** The table's data files by object key (relative to the table root). */
    readonly files: ReadonlyMap<string, AddFileAction>,
    /** Files removed from the table, by object key: the tombstones a checkpoint keeps. */
    readonly tombstones: ReadonlyMap<string, RemoveFileAction>,
    /** The latest txn of each application, by appId. */
    readonly transactions: ReadonlyMap<string, TransactionAction>,
  ) {}

  /**
   * The snapshot after `commits` (consecutive versions following `previous`, or from version 0 when
   * there is none). Throws DeltaTableError naming the table when the versions do not follow on, the
   * first version lacks protocol or metadata, or the table needs a Delta reader newer than Sluice's.
   */
  static replay(
    table: string,
    previous: DeltaSnapshot | undefined,
    commits: readonly DeltaCommit[],
  ): DeltaSnapshot {
    return DeltaSnapshot.build(table, previous, previous?.version ?? -1, commits);
  }

  /**
   * The snapshot of a checkpoint (the reconciled actions of `checkpoint.version`) followed by
   * `commits`, consecutive versions after it. Throws as `replay` does.
   */
  static fromCheckpoint(
    table: string,
    checkpoint: DeltaCommit,
    commits: readonly DeltaCommit[],
  ): DeltaSnapshot {
    return DeltaSnapshot.build(
      table,
      undefined,
      checkpoint.version - 1,
      [checkpoint, ...commits],
      true,
    );
  }

  private static build(
    table: string,
    previous: DeltaSnapshot | undefined,
    startVersion: number,
    commits: readonly DeltaCommit[],
    startsWithCheckpoint = false,
  ): DeltaSnapshot {
    let version = startVersion;
    let protocol = previous?.protocol;
    let metadata = previous?.metadata;
    const files = new Map(previous?.files);
    const tombstones = new Map(previous?.tombstones);
    const transactions = new Map(previous?.transactions);
    for (const [i, commit] of commits.entries()) {
      if (commit.version !== version + 1) {
        throw new DeltaTableError(
          `Delta table ${table}: the log jumps from version ${version} to ${commit.version}; version ${version + 1} is missing, restore it from a backup.`,
        );
      }
      version = commit.version;
      const entry = (kind: string) =>
        `${startsWithCheckpoint && i === 0 ? 'the checkpoint of version' : 'log version'} ${version}, ${kind} action`;
      for (const action of commit.actions) {
        if ('protocol' in action) protocol = action.protocol;
        else if ('metaData' in action) metadata = action.metaData;
        else if ('add' in action) {
          const key = fromLogPath(action.add.path, table, entry('add'));
          files.set(key, action.add);
          tombstones.delete(key);
        } else if ('remove' in action) {
          const key = fromLogPath(action.remove.path, table, entry('remove'));
          files.delete(key);
          tombstones.set(key, action.remove);
        } else if ('txn' in action) transactions.set(action.txn.appId, action.txn);
      }
    }
    if (!protocol || !metadata) {
      throw new DeltaTableError(
        `Delta table ${table}: the log up to version ${version} has no ${protocol ? 'metaData' : 'protocol'} action; the log is damaged.`,
      );
    }
    checkReadable(table, protocol);
    const schema =
      previous && metadata === previous.metadata ? previous.schema : tableSchema(table, metadata);
    return new DeltaSnapshot(
      table,
      version,
      protocol,
      metadata,
      schema,
      files,
      tombstones,
      transactions,
    );
  }

  /** The columns the table is partitioned by. */
  get partitionColumns(): readonly string[] {
    return this.metadata.partitionColumns;
  }

  /** The schema of the data files: the table's columns without the partition columns. */
  get dataSchema(): StructType {
    const partitions = new Set(this.partitionColumns);
    return { kind: 'struct', fields: this.schema.fields.filter((f) => !partitions.has(f.name)) };
  }

  /** The latest txn version `appId` committed, or undefined when it never wrote to the table. */
  transactionVersion(appId: string): number | undefined {
    return this.transactions.get(appId)?.version;
  }

  /** True when this table's schema has the same columns, in order and of the same types, as `schema`. */
  hasSchema(schema: StructType): boolean {
    return sameType(this.schema, schema);
  }
}

function checkReadable(table: string, protocol: ProtocolAction): void {
  if (protocol.minReaderVersion > DELTA_READER_VERSION) {
    throw new DeltaTableError(
      `Delta table ${table} needs a Delta reader of version ${protocol.minReaderVersion} (for column mapping, deletion vectors or other table features); Sluice reads version ${DELTA_READER_VERSION}. Read it with an engine that supports those features.`,
    );
  }
}

function tableSchema(table: string, metadata: MetadataAction): StructType {
  const schema = parseDeltaSchema(metadata.schemaString, table);
  for (const column of metadata.partitionColumns) {
    const f = schema.fields.find((g) => g.name === column);
    if (!f || !isPartitionType(f.dataType)) {
      throw new DeltaTableError(
        `Delta table ${table}: partition column '${column}' is ${f ? 'not of an atomic type' : 'not in the schema'}; the log is damaged.`,
      );
    }
  }
  return schema;
}
