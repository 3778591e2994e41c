/**
 * DeltaStreamSource: a Delta table as a stream (`readStream.format('delta').load(...)`), after
 * Spark's Delta source. The stream reads the table's data files in the order delta-source-offset.ts
 * defines: without a startingVersion, the files of the table's snapshot when the stream starts, then
 * the files each later version adds; with `startingVersion: n`, the files added from version n on
 * (`latest`: from the version after the latest when the stream starts).
 *
 * Planning a batch (`latestOffset`):
 *   1. start    the batch starts where the previous one ended, or at the initial offset recorded in
 *               the checkpoint (created on the first planning).
 *   2. list     the commits from the start's version on (only that end of the log).
 *   3. admit    files in sequence order while the admission limits allow: `maxFilesPerTrigger`
 *               (default 1000) and `maxBytesPerTrigger` (a soft limit: the file that crosses it is
 *               still admitted), checking each commit on the way (change-commits.ts; schema and
 *               protocol changes fail the stream, since its schema was fixed when it was defined).
 *   4. end      the position after the last admitted file; the start itself when nothing is new.
 * A once trigger admits every file; an availableNow run stops at the position after the last file
 * the log had when it started.
 * A batch (`getBatch`) reads the files between its two offsets, with the table's schema; commits and
 * the initial snapshot's file list are cached until the batches past them commit.
 */
import { CheckpointError, DeltaTableError, InvalidOptionError, SourceError } from '../errors.js';
import { sameType, type StructType } from '../types/data-types.js';
import type { Row } from '../types/row.js';
import type { RecordedInitialOffset } from '../sources/recorded-initial-offset.js';
import type { Offset, PlanningContext, Source, SourceContext } from '../sources/source.js';
import { type ChangeCommitOptions, streamedAdds } from './change-commits.js';
import { DELTA_READER_VERSION, type DeltaAction, type MetadataAction } from './delta-actions.js';
import type { DeltaLog } from './delta-log.js';
import { parseDeltaSchema } from './delta-schema.js';
import type { DeltaSnapshot } from './delta-snapshot.js';
import {
  deltaOffset,
  type DeltaSourceOffset,
  initialDeltaOffset,
  parseDeltaOffset,
} from './delta-source-offset.js';
import { type DataFileToRead, readDataFiles, type TableLayout } from './delta-table-reader.js';
import {
  checkDeltaSourceOptions,
  DEFAULT_MAX_FILES_PER_TRIGGER,
  type DeltaSourceOptions,
} from './delta-source-options.js';
import { fromLogPath } from './log-paths.js';

/** A data file of the stream, at its position. */
type StreamFile = DataFileToRead;

/** A stream of the data files of a Delta table. */
export class DeltaStreamSource implements Source {
  readonly schema: StructType;
  readonly description: string;
  private readonly layout: TableLayout;
  private readonly tableId: string;
  private readonly maxFiles: number;
  private readonly maxBytes: number;
  private readonly changes: ChangeCommitOptions;
  private readonly initial: RecordedInitialOffset<DeltaSourceOffset>;
  /** Streamed files of each commit read, by version. */
  private readonly commits = new Map<number, StreamFile[]>();
  private initialFiles: { version: number; files: StreamFile[] } | undefined;
  /** In an availableNow run, the position after the last file the log had when it started. */
  private availableNowEnd: DeltaSourceOffset | undefined;

  /**
   * A stream over the table of `log`, whose schema and partitioning are those of `defined` (the
   * snapshot read when the stream was defined). Throws InvalidOptionError for an invalid option, and
   * when the query has no checkpoint store to record its initial offset in.
   */
  constructor(
    private readonly log: DeltaLog,
    defined: DeltaSnapshot,
    private readonly options: DeltaSourceOptions,
    context: SourceContext,
  ) {
    this.description = `DeltaSource[${log.table}]`;
    if (!context.metadataStore) {
      throw new InvalidOptionError(
        `${this.description} needs a checkpoint to record where the stream starts.`,
      );
    }
    this.schema = defined.schema;
    this.layout = {
      table: defined.table,
      schema: defined.schema,
      dataSchema: defined.dataSchema,
      partitionColumns: defined.partitionColumns,
    };
    this.tableId = defined.metadata.id;
    checkDeltaSourceOptions(options, this.description);
    this.maxFiles = options.maxFilesPerTrigger ?? DEFAULT_MAX_FILES_PER_TRIGGER;
    this.maxBytes = options.maxBytesPerTrigger ?? Infinity;
    this.changes = {
      ignoreDeletes: options.ignoreDeletes ?? false,
      ignoreChanges: options.ignoreChanges ?? false,
      skipChangeCommits: options.skipChangeCommits ?? false,
    };
    this.initial = initialDeltaOffset(context.metadataStore, this.description);
  }

