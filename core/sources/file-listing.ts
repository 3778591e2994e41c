/**
 * What a file stream source reads from: the data files under one root (a local directory, or a key
 * prefix of an object store such as S3), listed with their size and modification time and read by
 * path. Paths are relative to the root and '/'-separated. They are ordered as S3 orders keys, by
 * their UTF-8 bytes, so that "the files after a path" means the same on every listing, and a source
 * that continues a listing after the last path it admitted skips nothing that S3 would list later.
 */

/** A data file as a listing reports it. */
export interface ListedFile {
  /** The path under the root, '/'-separated. */
  readonly path: string;
  /** Size in bytes. */
  readonly size: number;
  /** Last modification in ms since the epoch (on S3: when the object was written); 0 when the store cannot tell. */
  readonly modifiedMs: number;
  /**
   * The bytes maxBytesPerTrigger counted for the file when it was admitted, where that is not
   * `size`: a `.gz` file's uncompressed size (see counted-size.ts). Recorded in the batch's file list.
   */
  readonly countedSize?: number;
}

/** The data files under one root. */
export interface FileListing {
  /** The root, for descriptions and messages (`/data/in`, `s3://bucket/prefix/`). */
  readonly location: string;
  /**
   * The data files whose path sorts after `startAfter` (every one when undefined), in path order.
   * Hidden files (see `isHiddenPath`) are not data and never listed.
   */
  list(startAfter?: string): Promise<ListedFile[]>;
  /** The bytes of one file; throws a SourceError naming it when it no longer exists. */
  read(path: string): Promise<Uint8Array>;
  /**
   * The bytes of one file as chunks, for readers that need not hold a whole file; throws (when
   * iterated) a SourceError naming it when it no longer exists. Without it, files are read whole.
   */
  chunks?(path: string): AsyncIterable<Uint8Array>;
  /**
   * The `length` bytes of one file from byte `start` (fewer at its end), read without reading the
   * rest; undefined when it no longer exists. Without it, admission cannot learn a `.gz`'s
   * uncompressed size and counts its listed size.
   */
  readRange?(path: string, start: number, length: number): Promise<Uint8Array | undefined>;
  /** The full name of a file (root and path), as rows' errors name it. */
  nameOf(path: string): string;
}

/**
 * True for a path with a part that starts with '.' or '_' (`_SUCCESS`, `_temporary/part-0`,
 * `.staging/x`): writers keep markers and unfinished files there, so Spark's file source skips them.
 */
export function isHiddenPath(path: string): boolean {
  return path.split('/').some((part) => part.startsWith('.') || part.startsWith('_'));
}

/**
 * Orders paths by their UTF-8 bytes, which is Unicode code point order and S3's key order.
 * JavaScript's `<` compares UTF-16 units instead, which puts characters above U+FFFF (surrogate
 * pairs, 0xD800-0xDFFF) before U+E000-U+FFFF; S3 puts them after.
 */
export function comparePaths(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

/** A UTF-16 unit's rank in code point order: surrogates move above U+E000-U+FFFF. */
function codePointRank(unit: number): number {
  if (unit < 0xd800) return unit;
  return unit >= 0xe000 ? unit - 0x800 : unit + 0x2000;
}

/** The files of a decoded JSON value, or undefined when it is not a list of ListedFile. */
export function listedFiles(value: unknown): ListedFile[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const valid = value.every(
    (f: Partial<ListedFile> | null) =>
      typeof f?.path === 'string' &&
      typeof f.size === 'number' &&
      typeof f.modifiedMs === 'number' &&
      (f.countedSize === undefined || typeof f.countedSize === 'number'),
  );
  return valid ? (value as ListedFile[]) : undefined;
}
