/**
 * The seen-files log of a file stream source, in the source's metadata store (`sources/<i>/` of the
 * checkpoint, local or on S3):
 *
 *   seen/<logOffset>.json           the files of one admission that a committed batch read
 *   seen/<logOffset>.compact.json   every COMPACT_INTERVAL admissions: every file then within
 *                                   maxFileAge, so loading never reads the whole history
 *
 * Protocol (the engine plans batch N from the offsets that batch N-1 committed, `start`):
 *   1. record  before listing, the source records `start`'s admission k: entry k, and compaction k
 *              when due. Admissions before k were recorded when the batches after them were
 *              planned, since no intent can name admission k+1 before a planning from k returned.
 *              Records are a function of committed intents only, so two runs writing one write the
 *              same content: plain puts suffice, where S3 stand-ins do not enforce conditional writes.
 *   2. load    the set at k is compaction c (the last before k) plus entries c+1..k, read by key
 *              without listing. A missing one means the log lost files it had recorded; the source
 *              stops with a CheckpointError rather than admitting those files again.
 * A run keeps the set in memory and only adds each new admission to it.
 */
import type { ObjectStore } from '../checkpoint/object-store.js';
import { sortableId } from '../checkpoint/sortable-id.js';
import { CheckpointError, InvalidOptionError } from '../errors.js';
import { type ListedFile, listedFiles } from './file-listing.js';
import { FILE_SOURCE_FORMAT_VERSION, type FileSourceOffset } from './file-source-offset.js';
import { readRecord, recordName, writeRecord } from './metadata-records.js';
import { SeenFiles } from './seen-files.js';

/** Admissions per compaction, as Spark's file source log compacts every 10 batches. */
export const COMPACT_INTERVAL = 10;

/** One admission's files, or a compaction's (with the age window it was pruned to). */
interface SeenRecord {
  readonly formatVersion: number;
  readonly logOffset: number;
  readonly files: readonly ListedFile[];
  /** Compactions only: the window the files were pruned to; null for no limit. */
  readonly maxFileAgeMs?: number | null;
}

/** Records and loads the files a file source has admitted. */
export class SeenFilesLog {
  private cached: { readonly logOffset: number; readonly seen: SeenFiles } | undefined;

  constructor(
    private readonly store: ObjectStore,
    private readonly maxFileAgeMs: number,
    /** The source, for messages. */
    private readonly source: string,
  ) {}

  /**
   * The files seen through the committed admission `offset` (none before the first batch), after
   * recording that admission, whose files `files` gives.
   */
  async through(
    offset: FileSourceOffset | undefined,
    files: () => Promise<ListedFile[]>,
  ): Promise<SeenFiles> {
    if (!offset) return new SeenFiles(this.maxFileAgeMs);
    const k = offset.logOffset;
    if (this.cached?.logOffset === k) return this.cached.seen;
    const previous = this.cached;
    this.cached = undefined; // until admission k is recorded, the set in memory is no version at all
    const seen = previous?.logOffset === k - 1 ? previous.seen : await this.load(k);
    const admitted = await files();
    seen.add(admitted);
    await this.record(k, admitted, seen);
    this.cached = { logOffset: k, seen };
    return seen;
  }

  /** The set through admission k-1. */
  private async load(k: number): Promise<SeenFiles> {
    const seen = new SeenFiles(this.maxFileAgeMs);
    const compacted = Math.floor(k / COMPACT_INTERVAL) * COMPACT_INTERVAL - 1;
    if (compacted >= 0) seen.add(await this.compaction(compacted));
    const entries = [];
    for (let j = compacted + 1; j < k; j++) entries.push(this.entry(j));
    for (const files of await Promise.all(entries)) seen.add(files);
    return seen;
  }

  private async record(k: number, files: readonly ListedFile[], seen: SeenFiles): Promise<void> {
    const entry: SeenRecord = { formatVersion: FILE_SOURCE_FORMAT_VERSION, logOffset: k, files };
    await writeRecord(this.store, entryKey(k), entry);
    if ((k + 1) % COMPACT_INTERVAL !== 0) return;
    const compaction: SeenRecord = {
      formatVersion: FILE_SOURCE_FORMAT_VERSION,
      logOffset: k,
      files: seen.files(),
      maxFileAgeMs: Number.isFinite(this.maxFileAgeMs) ? this.maxFileAgeMs : null,
    };
    await writeRecord(this.store, compactionKey(k), compaction);
  }

  private async entry(j: number): Promise<readonly ListedFile[]> {
    return (await this.read(entryKey(j), j)).files;
  }

  private async compaction(j: number): Promise<readonly ListedFile[]> {
    const record = await this.read(compactionKey(j), j);
    const windowMs = record.maxFileAgeMs ?? Infinity;
    if (windowMs < this.maxFileAgeMs) {
      throw new InvalidOptionError(
        `${this.source}: its checkpoint remembers the files it read for ${age(windowMs)} (maxFileAge when ${recordName(this.store, compactionKey(j))} was written), but the query now needs them for ${age(this.maxFileAgeMs)}; older files it forgot would be read again. Set option maxFileAge to at most ${age(windowMs)} (maxFileAge has no limit with latestFirst and a per-trigger limit), or start the query on a new checkpointLocation.`,
      );
    }
    return record.files;
  }

  private async read(key: string, logOffset: number): Promise<SeenRecord> {
    const record = (await readRecord(this.store, key)) as Partial<SeenRecord> | undefined;
    const name = recordName(this.store, key);
    if (!record) {
      throw new CheckpointError(
        `${this.source}: its seen-files log lacks ${name}, so it can no longer tell which files it read; the checkpoint is damaged. Start the query on a new checkpointLocation.`,
      );
    }
    if (
      record.formatVersion !== FILE_SOURCE_FORMAT_VERSION ||
      record.logOffset !== logOffset ||
      !listedFiles(record.files)
    ) {
      throw new CheckpointError(
        `${this.source}: ${name} is not the seen-files record of admission ${logOffset} in format version ${FILE_SOURCE_FORMAT_VERSION}; the checkpoint is damaged. Start the query on a new checkpointLocation.`,
      );
    }
    return record as SeenRecord;
  }
}

function entryKey(logOffset: number): string {
  return `seen/${sortableId(logOffset)}.json`;
}

function compactionKey(logOffset: number): string {
  return `seen/${sortableId(logOffset)}.compact.json`;
}

function age(ms: number): string {
  return Number.isFinite(ms) ? `${ms} ms` : 'ever (no limit)';
}
