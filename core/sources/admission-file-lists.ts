/**
 * Where the file list of an admission is kept: in its offset (so in the batch's intent) while the
 * list's JSON is at most `maxInlineBytes`, else in `files/<logOffset>-<random>.json` of the source's
 * metadata store, which the offset references. The object is written before the offset is returned,
 * so before any intent can reference it, and its key is unique per planning attempt: an attempt
 * whose intent lost the race leaves an unreferenced object behind, never a changed one.
 */
import { randomUUID } from 'node:crypto';
import type { ObjectStore } from '../checkpoint/object-store.js';
import { sortableId } from '../checkpoint/sortable-id.js';
import { resolveStoredReference } from '../checkpoint/stored-reference.js';
import { CheckpointError } from '../errors.js';
import { type ListedFile, listedFiles } from './file-listing.js';
import { FILE_SOURCE_FORMAT_VERSION, type FileSourceOffset } from './file-source-offset.js';
import { readRecord, recordName, writeRecord } from './metadata-records.js';

/** Default size above which a file list leaves the intent: the intent stays far below DynamoDB's item limit. */
export const DEFAULT_MAX_INLINE_FILE_LIST_BYTES = 16 * 1024;

/** A file list stored out of the intent. */
interface FileListRecord {
  readonly formatVersion: number;
  readonly logOffset: number;
  readonly files: readonly ListedFile[];
}

/** Keeps and finds the file lists of a file source's admissions. */
export class AdmissionFileLists {
  /** The list read last, since getBatch and the next planning both ask for it. */
  private recent: { readonly key: string; readonly files: ListedFile[] } | undefined;

  constructor(
    private readonly store: ObjectStore,
    private readonly maxInlineBytes: number,
  ) {}

  /** The offset of admission `logOffset` of `files`, storing the list out of it when it is too long. */
  async offset(
    logOffset: number,
    files: readonly ListedFile[],
    lastPath: string,
  ): Promise<FileSourceOffset> {
    const base = { formatVersion: FILE_SOURCE_FORMAT_VERSION, logOffset, lastPath };
    const json = JSON.stringify(files);
    if (Buffer.byteLength(json) <= this.maxInlineBytes) return { ...base, files };
    const filesKey = `files/${sortableId(logOffset)}-${randomUUID()}.json`;
    const record: FileListRecord = { formatVersion: FILE_SOURCE_FORMAT_VERSION, logOffset, files };
    await writeRecord(this.store, filesKey, record);
    return { ...base, filesKey };
  }

  /**
   * The files of an admission, from its offset or the object it references. The key and every path
   * come from the checkpoint, so each must lie under its root (UnsafePathError otherwise).
   */
  async files(offset: FileSourceOffset): Promise<ListedFile[]> {
    const entry = `the offset of admission ${offset.logOffset}`;
    if (offset.files) return this.contained([...offset.files], entry);
    const key = offset.filesKey!;
    if (this.recent?.key === key) return this.recent.files;
    const files = this.contained(await this.read(key, offset.logOffset, entry), entry);
    this.recent = { key, files };
    return files;
  }

  /** `files`, after checking that each path lies under the source's root. */
  private contained(files: ListedFile[], entry: string): ListedFile[] {
    for (const f of files) {
      resolveStoredReference(f.path, {
        root: `File source data root (checkpoint ${this.store.location})`,
        entry: `the file list of ${entry}`,
        encoding: 'key',
      });
    }
    return files;
  }

  private async read(key: string, logOffset: number, entry: string): Promise<ListedFile[]> {
    const origin = {
      root: `File source checkpoint ${this.store.location}`,
      entry,
      encoding: 'key' as const,
    };
    const record = (await readRecord(this.store, resolveStoredReference(key, origin))) as
      Partial<FileListRecord> | undefined;
    const name = recordName(this.store, key);
    if (!record) {
      throw new CheckpointError(
        `The file list ${name}, which the checkpoint's offsets reference, is missing; the checkpoint is damaged. Start the query on a new checkpointLocation.`,
      );
    }
    const files = listedFiles(record.files);
    if (
      record.formatVersion !== FILE_SOURCE_FORMAT_VERSION ||
      record.logOffset !== logOffset ||
      !files
    ) {
      throw new CheckpointError(
        `The file list ${name} is not the list of admission ${logOffset} in format version ${FILE_SOURCE_FORMAT_VERSION}; the checkpoint is damaged. Start the query on a new checkpointLocation.`,
      );
    }
    return files;
  }
}
