/**
 * The in-memory state of one stateful operator, split into a fixed number of partitions by key hash
 * (docs/architecture.md section 5). It records which keys changed since the last persist, so a
 * batch writes only the partitions it touched: persisting costs what changed, not what is held.
 */
import { stateEntryBytes } from './state-size-estimate.js';
import type { StateStore } from './state-store.js';

/** The entries of a partition that memoryUsedBytes measures; the others count as their average. */
export const MEMORY_SAMPLE_ENTRIES = 64;

/** Marks a key deleted in a partition's change set. */
export const DELETED: unique symbol = Symbol('deleted');

/** The changes of one partition since the last persist: new values, or DELETED. */
export type PartitionChanges = Map<string, unknown>;

/** State of one operator, partitioned by key hash. */
export class KeyedStateStore implements StateStore {
  private readonly partitions: Map<string, unknown>[];
  /** By partition, its changes since the last persist; undefined while it has none. */
  private changes: (PartitionChanges | undefined)[];
  private count = 0;
  private lastKey: string | undefined;
  private lastPartition = 0;

  constructor(readonly numPartitions: number) {
    this.partitions = Array.from({ length: numPartitions }, () => new Map());
    this.changes = new Array<PartitionChanges | undefined>(numPartitions).fill(undefined);
  }

  get(key: string): unknown {
    return this.partitions[this.partitionOf(key)].get(key);
  }

  put(key: string, value: unknown): void {
    const p = this.partitionOf(key);
    this.set(this.partitions[p], key, value);
    this.changesOf(p).set(key, value);
  }

  /** Removes `key`; false when the store did not hold it. */
  remove(key: string): boolean {
    const p = this.partitionOf(key);
    if (!this.delete(this.partitions[p], key)) return false;
    this.changesOf(p).set(key, DELETED);
    return true;
  }

  /**
   * Every entry, partition after partition. Not a generator: an eviction walks every entry of a
   * store each batch, and a generator's `yield*` costs more per entry than the lookup it feeds.
   */
  entries(): IterableIterator<[string, unknown]> {
    const partitions = this.partitions;
    let p = 0;
    let current: Iterator<[string, unknown]> | undefined = partitions[0]?.entries();
    const iterator: IterableIterator<[string, unknown]> = {
      next(): IteratorResult<[string, unknown]> {
        while (current) {
          const step = current.next();
          if (!step.done) return step;
          current = ++p < partitions.length ? partitions[p].entries() : undefined;
        }
        return { done: true, value: undefined };
      },
      [Symbol.iterator]() {
        return iterator;
      },
    };
    return iterator;
  }

  get size(): number {
    return this.count;
  }

  /**
   * The estimated bytes the entries take in memory (state-size-estimate.ts): of each partition, the
   * first MEMORY_SAMPLE_ENTRIES entries measured, and the rest taken to be of their average size, as
   * Spark's SizeEstimator samples a large array. Exact for a partition of no more entries. Measuring
   * once a batch costs a bounded walk; keeping a running figure cost a walk of every value put and
   * of the value it replaced, which for a join's lists of rows was a tenth of the batch.
   */
  get memoryUsedBytes(): number {
    let bytes = 0;
    for (const partition of this.partitions) {
      let sampled = 0;
      let sampledBytes = 0;
      for (const [key, value] of partition) {
        if (sampled === MEMORY_SAMPLE_ENTRIES) break;
        sampledBytes += stateEntryBytes(key, value);
        sampled++;
      }
      if (sampled > 0) bytes += Math.round((sampledBytes * partition.size) / sampled);
    }
    return bytes;
  }

  /** The entries of one partition (for snapshots). */
  partitionEntries(p: number): IterableIterator<[string, unknown]> {
    return this.partitions[p].entries();
  }

  /** How many keys one partition holds. */
  partitionSize(p: number): number {
    return this.partitions[p].size;
  }

  /** Applies a persisted change while loading, without recording it as a new change. */
  apply(p: number, key: string, value: unknown): void {
    if (value === DELETED) this.delete(this.partitions[p], key);
    else this.set(this.partitions[p], key, value);
  }

  /** Whether a key was put or removed since the last `takeChanges`. */
  get hasChanges(): boolean {
    return this.changes.some((c) => c !== undefined);
  }

  /** Returns and clears the changes since the last call, by partition. */
  takeChanges(): Map<number, PartitionChanges> {
    const changes = new Map<number, PartitionChanges>();
    this.changes.forEach((c, p) => {
      if (c) changes.set(p, c);
    });
    this.changes.fill(undefined);
    return changes;
  }

  /**
   * The partition of a key: FNV-1a over its UTF-16 code units; fixed forever, since state files
   * depend on it. The last key's partition is kept: an operator mostly gets a key and then puts it.
   */
  partitionOf(key: string): number {
    if (key === this.lastKey) return this.lastPartition;
    let h = 0x811c9dc5;
    for (let i = 0; i < key.length; i++) {
      h ^= key.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    this.lastKey = key;
    this.lastPartition = (h >>> 0) % this.numPartitions;
    return this.lastPartition;
  }

  /** Sets an entry, counting it when its key is new (the map's size shows it, saving a lookup). */
  private set(partition: Map<string, unknown>, key: string, value: unknown): void {
    const before = partition.size;
    partition.set(key, value);
    if (partition.size > before) this.count++;
  }

  /** Deletes an entry, uncounting it; false when there was none. */
  private delete(partition: Map<string, unknown>, key: string): boolean {
    if (!partition.delete(key)) return false;
    this.count--;
    return true;
  }

  private changesOf(p: number): PartitionChanges {
    let c = this.changes[p];
    if (!c) {
      c = new Map();
      this.changes[p] = c;
    }
    return c;
  }
}
