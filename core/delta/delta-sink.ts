/**
 * DeltaSink: writes a streaming query's output into a Delta Lake table, on the local filesystem or on
 * S3, exactly once per batch (docs/architecture.md section 4).
 *
 * Exactly-once rests on the table's own log: every commit carries a `txn` action {appId: the query's
 * id, version: the batch id}, in the same atomic log entry as the batch's data files. A batch that is
 * run again (its engine commit did not land) finds its txn version in the log and writes nothing.
 *
 * One batch (`addBatch`) is one optimistic write (delta-transaction.ts): it is done before when the
 * table's txn version for appId is at or past the batch id; in complete mode its commit removes every
 * current file. A batch that changes nothing (no rows to append; an empty result to an empty table)
 * writes no version at all. The sink keeps the snapshot it wrote last, and its next write tries the
 * version after it without listing the log first: the log's create-if-absent finds any writer that
 * came between. Every `delta.checkpointInterval` versions it writes a checkpoint, best effort; the
 * outcome of the latest one is `lastCheckpoint`, and a failed one is also a process warning.
 *
 * Output modes are Delta's streaming sink's: append adds the batch's rows, complete replaces the
 * table's content in one version. Update mode has no meaning for a table of files without keys and is
 * refused when the query starts.
 */
import { DeltaConflictError, InvalidOptionError, UnsupportedOperationError } from '../errors.js';
import { openedSink, type OutputMode, type Sink, type SinkContext } from '../sinks/sink.js';
import type { StructType } from '../types/data-types.js';
import type { Row } from '../types/row.js';
import { writeDataFiles } from './data-file-writer.js';
import type { AddFileAction, DeltaAction } from './delta-actions.js';
import type { CheckpointOutcome } from './delta-checkpoint.js';
import { DeltaLog, type DeltaTableLocation } from './delta-log.js';
import type { DeltaSnapshot } from './delta-snapshot.js';
import {
  commitWrite,
  createTableActions,
  type DeltaWrite,
  removeAllActions,
  type WriteStart,
} from './delta-transaction.js';
import {
  type DeltaWriteOptions,
  type DeltaWriteSettings,
  deltaWriteSettings,
} from './delta-write-options.js';
import { checkPartitioning, checkWritable } from './write-checks.js';

/** Options of a {@link DeltaSink}. */
export interface DeltaSinkOptions extends DeltaWriteOptions {
  /**
   * The appId of the sink's txn actions. It must stand for one checkpoint: batch ids restart with a
   * new checkpoint, and batches of an appId at or below its txn version are skipped.
   * @default the id of the query that opens the sink (kept in its checkpoint)
   */
  readonly appId?: string;
}

/** The output modes a Delta table can be written in. */
type DeltaOutputMode = 'append' | 'complete';

/** Writes each batch to a Delta table, exactly once. */
export class DeltaSink implements Sink {
  private readonly log: DeltaLog;
  private readonly settings: DeltaWriteSettings;
  private appId: string | undefined;
  /** The latest snapshot this sink has seen or written; catching up reads only newer versions. */
  private snapshot: DeltaSnapshot | undefined;
  private checkpoint: CheckpointOutcome | undefined;
  /** Whether this sink's last write lost a race for a version: the table has other writers. */
  private racing = false;

  constructor(table: DeltaTableLocation, options: DeltaSinkOptions = {}) {
    this.log = DeltaLog.at(table);
    this.settings = deltaWriteSettings(options, 'DeltaSink');
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

  /**
   * What became of the latest checkpoint a batch of this sink was due for (written, or failed with
   * its error); undefined before the first.
   */
  get lastCheckpoint(): CheckpointOutcome | undefined {
    return this.checkpoint;
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
    if (this.changesNothing(rows, mode)) return;
    const now = Date.now();
    const write: DeltaWrite = {
      isDone: (snapshot) => hasBatch(snapshot, appId, batchId),
      check: (snapshot) => this.check(snapshot, schema, mode),
      writeFiles: (snapshot) => this.writeFiles(snapshot, rows, schema, now),
      actions: (snapshot, adds) =>
        this.commitActions(snapshot, schema, { appId, batchId, mode, adds, now }),
      conflict: (first, last, attempts) =>
        new DeltaConflictError(
          `Delta table ${this.log.table}: batch ${batchId} of query ${appId} lost the race for log versions ${first} to ${last} to other writers in ${attempts} attempts; run the batch again (it re-reads the log), or write to this table from fewer queries at once.`,
        ),
    };
    const outcome = await commitWrite(
      this.log,
      await this.writeStart(),
      write,
      this.settings.maxCommitAttempts,
    );
    this.snapshot = outcome.snapshot;
    this.racing = outcome.racesLost > 0;
    if (outcome.kind === 'committed' && outcome.checkpoint) this.checkpoint = outcome.checkpoint;
  }

  /**
   * The snapshot a write starts from: the last one this sink saw, which is the latest unless
   * another writer committed since; after a write that lost a race, when others likely have, the
   * log read again, as trying the version after a stale snapshot would lose once more. Undefined
   * before the sink has seen the table: the write reads the log.
   */
  private async writeStart(): Promise<WriteStart | undefined> {
    if (!this.snapshot) return undefined;
    if (!this.racing) return { snapshot: this.snapshot, latest: false };
    return { snapshot: await this.log.snapshot(this.snapshot), latest: true };
  }

  /**
   * Whether the batch would leave the table as it is: no rows to append, or an empty result to a
   * table that holds no file. Such a batch writes no version (Spark's Delta sink commits an empty
   * one); a later batch's txn version covers it, so a re-run of it is skipped all the same.
   */
  private changesNothing(rows: readonly Row[], mode: DeltaOutputMode): boolean {
    if (rows.length > 0 || !this.snapshot) return false;
    return mode === 'append' || this.snapshot.files.size === 0;
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
        partitionColumns: snapshot?.partitionColumns ?? this.settings.partitionBy ?? [],
        targetFileSize: this.settings.targetFileSize,
        compression: this.settings.compression,
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
    return [
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
      ...(snapshot
        ? []
        : createTableActions(
            schema,
            this.settings.partitionBy ?? [],
            this.settings.configuration,
            now,
          )),
      { txn: { appId, version: batchId, lastUpdated: now } },
      ...(mode === 'complete' && snapshot ? removeAllActions(snapshot, now) : []),
      ...adds.map((add) => ({ add })),
    ];
  }

  private check(
    snapshot: DeltaSnapshot | undefined,
    schema: StructType,
    mode: DeltaOutputMode,
  ): void {
    if (snapshot) checkWritable(snapshot, schema, this.settings.partitionBy, mode);
    else checkPartitioning(this.log.table, schema, this.settings.partitionBy ?? []);
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
    return openedSink(this.appId, {
      sink: `DeltaSink for table ${this.log.table}`,
      batchId,
      consequence: 'it has no appId for its txn',
      alternative: 'give the option appId',
    });
  }
}

/** True when the table already holds batch `batchId` of `appId`. */
function hasBatch(snapshot: DeltaSnapshot | undefined, appId: string, batchId: number): boolean {
  const version = snapshot?.transactionVersion(appId);
  return version !== undefined && version >= batchId;
}
