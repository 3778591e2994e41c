/**
 * FileSink: writes a streaming query's output as data files (JSON lines, CSV, Parquet or text) in a
 * directory, on the local filesystem or on S3, exactly once per batch (Spark's FileStreamSink with its
 * ManifestFileCommitProtocol; docs/architecture.md section 4).
 *
 * Exactly-once rests on the manifest log (`_sluice_metadata/`, see FileSinkLog): a batch's files are
 * in the output when, and only when, its manifest lists them, and readers read only listed files.
 *
 * One batch (`addBatch`):
 *   1. skip    if the log has a manifest for batchId, the batch is in (an attempt that crashed between
 *              sink and commit wrote it): write nothing.
 *   2. write   the batch's data files, under names no other attempt uses (`part-<batchId>-<uuid>`).
 *   3. commit  create the batch's manifest listing them, with put-if-absent; every compactInterval-th
 *              batch writes a compact manifest listing every file so far instead.
 *   4. race    if an attempt of the same batch created the manifest first, delete this attempt's files
 *              (nothing lists them) and stop.
 * A crash anywhere leaves either no manifest (the written files are unlisted garbage, which readers
 * never see) or the whole batch. Step 1 reads before writing, so a re-run is skipped even on a store
 * whose put-if-absent is not atomic (s3rver); put-if-absent only settles two attempts running at once.
 *
 * Only append output mode is written, as in Spark: files once written are never rewritten, so neither
 * update (rows replacing earlier rows) nor complete (the whole result each batch) has a meaning.
 */
import { randomUUID } from 'node:crypto';
import type { ObjectStore } from '../checkpoint/object-store.js';
import { SinkError, UnsupportedOperationError } from '../errors.js';
import type { CsvWriteOptions } from '../io/csv.js';
import {
  dataFileEncoding,
  dataFileExtension,
  type DataFileEncoding,
  encodeDataFile,
} from '../io/data-file-encoding.js';
import { type FileFormat, fileFormat } from '../io/data-files.js';
import type { StructType } from '../types/data-types.js';
import type { Row } from '../types/row.js';
import { DEFAULT_COMPACT_INTERVAL, FileSinkLog, type SinkFileEntry } from '../io/file-sink-log.js';
import { openedSink, type OutputMode, type Sink, type SinkContext } from './sink.js';

/** Options of a {@link FileSink}. */
export interface FileSinkOptions {
  /** The format of the data files: json (JSON lines), csv, parquet or text (one string column). */
  readonly format: FileFormat;
  /**
   * Every how many batches the manifest log is compacted: batch n with (n + 1) % compactInterval == 0
   * writes one manifest listing every file so far (Spark's fileSink.log.compactInterval).
   * @default 10
   */
  readonly compactInterval?: number;
  /**
   * The codec, in any case: for Parquet SNAPPY, ZSTD (Node.js 22.15 or later), GZIP or UNCOMPRESSED
   * (or NONE);
   * for json, csv and text none or gzip (files named `.gz`, which the readers decompress).
   * @default 'SNAPPY' for Parquet (Spark's default), else 'none'
   */
  readonly compression?: string;
  /** CSV's writer options (header, delimiter, quote, escape, nullValue). @default Spark's */
  readonly csv?: CsvWriteOptions;
}

/** Writes each batch as data files listed by a manifest log, exactly once. */
export class FileSink implements Sink {
  private readonly log: FileSinkLog;
  private readonly encoding: DataFileEncoding;
  private queryId: string | undefined;

  /** A sink writing under the root of `store` (a LocalDirectoryStore, or an S3ObjectStore's prefix). */
  constructor(
    private readonly store: ObjectStore,
    options: FileSinkOptions,
  ) {
    this.log = new FileSinkLog(store, options.compactInterval ?? DEFAULT_COMPACT_INTERVAL);
    this.encoding = dataFileEncoding(
      fileFormat(options.format),
      options.compression === undefined ? undefined : String(options.compression),
      options.csv,
    );
  }

  get description(): string {
    return `FileSink[${this.encoding.format}, ${this.store.location}]`;
  }

  /**
   * Checks the output mode and that the format can hold the schema, and that the output's log, if
   * any, belongs to this query: another query's batch ids would be taken for batches already written.
   */
  async open(context: SinkContext): Promise<void> {
    this.checkOutputMode(context.outputMode);
    encodeDataFile([], context.schema, this.encoding);
    const latest = await this.log.latest();
    if (latest && latest.queryId !== context.queryId) {
      throw new SinkError(
        `${this.description}: the output holds batches of query ${latest.queryId} (up to batch ${latest.batchId} in ${this.log.location}), not of query ${context.queryId}; this query would take its batch ids for batches already written and write nothing. Write to a new path, or restart the query from the checkpoint of query ${latest.queryId}.`,
      );
    }
    this.queryId = context.queryId;
  }

  /** Writes batch `batchId`'s rows as data files and commits them in the log (see the module doc). */
  async addBatch(
    batchId: number,
    rows: readonly Row[],
    schema: StructType,
    outputMode: OutputMode,
  ): Promise<void> {
    const queryId = this.requireQueryId(batchId);
    this.checkOutputMode(outputMode);
    if (await this.log.hasBatch(batchId)) return;
    const files = await this.writeFiles(batchId, rows, schema);
    if ((await this.log.add(batchId, queryId, files, schema)) === 'exists') {
      await Promise.all(files.map((f) => this.store.delete(f.path)));
    }
  }

  /** The batch's rows as one data file (none for no rows), under a name only this attempt uses. */
  private async writeFiles(
    batchId: number,
    rows: readonly Row[],
    schema: StructType,
  ): Promise<SinkFileEntry[]> {
    if (rows.length === 0) return [];
    const bytes = encodeDataFile(rows, schema, this.encoding);
    const path = `part-${String(batchId).padStart(5, '0')}-${randomUUID()}.${dataFileExtension(this.encoding)}`;
    await this.store.put(path, bytes);
    return [{ path, size: bytes.byteLength, modificationTime: Date.now(), action: 'add' }];
  }

  private checkOutputMode(mode: OutputMode): void {
    if (mode !== 'append') {
      throw new UnsupportedOperationError(
        `${this.description}: the file sink writes append output mode only, not ${mode} (files once written are never rewritten, as in Spark). Use append with a watermark, or the Delta sink for complete mode.`,
      );
    }
  }

  private requireQueryId(batchId: number): string {
    return openedSink(this.queryId, {
      sink: this.description,
      batchId,
      consequence: "it cannot tag the batch's manifest with a query id",
    });
  }
}
