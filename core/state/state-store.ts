/**
 * The state store, as stateful operators see it: a key-value map for one operator at one version.
 * Keys are encoded group keys; values are plain data (numbers, strings, arrays, Sets, Maps,
 * Uint8Arrays) that the state codec can persist. A value belongs to the store once put, and one read
 * with `get` is the store's: copy it (copyStateValue) before changing it, never in place, since the
 * store's version and its size estimate are of the value as it was put. Versioning, partitioning
 * and persistence live behind this interface (see keyed-state-store.ts), so operators never do I/O.
 */

/** Key-value state of one stateful operator. */
export interface StateStore {
  /** The value under `key`, or undefined when there is none. */
  get(key: string): unknown;
  /** Sets the value under `key`. */
  put(key: string, value: unknown): void;
  /** Deletes `key` (a no-op when absent). */
  remove(key: string): void;
  /** Every entry, in no particular order. Do not modify the store while iterating. */
  entries(): IterableIterator<[string, unknown]>;
  /** The number of keys held. */
  readonly size: number;
}
