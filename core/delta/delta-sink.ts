/**
 * DeltaSink: writes a streaming query's output into a Delta Lake table, on the local filesystem or on
 * S3, exactly once per batch (DESIGN.md section 4).
 *
 * Exactly-once rests on the table's own log: every commit carries a `txn` action {appId: the query's
 * id, version: the batch id}, in the same atomic log entry as the batch's data files. A batch that is
 * run again (its engine commit did not land) finds its txn version in the log and writes nothing.
 *
 * One batch (`addBatch`):
 *   1. catch up  read the log versions written since this sink last looked.
 *   2. skip      if the table's txn version for appId is >= batchId, the batch is in: stop.
 *   3. check     the table's protocol, schema, partitioning and properties admit this write (another
 *                writer may have created or changed the table since the query started).
 *   4. write     the data files, under names no other writer or attempt uses.
 *   5. commit    create log version (latest + 1) with put-if-absent: commitInfo, protocol and metaData
 *                when creating the table, txn, `remove` of every current file in complete mode, and
 *                `add` of the new files.
 *   6. race      if another writer took that version: catch up; if the batch is now in (a concurrent
 *                attempt of the same query won), stop; else check again, write the data files anew
 *                if the winner created the table or changed its metadata (their layout follows the
 *                partition columns and NOT NULL columns), and go to 5 with the actions rebuilt on the
 *                new snapshot (complete mode removes what is there now); at most maxCommitAttempts
 *                times, then fail with the retriable DeltaConflictError.
 * A crash anywhere leaves either no new version (the data files are unreferenced garbage) or the whole
 * batch; readers only ever see files that a version lists.
 *
 * Output modes are Delta's streaming sink's: append adds the batch's rows, complete replaces the
 * table's content in one version. Update mode has no meaning for a table of files without keys and is
 * refused when the query starts.
 */
import { randomUUID } from 'node:crypto';
import {
  DeltaConflictError,
  InvalidOptionError,
  SinkError,
  UnsupportedOperationError,
} from '../errors.js';
import { type ParquetCompression, writeCodec } from '../io/parquet.js';
import type { OutputMode, Sink, SinkContext } from '../sinks/sink.js';
import type { StructType } from '../types/data-types.js';
import type { Row } from '../types/row.js';
import { writeDataFiles } from './data-file-writer.js';
import {
  type AddFileAction,
  DELTA_READER_VERSION,
  DELTA_WRITER_VERSION,
  type DeltaAction,
} from './delta-actions.js';
import { DeltaLog, type DeltaTableLocation } from './delta-log.js';
import { toDeltaSchemaString } from './delta-schema.js';
import { DeltaSnapshot } from './delta-snapshot.js';
import { checkPartitioning, checkWritable } from './write-checks.js';

/** Options of a {@link DeltaSink}. */
export interface DeltaSinkOptions {
  /**
   * The columns to partition the table by, as Hive-style directories (`category=books/`). Applies
   * when the sink creates the table; an existing table keeps its partitioning, and giving different
   * columns for it is an error.
   * @default the existing table's partition columns, or none
   */
  readonly partitionBy?: readonly string[];
  /**
   * The size in bytes a data file should not grow beyond; a batch's rows of one partition are split
   * into files of about this size.
   * @default 134217728 (128 MiB)
   */
  readonly targetFileSize?: number;
  /**
   * The Parquet codec of the data files: SNAPPY, ZSTD (Node.js 22.15 or later), GZIP or UNCOMPRESSED,
   * in any case.
   * @default 'SNAPPY' (Spark's default)
   */
  readonly compression?: string;
  /**
   * Table properties (`metaData.configuration`) of a table the sink creates, such as
   * `{'delta.appendOnly': 'true'}`.
   * @default {}
   */
  readonly configuration?: Readonly<Record<string, string>>;
  /**
   * The appId of the sink's txn actions. It must stand for one checkpoint: batch ids restart with a
   * new checkpoint, and batches of an appId at or below its txn version are skipped.
   * @default the id of the query that opens the sink (kept in its checkpoint)
   */
  readonly appId?: string;
  /**
   * How many log versions one batch tries to commit at while other writers take them first.
   * @default 10
   */
  readonly maxCommitAttempts?: number;
}

/** The default target size of a data file: Delta's and Spark's usual 128 MiB. */
export const DEFAULT_TARGET_FILE_SIZE = 128 * 1024 * 1024;
/** The default number of log versions one batch tries before DeltaConflictError. */
export const DEFAULT_MAX_COMMIT_ATTEMPTS = 10;

