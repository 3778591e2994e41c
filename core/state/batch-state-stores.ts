/**
 * The state stores of a query's stateful operators, opened together for one micro-batch at the
 * version of the last commit, and committed or aborted together with the batch: a batch's state is
 * one version across every store, never some stores of one batch and some of another.
 */
import { ExecutionError } from '../errors.js';
import type { StoresByEntry } from './state-repository.js';
import {
  DEFAULT_STORE_NAME,
  describeStore,
  manifestEntry,
  stateStoreId,
  type StateStoreId,
} from './state-store-id.js';
import { type StateStoreMetrics, VersionedStateStore } from './versioned-state-store.js';

/** Every store of every stateful operator, open for one batch. */
export class BatchStateStores {
  private readonly open = new Map<string, VersionedStateStore>();

  constructor(stores: StoresByEntry, storeIds: readonly StateStoreId[], version: number) {
    for (const id of storeIds) {
      const entry = manifestEntry(id);
      const data = stores.get(entry);
      if (!data) throw new ExecutionError(`Internal error: ${describeStore(id)} was not loaded.`);
      this.open.set(entry, new VersionedStateStore(id, version, data));
    }
  }

  /** Operator `operatorId`'s store `storeName`. */
  store(operatorId: number, storeName = DEFAULT_STORE_NAME): VersionedStateStore {
    const id = stateStoreId(operatorId, storeName);
    const store = this.open.get(manifestEntry(id));
    if (!store) {
      throw new ExecutionError(
        `Internal error: ${describeStore(id)} is not among the stores the operator declared.`,
      );
    }
    return store;
  }

  /** Commits every store: the batch's updates make the next version. */
  commit(): void {
    for (const store of this.open.values()) store.commit();
  }

  /** Aborts every store still open: the batch failed, its updates belong to no version. */
  abort(): void {
    for (const store of this.open.values()) if (store.state === 'updating') store.abort();
  }

  /** What the batch did to operator `operatorId`'s stores, summed over them. */
  metrics(operatorId: number): StateStoreMetrics {
    let numRowsTotal = 0;
    let numRowsUpdated = 0;
    let numRowsRemoved = 0;
    let memoryUsedBytes = 0;
    for (const store of this.open.values()) {
      if (store.id.operatorId !== operatorId) continue;
      const m = store.metrics();
      numRowsTotal += m.numRowsTotal;
      numRowsUpdated += m.numRowsUpdated;
      numRowsRemoved += m.numRowsRemoved;
      memoryUsedBytes += m.memoryUsedBytes;
    }
    return { numRowsTotal, numRowsUpdated, numRowsRemoved, memoryUsedBytes };
  }
}
