/**
 * The object store the checkpoint keeps its files in: a local directory here, S3 in the AWS adapter.
 * Keys are '/'-separated paths. The protocol relies only on two things: `put` of a key nobody else
 * writes (attempt-unique keys), and `putIfAbsent`, which tells whether it created the object.
 */

/** The outcome of a conditional create: an expected result, not an error. */
export type CreateResult = 'created' | 'exists';

/** A minimal object store. */
export interface ObjectStore {
  /** A description for messages (e.g. the directory or bucket/prefix). */
  readonly location: string;
  /** Writes an object; callers only use keys no other writer uses. */
  put(key: string, bytes: Uint8Array): Promise<void>;
  /** Creates an object only if the key is free; atomically. */
  putIfAbsent(key: string, bytes: Uint8Array): Promise<CreateResult>;
  /** Reads an object; undefined when it does not exist. */
  get(key: string): Promise<Uint8Array | undefined>;
  /** Keys under a prefix, sorted. */
  list(prefix: string): Promise<string[]>;
  /** Deletes an object (a no-op when absent). */
  delete(key: string): Promise<void>;
  /**
   * Deletes what killed writers left behind (temporary files of writes that never completed) once
   * no live writer can own it, returning how many it deleted. Stores whose writes leave nothing
   * behind (S3, memory) have no such method.
   */
  removeAbandonedWrites?(): Promise<number>;
}

/**
 * A store that reads an object as a stream of chunks, so that a reader of a large object holds one
 * chunk at a time rather than the whole object (the S3 store streams GetObject's body).
 */
export interface ObjectStreamReading {
  /** The object's bytes as chunks; undefined when it does not exist. */
  getStream(key: string): Promise<AsyncIterable<Uint8Array> | undefined>;
}

/** True for a store that can stream objects. */
export function canStreamObjects(store: ObjectStore): store is ObjectStore & ObjectStreamReading {
  return typeof (store as Partial<ObjectStreamReading>).getStream === 'function';
}

/**
 * A store that reads a byte range of an object without reading the rest (the S3 store: a GetObject
 * with a Range), so that the file source learns a `.gz`'s uncompressed size from its last bytes.
 */
export interface ObjectRangeReading {
  /**
   * The `length` bytes of the object from byte `start` (fewer at its end); undefined when it does
   * not exist.
   */
  getRange(key: string, start: number, length: number): Promise<Uint8Array | undefined>;
}

/** True for a store that can read a byte range of an object. */
export function canReadRanges(store: ObjectStore): store is ObjectStore & ObjectRangeReading {
  return typeof (store as Partial<ObjectRangeReading>).getRange === 'function';
}