/** The output modes a Delta table can be written in. */
type DeltaOutputMode = 'append' | 'complete';

/** Writes each batch to a Delta table, exactly once. */
export class DeltaSink implements Sink {
  private readonly log: DeltaLog;
  private readonly partitionBy: readonly string[] | undefined;
  private readonly targetFileSize: number;
  private readonly compression: ParquetCompression;
  private readonly configuration: Readonly<Record<string, string>>;
  private readonly maxCommitAttempts: number;
  private appId: string | undefined;
  /** The latest snapshot this sink has seen or written; catching up reads only newer versions. */
  private snapshot: DeltaSnapshot | undefined;

  constructor(table: DeltaTableLocation, options: DeltaSinkOptions = {}) {
    this.log = DeltaLog.at(table);
    this.partitionBy = validPartitionBy(options.partitionBy);
    this.targetFileSize = positiveInteger(
      'targetFileSize',
      options.targetFileSize ?? DEFAULT_TARGET_FILE_SIZE,
    );
    this.compression = writeCodec(
      String(options.compression ?? 'SNAPPY').toUpperCase() as ParquetCompression,
    );
    this.configuration = validConfiguration(options.configuration ?? {});
    this.maxCommitAttempts = positiveInteger(
      'maxCommitAttempts',
      options.maxCommitAttempts ?? DEFAULT_MAX_COMMIT_ATTEMPTS,
    );
    if (
      options.appId !== undefined &&
      (typeof options.appId !== 'string' || options.appId === '')
    ) {
      throw new InvalidOptionError(
        `DeltaSink option 'appId' must be a non-empty string, got ${JSON.stringify(options.appId)}.`,
      );
    }
    this.appId = options.appId;
  }

  get description(): string {
    return `DeltaSink[${this.log.table}]`;
  }

  /** Takes the query id as appId (unless one was given) and checks the table admits the query. */
  async open(context: SinkContext): Promise<void> {
    this.appId ??= context.queryId;
    const mode = this.deltaOutputMode(context.outputMode);
    this.snapshot = await this.log.snapshot(this.snapshot);
    this.check(this.snapshot, context.schema, mode);
  }

  /** Writes batch `batchId` as one table version, unless the table already has it (see the module doc). */
  async addBatch(
    batchId: number,
    rows: readonly Row[],
    schema: StructType,
    outputMode: OutputMode,
  ): Promise<void> {
    const appId = this.requireAppId(batchId);
    const mode = this.deltaOutputMode(outputMode);
    let snapshot = await this.log.snapshot(this.snapshot);
    this.snapshot = snapshot;
    if (hasBatch(snapshot, appId, batchId)) return;
    this.check(snapshot, schema, mode);
    const now = Date.now();
    // Data files are laid out by the table's metadata (partition columns, NOT NULL columns); they
    // are written again only if another writer changed it (or created the table) during the race.
    let filesFor = snapshot?.metadata;
    let adds = await this.writeFiles(snapshot, rows, schema, now);
    const firstVersion = (snapshot?.version ?? -1) + 1;
    for (let attempt = 1; ; attempt++) {
      const version = (snapshot?.version ?? -1) + 1;
      const actions = this.commitActions(snapshot, schema, { appId, batchId, mode, adds, now });
      if ((await this.log.commit(version, actions)) === 'created') {
        this.snapshot = DeltaSnapshot.replay(this.log.table, snapshot, [{ version, actions }]);
        return;
      }
      snapshot = await this.log.snapshot(snapshot);
      this.snapshot = snapshot;
      if (hasBatch(snapshot, appId, batchId)) return;
      if (attempt === this.maxCommitAttempts) {
        throw new DeltaConflictError(
          `Delta table ${this.log.table}: batch ${batchId} of query ${appId} lost the race for log versions ${firstVersion} to ${version} to other writers in ${attempt} attempts; run the batch again (it re-reads the log), or write to this table from fewer queries at once.`,
        );
      }
      this.check(snapshot, schema, mode);
      if (snapshot?.metadata !== filesFor) {
        filesFor = snapshot?.metadata;
        adds = await this.writeFiles(snapshot, rows, schema, now);
      }
    }
  }

