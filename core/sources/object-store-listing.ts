/**
 * The data files under the root of an ObjectStore, for the file stream source. A store that can list
 * objects with their size and time, after a key (`ObjectMetadataListing`; the S3 store does, in one
 * ListObjectsV2 request per 1000 keys, with StartAfter), is listed that way. Any other store is
 * listed by key, and each new key's size is learned by reading it once; such a store reports no
 * modification times (0), so its files are admitted in path order and maxFileAge has no effect.
 */
import { LocalDirectoryStore } from '../checkpoint/local-directory-store.js';
import { canReadRanges, canStreamObjects, type ObjectStore } from '../checkpoint/object-store.js';
import { SluiceError, SourceError } from '../errors.js';
import { DirectoryListing } from './directory-listing.js';
import { comparePaths, type FileListing, isHiddenPath, type ListedFile } from './file-listing.js';

/** An object as a metadata listing reports it; the key is relative to the store's root. */
export interface StoredObject {
  readonly key: string;
  readonly size: number;
  readonly lastModifiedMs: number;
}

/** A store that lists objects with their metadata, starting after a key. */
export interface ObjectMetadataListing {
  /** The objects under `prefix` whose keys sort after `startAfter` (in UTF-8 byte order), all pages. */
  listObjects(prefix: string, startAfter?: string): Promise<StoredObject[]>;
}

/** The files under the root of an object store. */
export class ObjectStoreListing implements FileListing {
  readonly location: string;
  /** Sizes learned by reading objects, for stores without a metadata listing; keys are write-once. */
  private readonly sizes = new Map<string, number>();

  constructor(private readonly store: ObjectStore) {
    this.location = store.location;
  }

  async list(startAfter?: string): Promise<ListedFile[]> {
    let files: ListedFile[];
    try {
      files = hasMetadataListing(this.store)
        ? (await this.store.listObjects('', startAfter)).map((o) => ({
            path: o.key,
            size: o.size,
            modifiedMs: o.lastModifiedMs,
          }))
        : await this.listByKey(startAfter);
    } catch (e) {
      throw sourceFailure(`Cannot list the objects of ${this.location}`, e);
    }
    // keys ending in '/' are the empty "folder" markers S3 consoles create, not data
    return files
      .filter((f) => !isHiddenPath(f.path) && !f.path.endsWith('/'))
      .sort((a, b) => comparePaths(a.path, b.path));
  }

  async read(path: string): Promise<Uint8Array> {
    let bytes: Uint8Array | undefined;
    try {
      bytes = await this.store.get(path);
    } catch (e) {
      throw sourceFailure(`Cannot read ${this.nameOf(path)}`, e);
    }
    if (!bytes) throw this.vanished(path);
    return bytes;
  }

  private vanished(path: string): SourceError {
    return new SourceError(
      `Object ${this.nameOf(path)}, which a planned batch lists, no longer exists. Restore it, or start the query on a new checkpointLocation.`,
    );
  }

  async *chunks(path: string): AsyncGenerator<Uint8Array> {
    if (!canStreamObjects(this.store)) {
      yield await this.read(path);
      return;
    }
    let body: AsyncIterable<Uint8Array> | undefined;
    try {
      body = await this.store.getStream(path);
    } catch (e) {
      throw sourceFailure(`Cannot read ${this.nameOf(path)}`, e);
    }
    if (!body) throw this.vanished(path);
    try {
      yield* body;
    } catch (e) {
      throw sourceFailure(`Cannot read ${this.nameOf(path)}`, e);
    }
  }

  /** A byte range of an object, when the store can read one without the rest; else undefined. */
  async readRange(path: string, start: number, length: number): Promise<Uint8Array | undefined> {
    if (!canReadRanges(this.store)) return undefined;
    try {
      return await this.store.getRange(path, start, length);
    } catch (e) {
      throw sourceFailure(`Cannot read a range of ${this.nameOf(path)}`, e);
    }
  }

  nameOf(path: string): string {
    return `${this.location.replace(/\/$/, '')}/${path}`;
  }

  private async listByKey(startAfter: string | undefined): Promise<ListedFile[]> {
    const keys = (await this.store.list('')).filter(
      (k) => !isHiddenPath(k) && (startAfter === undefined || comparePaths(k, startAfter) > 0),
    );
    const files: ListedFile[] = [];
    for (const key of keys) {
      const size = this.sizes.get(key) ?? (await this.store.get(key))?.byteLength;
      if (size === undefined) continue; // deleted since it was listed
      this.sizes.set(key, size);
      files.push({ path: key, size, modifiedMs: 0 });
    }
    return files;
  }
}

/** A store's failure as the source's: the store's message and whether a retry can help are kept. */
function sourceFailure(context: string, e: unknown): SourceError {
  const retriable = e instanceof SluiceError && e.retriable;
  return new SourceError(`${context}: ${(e as Error).message}`, { cause: e, retriable });
}

function hasMetadataListing(store: ObjectStore): store is ObjectStore & ObjectMetadataListing {
  return typeof (store as Partial<ObjectMetadataListing>).listObjects === 'function';
}

/**
 * The listing of a store's files: a local directory store is listed as its directory, which knows
 * modification times; any other store through the ObjectStore interface.
 */
export function storeListing(store: ObjectStore): FileListing {
  return store instanceof LocalDirectoryStore
    ? new DirectoryListing(store.location)
    : new ObjectStoreListing(store);
}
