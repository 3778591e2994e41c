/**
 * FileStreamSource: new files under a root as a stream (Spark's file source) — a local directory,
 * or a key prefix of any ObjectStore, such as an S3 bucket's.
 *
 * Offsets (see file-source-offset.ts) name admissions: the files one batch reads. Planning the next
 * batch from `start`:
 *   1. seen    load the files admitted through `start` (seen-files-log.ts), recording `start`'s own;
 *   2. list    list the root: every file, or with `incrementalListing` only the paths after the
 *              greatest path admitted so far (S3's StartAfter);
 *   3. admit   keep the new files (never admitted, not older than maxFileAge before the newest one
 *              admitted; in an availableNow run, listed when it started) and take the first of them
 *              in admission order within maxFilesPerTrigger and maxBytesPerTrigger (a once trigger
 *              takes them all); with maxBytesPerTrigger a `.gz` counts its uncompressed size,
 *              read from its last 4 bytes (counted-size.ts) and recorded in the file list;
 *   4. offset  return an offset whose file list is the admitted files, in it or in an object it
 *              references (admission-file-lists.ts). The intent records it; reading the batch reads
 *              exactly those files, however often it is re-run.
 * Nothing is recorded as seen before a batch that read it committed, so a planning whose intent was
 * never written, or lost to another run's, admits nothing for good.
 *
 * Late files: by default every planning lists the whole root, so a file is found whatever its name,
 * also one whose path sorts before files admitted earlier; the price is one LIST request per 1000
 * files under the root per planning. With `incrementalListing`, listing continues after the greatest
 * path admitted, costing requests for new files only, for roots whose paths grow with time (dated
 * prefixes such as `2026/05/01/...`, ULIDs): a file whose path sorts before that path is never read.
 *
 * In a shard of a query with parallelism above 1, the source sees only the listed files whose path
 * hashes to its shard (file-shard.ts); every step above applies to those alone.
 */
import type { ObjectStore } from '../checkpoint/object-store.js';
import { type ShardIdentity, UNSHARDED } from '../checkpoint/shard-identity.js';
import { InvalidOptionError } from '../errors.js';
import { type FileFormat, type FileReadOptions, parseDataChunks } from '../io/data-files.js';
import { fileNameOf, type FileNameFilter, pathGlobFilter } from '../io/path-glob-filter.js';
import type { StructType } from '../types/data-types.js';
import type { Row } from '../types/row.js';
import { AdmissionFileLists, DEFAULT_MAX_INLINE_FILE_LIST_BYTES } from './admission-file-lists.js';
import { withCountedSize } from './counted-size.js';
import { type AdmissionLimits, type AdmissionOrder, admitFiles } from './file-admission.js';
import { comparePaths, type FileListing, type ListedFile } from './file-listing.js';
import { type FileSourceOffset, fileSourceOffset } from './file-source-offset.js';
import { readsFile } from './file-shard.js';
import { SeenFilesLog } from './seen-files-log.js';
import type { Offset, PlanningContext, Source, SourceContext } from './source.js';

/** Spark's default maxFileAge: a week. */
export const DEFAULT_MAX_FILE_AGE_MS = 7 * 24 * 3600 * 1000;

/** Files read at once by a batch: enough to hide S3 latency, few enough for its connection pool. */
const READ_CONCURRENCY = 16;

/** Options of the file stream source. */
export interface FileStreamOptions extends AdmissionLimits {
  /** Where the files are. */
  readonly files: FileListing;
  readonly format: FileFormat;
  readonly read: FileReadOptions & { readonly schema: StructType };
  /** Admit the newest files first. @default false (oldest first) */
  readonly latestFirst?: boolean;
  /**
   * Files older than this before the newest admitted file are ignored, and forgotten once admitted.
   * Has no limit with `latestFirst` and a per-trigger limit, as in Spark: old files would be skipped.
   * @default 7 days
   */
  readonly maxFileAgeMs?: number;
  /**
   * List only the paths after the greatest path admitted so far. Only for roots whose paths grow
   * with time: a file whose path sorts before that path is never read. Admits in path order, so it
   * cannot be combined with `latestFirst`. Turn it on with a new checkpoint or once caught up: files
   * left behind by a per-trigger limit before it was on may sort before the paths admitted.
   * @default false
   */
  readonly incrementalListing?: boolean;
  /** Only files whose name matches this glob are read (Spark's pathGlobFilter). @default every file */
  readonly pathGlobFilter?: string;
  /** File lists longer than this (as JSON) are kept out of the intent. @default 16 KiB */
  readonly maxInlineFileListBytes?: number;
}

/** A stream of the files appearing under a root. */
export class FileStreamSource implements Source {
  readonly schema: StructType;
  readonly description: string;
  readonly splitsAcrossShards = true;
  /** The shard of the query this source reads for: the files whose path hashes to it. */
  private readonly shard: ShardIdentity;
  private readonly lists: AdmissionFileLists;
  private readonly seenLog: SeenFilesLog;
  private readonly order: AdmissionOrder;
  /** In an availableNow run, the paths that were new when it started; the only ones it reads. */
  private availableNow: ReadonlySet<string> | undefined;
  private readonly selected: FileNameFilter;
  /** Files measured by the last planning, so the one its byte limit left out is not read again. */
  private measured = new Map<string, ListedFile>();