  async latestOffset(
    start: Offset | undefined,
    context?: PlanningContext,
  ): Promise<Offset | undefined> {
    const from = start === undefined ? await this.startOffset() : this.offset(start);
    let files = context?.readAllAvailable ? Infinity : this.maxFiles;
    let bytes = context?.readAllAvailable ? Infinity : this.maxBytes;
    let end: DeltaSourceOffset | undefined;
    await this.walkAvailable(from, (file, after) => {
      files -= 1;
      bytes -= file.add.size;
      end = after;
      return files > 0 && bytes > 0;
    });
    return end ?? start;
  }

  async getBatch(start: Offset | undefined, end: Offset): Promise<Row[]> {
    const from = start === undefined ? await this.initial.required() : this.offset(start);
    const to = this.offset(end);
    const files: StreamFile[] = [];
    let reached = sameOffset(from, to);
    if (!reached) {
      await this.walk(from, (file, after) => {
        files.push(file);
        reached = sameOffset(after, to);
        return !reached;
      });
    }
    if (!reached) {
      throw new CheckpointError(
        `${this.description}: the checkpoint's batch ends at ${JSON.stringify(end)}, a position the table's log does not reach from ${JSON.stringify(from)}; the checkpoint or the log is damaged. Start the query on a new checkpointLocation.`,
      );
    }
    return readDataFiles(this.log.store, this.layout, files);
  }

  /** availableNow: the run reads up to the position after the last file the log has now. */
  async prepareForAvailableNow(start: Offset | undefined): Promise<void> {
    let end = start === undefined ? await this.startOffset() : this.offset(start);
    await this.walk(end, (_, after) => {
      end = after;
      return true;
    });
    this.availableNowEnd = end;
  }

  async backlog(end: Offset | undefined): Promise<number> {
    let files = 0;
    const from = end === undefined ? await this.startOffset() : this.offset(end);
    await this.walkAvailable(from, () => {
      files += 1;
      return true;
    });
    return files;
  }

  async commit(end: Offset): Promise<void> {
    const { version, initialSnapshot } = this.offset(end);
    for (const v of this.commits.keys()) if (v < version) this.commits.delete(v);
    if (!initialSnapshot) this.initialFiles = undefined;
  }

  /**
   * Calls `visit` with each file from position `from` on, in sequence order, and the position right
   * after it, until `visit` returns false or the log ends; commits after the last file visited are
   * not read.
   */
  private async walk(
    from: DeltaSourceOffset,
    visit: (file: StreamFile, after: DeltaSourceOffset) => boolean,
  ): Promise<void> {
    let { version, index } = from;
    if (from.initialSnapshot) {
      const files = await this.snapshotFiles(version);
      for (; index < files.length; index++) {
        const after =
          index + 1 < files.length
            ? deltaOffset(this.tableId, version, index + 1, true)
            : deltaOffset(this.tableId, version + 1, 0, false);
        if (!visit(files[index], after)) return;
      }
      version += 1;
      index = 0;
    }
    const versions = await this.log.versionsFrom(version);
    const missing = versions.findIndex((v, i) => v !== version + i);
    if (missing >= 0) throw this.missing(version + missing);
    for (const v of versions) {
      const files = await this.commitFiles(v);
      for (let i = v === version ? index : 0; i < files.length; i++) {
        const after =
          i + 1 < files.length
            ? deltaOffset(this.tableId, v, i + 1, false)
            : deltaOffset(this.tableId, v + 1, 0, false);
        if (!visit(files[i], after)) return;
      }
    }
  }

  /** `walk`, stopping at the end of an availableNow run. */
  private async walkAvailable(
    from: DeltaSourceOffset,
    visit: (file: StreamFile, after: DeltaSourceOffset) => boolean,
  ): Promise<void> {
    const last = this.availableNowEnd;
    if (last === undefined) return this.walk(from, visit);
    if (sameOffset(from, last)) return;
    await this.walk(from, (file, after) => visit(file, after) && !sameOffset(after, last));
  }

  /** The initial offset recorded in the checkpoint; on the first planning, resolved and recorded. */
  private startOffset(): Promise<DeltaSourceOffset> {
    return this.initial.getOrCreate(async () => {
      const snapshot = await this.log.snapshot();
      if (!snapshot) throw this.noTable();
      this.checkMetadata(snapshot.metadata, snapshot.version);
      const latest = snapshot.version;
      const starting = this.options.startingVersion;
      if (starting === undefined) {
        this.initialFiles = { version: latest, files: streamOrder(snapshot) };
        return snapshot.files.size > 0
          ? deltaOffset(this.tableId, latest, 0, true)
          : deltaOffset(this.tableId, latest + 1, 0, false);
      }
      if (starting === 'latest') return deltaOffset(this.tableId, latest + 1, 0, false);
      if (starting > latest) {
        throw new InvalidOptionError(
          `${this.description}: option startingVersion is ${starting}, but the table's latest version is ${latest}; give a version the table has, or 'latest'.`,
        );
      }
      return deltaOffset(this.tableId, starting, 0, false);
    });
  }

