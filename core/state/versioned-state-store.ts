/**
 * The state store lifecycle, as Spark's StateStore has it: a stateful operator gets a store at
 * version N-1 for batch N, reads and writes it, and then either commits it (which yields version N)
 * or aborts it. Using a store after it was committed or aborted, or committing it twice, is an
 * internal error: it would mean state that no version holds, or a version made of two batches.
 *
 * The handle counts what the batch did to its store (rows updated, rows removed), so each
 * operator's progress reports its own stores rather than one counter shared by the query.
 */
import { ExecutionError } from '../errors.js';
import type { KeyedStateStore } from './keyed-state-store.js';
import { describeStore, type StateStoreId } from './state-store-id.js';
import type { StateStore } from './state-store.js';

/** Where a store is in its lifecycle. */
export type StateStorePhase = 'updating' | 'committed' | 'aborted';

/** What a batch did to one store. */
export interface StateStoreMetrics {
  readonly numRowsTotal: number;
  readonly numRowsUpdated: number;
  readonly numRowsRemoved: number;
  /** The estimated bytes the store's entries take in memory after the batch (state-size-estimate.ts). */
  readonly memoryUsedBytes: number;
}

/** One store at one version, open for one batch. */
export class VersionedStateStore implements StateStore {
  private phase: StateStorePhase = 'updating';
  private updated = 0;
  private removed = 0;

  constructor(
    readonly id: StateStoreId,
    /** The version the store was opened at: the batchId of the commit that holds it, -1 for none. */
    readonly version: number,
    private readonly data: KeyedStateStore,
  ) {}

  get(key: string): unknown {
    this.checkUpdating('read');
    return this.data.get(key);
  }

  put(key: string, value: unknown): void {
    this.checkUpdating('write');
    this.data.put(key, value);
    this.updated++;
  }

  remove(key: string): void {
    this.checkUpdating('remove from');
    if (this.data.remove(key)) this.removed++;
  }

  entries(): IterableIterator<[string, unknown]> {
    this.checkUpdating('iterate');
    return this.data.entries();
  }

  get size(): number {
    return this.data.size;
  }

  /** Ends the batch's updates; returns the version they make (the next one). */
  commit(): number {
    this.checkUpdating('commit');
    this.phase = 'committed';
    return this.version + 1;
  }

  /** Discards the batch's updates: the store's data must not be used as any version again. */
  abort(): void {
    if (this.phase === 'committed') {
      throw new ExecutionError(
        `Internal error: ${describeStore(this.id)} at version ${this.version} was aborted after it was committed.`,
      );
    }
    this.phase = 'aborted';
  }

  /** Where the store is in its lifecycle. */
  get state(): StateStorePhase {
    return this.phase;
  }

  /** What this batch did to the store so far. */
  metrics(): StateStoreMetrics {
    return {
      numRowsTotal: this.data.size,
      numRowsUpdated: this.updated,
      numRowsRemoved: this.removed,
      memoryUsedBytes: this.data.memoryUsedBytes,
    };
  }

  private checkUpdating(action: string): void {
    if (this.phase !== 'updating') {
      throw new ExecutionError(
        `Internal error: tried to ${action} ${describeStore(this.id)} at version ${this.version} after it was ${this.phase}.`,
      );
    }
  }
}