  constructor(
    private readonly options: FileStreamOptions,
    context: SourceContext,
  ) {
    this.description = `FileSource[${options.files.location}]`;
    const metadata = requireMetadataStore(context.metadataStore, this.description);
    if (options.latestFirst && options.incrementalListing) {
      throw new InvalidOptionError(
        `${this.description}: options latestFirst and incrementalListing cannot be combined: incremental listing admits files in path order, so files left for later sort after every admitted one. Drop one of them.`,
      );
    }
    this.schema = options.read.schema;
    this.shard = context.shard ?? UNSHARDED;
    this.selected =
      options.pathGlobFilter === undefined ? () => true : pathGlobFilter(options.pathGlobFilter);
    this.order = options.incrementalListing
      ? 'path'
      : options.latestFirst
        ? 'newest-first'
        : 'oldest-first';
    this.lists = new AdmissionFileLists(
      metadata,
      options.maxInlineFileListBytes ?? DEFAULT_MAX_INLINE_FILE_LIST_BYTES,
    );
    this.seenLog = new SeenFilesLog(metadata, effectiveMaxFileAge(options), this.description);
  }

  async latestOffset(
    start: Offset | undefined,
    context?: PlanningContext,
  ): Promise<Offset | undefined> {
    const from = fileSourceOffset(start, this.description);
    const fresh = await this.newFiles(from);
    const admitted = await this.admit(fresh, context?.readAllAvailable ? {} : this.options);
    if (admitted.length === 0) return start;
    const lastPath = admitted
      .map((f) => f.path)
      .reduce((a, b) => (comparePaths(a, b) >= 0 ? a : b), from?.lastPath ?? '');
    return this.lists.offset((from?.logOffset ?? -1) + 1, admitted, lastPath);
  }

  async getBatch(_start: Offset | undefined, end: Offset): Promise<Row[]> {
    const files = await this.lists.files(fileSourceOffset(end, this.description)!);
    const rows: Row[] = [];
    for (let i = 0; i < files.length; i += READ_CONCURRENCY) {
      const chunk = files.slice(i, i + READ_CONCURRENCY);
      const contents = await Promise.all(chunk.map((f) => this.readFile(f)));
      for (const c of contents) for (const row of c) rows.push(row);
    }
    return rows;
  }

  /** availableNow: the run reads the files that are new now, and no file listed later. */
  async prepareForAvailableNow(start: Offset | undefined): Promise<void> {
    const fresh = await this.newFiles(fileSourceOffset(start, this.description));
    this.availableNow = new Set(fresh.map((f) => f.path));
  }

  /** The files not admitted yet, ignoring the per-trigger limits. */
  async backlog(end: Offset | undefined): Promise<number> {
    return (await this.newFiles(fileSourceOffset(end, this.description))).length;
  }

  /** Step 3's limits, measuring each considered `.gz` once however many plannings consider it. */
  private async admit(fresh: ListedFile[], limits: AdmissionLimits): Promise<ListedFile[]> {
    const previous = this.measured;
    this.measured = new Map();
    return admitFiles(fresh, this.order, limits, async (file) => {
      const known = previous.get(file.path);
      const measured =
        known?.size === file.size && known.modifiedMs === file.modifiedMs
          ? known
          : await withCountedSize(file, this.options.files);
      this.measured.set(file.path, measured);
      return measured;
    });
  }

  /** Steps 1 and 2: the listed files that are new after admission `from`. */
  private async newFiles(from: FileSourceOffset | undefined): Promise<ListedFile[]> {
    const seen = await this.seenLog.through(from, () => this.lists.files(from!));
    const startAfter = this.options.incrementalListing ? from?.lastPath : undefined;
    const available = this.availableNow;
    return (await this.options.files.list(startAfter)).filter(
      (f) =>
        this.selected(fileNameOf(f.path)) &&
        readsFile(this.shard, f.path) &&
        seen.isNew(f) &&
        (available === undefined || available.has(f.path)),
    );
  }

  /** Reads one file as a stream of chunks: line formats and CSV hold one record at a time. */
  private async readFile(file: ListedFile): Promise<Row[]> {
    const { files } = this.options;
    const chunks = files.chunks ? files.chunks(file.path) : wholeFile(await files.read(file.path));
    const name = this.options.files.nameOf(file.path);
    return (await parseDataChunks(name, this.options.format, chunks, this.options.read)).rows;
  }
}

async function* wholeFile(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

function requireMetadataStore(store: ObjectStore | undefined, source: string): ObjectStore {
  if (!store) {
    throw new InvalidOptionError(
      `${source} needs a checkpoint to remember which files it read: run it in a streaming query with a checkpointLocation.`,
    );
  }
  return store;
}

function effectiveMaxFileAge(options: FileStreamOptions): number {
  const limited =
    options.maxFilesPerTrigger !== undefined || options.maxBytesPerTrigger !== undefined;
  if (options.latestFirst && limited) return Infinity;
  const age = options.maxFileAgeMs ?? DEFAULT_MAX_FILE_AGE_MS;
  if (!(age >= 0)) {
    throw new InvalidOptionError(`Invalid maxFileAge ${age} ms: use a non-negative duration.`);
  }
  return age;
}
