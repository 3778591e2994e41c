/**
 * FileStreamSource: new files in a local directory as a stream (Spark's file source).
 *
 * Offsets are positions in the source's file log: an append-only list of the files admitted so far,
 * kept in the query's checkpoint (`sources/<i>/`), one log entry per planning step. A batch reads
 * files [start, end) of the log, so a re-run reads exactly the same files, and a file once admitted
 * is never admitted again, even after a restart. Files are admitted oldest first (by modification
 * time, then name), or newest first with `latestFirst`, at most `maxFilesPerTrigger` per batch.
 */
import { sortableId } from '../checkpoint/sortable-id.js';
import { statSync } from 'node:fs';
import { LocalDirectoryStore } from '../checkpoint/local-directory-store.js';
import { CheckpointError, InvalidOptionError } from '../errors.js';
import {
  type FileFormat,
  type FileReadOptions,
  listDataFiles,
  readDataFile,
} from '../io/data-files.js';
import type { StructType } from '../types/data-types.js';
import type { Row } from '../types/row.js';
import type { Offset, Source, SourceContext } from './source.js';

/** Options of the file stream source. */
export interface FileStreamOptions {
  readonly directory: string;
  readonly format: FileFormat;
  readonly read: FileReadOptions & { readonly schema: StructType };
  readonly maxFilesPerTrigger?: number;
  readonly latestFirst?: boolean;
}

interface LogEntry {
  readonly formatVersion: 1;
  readonly start: number;
  readonly files: readonly string[];
}

/** A stream of the files appearing in a directory. */
export class FileStreamSource implements Source {
  readonly schema: StructType;
  readonly description: string;
  private readonly log: LocalDirectoryStore;
  private files: string[] | undefined;

  constructor(
    private readonly options: FileStreamOptions,
    context: SourceContext,
  ) {
    if (!context.metadataPath) {
      throw new InvalidOptionError(
        `FileSource[${options.directory}] needs a checkpointLocation to remember which files it read.`,
      );
    }
    this.schema = options.read.schema;
    this.description = `FileSource[${options.directory}]`;
    this.log = new LocalDirectoryStore(context.metadataPath);
  }

  async latestOffset(start: Offset | undefined): Promise<Offset | undefined> {
    const from = (start as number | undefined) ?? 0;
    const log = await this.logCovering(from);
    if (log.length > from) return this.limit(from, log.length); // admitted by an earlier attempt
    const seen = new Set(log);
    const fresh = this.order(listDataFiles(this.options.directory).filter((f) => !seen.has(f)));
    const admitted = fresh.slice(0, this.options.maxFilesPerTrigger ?? fresh.length);
    if (admitted.length === 0) return start;
    const entry: LogEntry = { formatVersion: 1, start: log.length, files: admitted };
    const key = `${sortableId(log.length)}.json`;
    if ((await this.log.putIfAbsent(key, Buffer.from(JSON.stringify(entry)))) === 'exists') {
      this.files = undefined; // another run wrote this entry: use its list
      return this.latestOffset(start);
    }
    log.push(...admitted);
    return log.length;
  }

  async backlog(end: Offset | undefined): Promise<number> {
    const log = await this.fileLog();
    const seen = new Set(log);
    const unseen = listDataFiles(this.options.directory).filter((f) => !seen.has(f)).length;
    return log.length - ((end as number | undefined) ?? 0) + unseen;
  }

  async getBatch(start: Offset | undefined, end: Offset): Promise<Row[]> {
    const files = (await this.logCovering(end as number)).slice(
      (start as number | undefined) ?? 0,
      end as number,
    );
    const contents = await Promise.all(
      files.map((f) => readDataFile(f, this.options.format, this.options.read)),
    );
    return contents.flatMap((c) => c.rows);
  }

  private limit(from: number, available: number): number {
    const max = this.options.maxFilesPerTrigger;
    return max === undefined ? available : Math.min(available, from + max);
  }

  private order(files: string[]): string[] {
    const withTime = files.map((f) => ({ f, t: statSync(f).mtimeMs }));
    withTime.sort((a, b) => a.t - b.t || (a.f < b.f ? -1 : a.f > b.f ? 1 : 0));
    if (this.options.latestFirst) withTime.reverse();
    return withTime.map((x) => x.f);
  }

  /**
   * The file log, holding at least `offset` files. It is re-read when shorter, since another run may
   * have extended it; still shorter means the checkpoint's offsets refer to files the log lost, and
   * going on would admit those files again.
   */
  private async logCovering(offset: number): Promise<string[]> {
    if ((await this.fileLog()).length < offset) this.files = undefined;
    const log = await this.fileLog();
    if (log.length < offset) {
      throw new CheckpointError(
        `File source log ${this.log.location} lists ${log.length} files, but the checkpoint's offsets refer to ${offset}; the log is damaged. Start the query on a new checkpointLocation.`,
      );
    }
    return log;
  }

  /** The whole file log, read once per run and then extended in memory. */
  private async fileLog(): Promise<string[]> {
    if (this.files) return this.files;
    const files: string[] = [];
    for (const key of await this.log.list('')) {
      const corrupt = (cause?: unknown) =>
        new CheckpointError(
          `File source log ${this.log.location}/${key} is corrupt or out of order.`,
          { cause },
        );
      let entry: LogEntry | null;
      try {
        entry = JSON.parse(
          Buffer.from((await this.log.get(key))!).toString('utf8'),
        ) as LogEntry | null;
      } catch (e) {
        throw corrupt(e);
      }
      if (
        entry?.formatVersion !== 1 ||
        entry.start !== files.length ||
        !Array.isArray(entry.files)
      ) {
        throw corrupt();
      }
      files.push(...entry.files);
    }
    this.files = files;
    return files;
  }
}
