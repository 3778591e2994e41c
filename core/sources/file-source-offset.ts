/**
 * The offset of a file stream source. It names one admission — the files one batch reads — by its
 * position in the source's seen-files log (Spark's logOffset), and carries that batch's file list:
 * in the offset itself, so the batch's intent records exactly which files it reads, or, when the
 * list is too long for the intent, as the key of an object in the source's metadata store.
 *
 * The intent is the write-ahead log, created once per batch by the checkpoint's conditional write,
 * so a file list in it (or referenced from it) is the one and only truth about the batch, even if
 * two runs planned the batch at once and chose different files.
 */
import { CheckpointError } from '../errors.js';
import { type ListedFile, listedFiles } from './file-listing.js';
import type { Offset } from './source.js';

/** Format version of file source offsets and the records of the source's metadata store. */
export const FILE_SOURCE_FORMAT_VERSION = 1;

/** A file source offset. */
export interface FileSourceOffset {
  readonly formatVersion: number;
  /** Position of the admission in the source's seen-files log, from 0. */
  readonly logOffset: number;
  /** The files the batch reads, in reading order, when the list is short enough for the intent. */
  readonly files?: readonly ListedFile[];
  /** Otherwise the key, in the source's metadata store, of the object that lists them. */
  readonly filesKey?: string;
  /**
   * The greatest path admitted so far, in UTF-8 order: a listing with `incrementalListing`
   * continues after it.
   */
  readonly lastPath: string;
}

/**
 * A checked FileSourceOffset from a checkpoint (undefined: before the first batch). Throws a
 * CheckpointError naming the source when the offset is not one this source wrote.
 */
export function fileSourceOffset(
  offset: Offset | undefined,
  source: string,
): FileSourceOffset | undefined {
  if (offset === undefined || offset === null) return undefined;
  const o = offset as Partial<FileSourceOffset>;
  const hasFiles = o.files !== undefined ? listedFiles(o.files) !== undefined : false;
  const valid =
    typeof offset === 'object' &&
    o.formatVersion === FILE_SOURCE_FORMAT_VERSION &&
    Number.isInteger(o.logOffset) &&
    (o.logOffset ?? -1) >= 0 &&
    typeof o.lastPath === 'string' &&
    hasFiles !== (typeof o.filesKey === 'string');
  if (!valid) {
    throw new CheckpointError(
      `${source}: the checkpoint holds the offset ${JSON.stringify(offset)}, which is not a file source offset of format version ${FILE_SOURCE_FORMAT_VERSION} (an older Sluice or another source wrote it). Start the query on a new checkpointLocation.`,
    );
  }
  return o as FileSourceOffset;
}