  /** Writes the batch's data files in the layout of the table (or of the table this sink would create). */
  private writeFiles(
    snapshot: DeltaSnapshot | undefined,
    rows: readonly Row[],
    schema: StructType,
    now: number,
  ): Promise<AddFileAction[]> {
    return writeDataFiles(
      this.log.store,
      rows,
      snapshot?.schema ?? schema,
      {
        partitionColumns: snapshot?.partitionColumns ?? this.partitionBy ?? [],
        targetFileSize: this.targetFileSize,
        compression: this.compression,
      },
      now,
    );
  }

  private commitActions(
    snapshot: DeltaSnapshot | undefined,
    schema: StructType,
    batch: {
      appId: string;
      batchId: number;
      mode: DeltaOutputMode;
      adds: readonly AddFileAction[];
      now: number;
    },
  ): DeltaAction[] {
    const { appId, batchId, mode, adds, now } = batch;
    const actions: DeltaAction[] = [
      {
        commitInfo: {
          timestamp: now,
          operation: 'STREAMING UPDATE',
          operationParameters: {
            outputMode: mode === 'append' ? 'Append' : 'Complete',
            queryId: appId,
            epochId: String(batchId),
          },
          ...(snapshot ? { readVersion: snapshot.version } : {}),
          isBlindAppend: mode === 'append',
          engineInfo: 'Sluice',
        },
      },
    ];
    if (!snapshot) {
      actions.push(
        {
          protocol: {
            minReaderVersion: DELTA_READER_VERSION,
            minWriterVersion: DELTA_WRITER_VERSION,
          },
        },
        {
          metaData: {
            id: randomUUID(),
            format: { provider: 'parquet', options: {} },
            schemaString: toDeltaSchemaString(schema),
            partitionColumns: this.partitionBy ?? [],
            configuration: this.configuration,
            createdTime: now,
          },
        },
      );
    }
    actions.push({ txn: { appId, version: batchId, lastUpdated: now } });
    if (mode === 'complete' && snapshot) {
      for (const add of snapshot.files.values()) {
        actions.push({
          remove: {
            path: add.path,
            deletionTimestamp: now,
            dataChange: true,
            extendedFileMetadata: true,
            partitionValues: add.partitionValues,
            size: add.size,
          },
        });
      }
    }
    for (const add of adds) actions.push({ add });
    return actions;
  }

  private check(
    snapshot: DeltaSnapshot | undefined,
    schema: StructType,
    mode: DeltaOutputMode,
  ): void {
    if (snapshot) checkWritable(snapshot, schema, this.partitionBy, mode);
    else checkPartitioning(this.log.table, schema, this.partitionBy ?? []);
  }

  private deltaOutputMode(mode: OutputMode): DeltaOutputMode {
    if (mode === 'update') {
      throw new UnsupportedOperationError(
        `Delta table ${this.log.table}: the Delta sink writes append and complete output modes, not update (a table of files has no keys to update rows by); use append with a watermark, or complete.`,
      );
    }
    return mode;
  }

  private requireAppId(batchId: number): string {
    if (this.appId === undefined) {
      throw new SinkError(
        `DeltaSink for table ${this.log.table} got batch ${batchId} before a query opened it, so it has no appId for its txn; start it with writeStream.sink(...), or give the option appId.`,
      );
    }
    return this.appId;
  }
}

/** True when the table already holds batch `batchId` of `appId`. */
function hasBatch(snapshot: DeltaSnapshot | undefined, appId: string, batchId: number): boolean {
  const version = snapshot?.transactionVersion(appId);
  return version !== undefined && version >= batchId;
}

function validPartitionBy(columns: readonly string[] | undefined): readonly string[] | undefined {
  if (columns === undefined) return undefined;
  if (!Array.isArray(columns) || columns.some((c) => typeof c !== 'string' || c === '')) {
    throw new InvalidOptionError(
      `DeltaSink option 'partitionBy' must be an array of column names, got ${JSON.stringify(columns)}.`,
    );
  }
  return [...columns];
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new InvalidOptionError(
      `DeltaSink option '${name}' must be a positive integer, got ${JSON.stringify(value)}.`,
    );
  }
  return value;
}

function validConfiguration(
  configuration: Readonly<Record<string, string>>,
): Readonly<Record<string, string>> {
  const bad = Object.entries(configuration).find(([, v]) => typeof v !== 'string');
  if (bad) {
    throw new InvalidOptionError(
      `DeltaSink option 'configuration': table property '${bad[0]}' must be a string (Delta stores properties as text), got ${JSON.stringify(bad[1])}.`,
    );
  }
  return { ...configuration };
}