  /** The files of the snapshot of `version`, oldest first (by modification time, then path). */
  private async snapshotFiles(version: number): Promise<StreamFile[]> {
    if (this.initialFiles?.version === version) return this.initialFiles.files;
    const snapshot = await this.log.snapshotAt(version);
    this.checkMetadata(snapshot.metadata, version);
    const files = streamOrder(snapshot);
    this.initialFiles = { version, files };
    return files;
  }

  /** The files commit `version` adds to the stream, after checking the commit. */
  private async commitFiles(version: number): Promise<StreamFile[]> {
    const cached = this.commits.get(version);
    if (cached) return cached;
    const actions = await this.log.readCommit(version);
    for (const action of actions) {
      if ('metaData' in action) this.checkMetadata(action.metaData, version);
      if ('protocol' in action && action.protocol.minReaderVersion > DELTA_READER_VERSION) {
        throw new DeltaTableError(
          `${this.description}: version ${version} makes the table need a Delta reader of version ${action.protocol.minReaderVersion}; Sluice reads version ${DELTA_READER_VERSION}, so the stream cannot go on.`,
        );
      }
    }
    const keys = this.fileKeys(actions, version);
    const files = streamedAdds(actions, this.changes, this.log.table, version).map((add) => ({
      key: keys.get(add.path)!,
      add,
      version,
    }));
    this.commits.set(version, files);
    return files;
  }

  /**
   * The object key of every add and remove path of commit `version`: each is checked, even those
   * the stream passes over, so a log that points outside the table fails the stream wherever it does.
   */
  private fileKeys(actions: readonly DeltaAction[], version: number): Map<string, string> {
    const keys = new Map<string, string>();
    for (const action of actions) {
      const [kind, file] =
        'add' in action ? ['add', action.add] : 'remove' in action ? ['remove', action.remove] : [];
      if (file === undefined) continue;
      const entry = `log version ${version}, ${kind} action`;
      keys.set(file.path, fromLogPath(file.path, this.log.table, entry));
    }
    return keys;
  }

  /** Fails the stream when the table was replaced or its schema or partitioning changed. */
  private checkMetadata(metadata: MetadataAction, version: number): void {
    if (metadata.id !== this.tableId) {
      throw new SourceError(
        `${this.description}: at version ${version} the table has the id ${metadata.id}, not ${this.tableId}: it was replaced by another table at the same location. Start the query on a new checkpointLocation to stream the new table.`,
      );
    }
    const schema = parseDeltaSchema(metadata.schemaString, this.log.table);
    const partitioning = metadata.partitionColumns.join('\u0000');
    if (
      !sameType(schema, this.schema) ||
      partitioning !== this.layout.partitionColumns.join('\u0000')
    ) {
      throw new SourceError(
        `${this.description}: the table's schema or partitioning changed at version ${version}; the stream's schema was fixed when it was defined. Define the stream again and start it on a new checkpointLocation (with startingVersion ${version} to go on from there).`,
      );
    }
  }

  private offset(value: Offset): DeltaSourceOffset {
    const offset = parseDeltaOffset(value, this.description);
    if (offset.tableId !== this.tableId) {
      throw new SourceError(
        `${this.description}: the checkpoint's offsets belong to the table with id ${offset.tableId}, but the table now has the id ${this.tableId}: it was replaced. Start the query on a new checkpointLocation.`,
      );
    }
    return offset;
  }

  private missing(version: number): SourceError {
    return new SourceError(
      `${this.description}: version ${version}, which the stream reads next, is not in the table's log (cleaned up after a checkpoint while the stream was stopped?); its data cannot be streamed. Start the query on a new checkpointLocation.`,
    );
  }

  private noTable(): SourceError {
    return new SourceError(
      `${this.description}: the table has no _delta_log/ commits any more; was it deleted?`,
    );
  }
}

/** The files of `snapshot` in stream order: by modification time, then by key. */
function streamOrder(snapshot: DeltaSnapshot): StreamFile[] {
  return [...snapshot.files]
    .map(([key, add]) => ({ key, add, version: snapshot.version }))
    .sort(
      (a, b) =>
        a.add.modificationTime - b.add.modificationTime ||
        (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
    );
}

function sameOffset(a: DeltaSourceOffset, b: DeltaSourceOffset): boolean {
  return a.version === b.version && a.index === b.index && a.initialSnapshot === b.initialSnapshot;
}
