import { describe, expect, it } from 'vitest';
import { ExecutionError } from '../../core/errors.js';
import { KeyedStateStore } from '../../core/state/keyed-state-store.js';
import { stateStoreId } from '../../core/state/state-store-id.js';
import { VersionedStateStore } from '../../core/state/versioned-state-store.js';
import { stateEntryBytes } from '../../core/state/state-size-estimate.js';

function openStore(version = 4) {
  const data = new KeyedStateStore(4);
  data.put('kept', 1);
  data.takeChanges();
  return new VersionedStateStore(stateStoreId(2, 'left'), version, data);
}

describe('VersionedStateStore', () => {
  it('commits the batch it was opened for as the next version', () => {
    const store = openStore(4);
    store.put('k', 'v');
    expect(store.commit()).toBe(5);
    expect(store.state).toBe('committed');
  });

  it('counts the rows a batch updated and removed, and the rows it holds', () => {
    const store = openStore();
    store.put('a', 1);
    store.put('a', 2);
    store.put('b', 1);
    store.remove('kept');
    store.remove('never-there');
    expect(store.metrics()).toEqual({
      numRowsTotal: 2,
      numRowsUpdated: 3,
      numRowsRemoved: 1,
      memoryUsedBytes: stateEntryBytes('a', 2) + stateEntryBytes('b', 1),
    });
  });

  it.each([
    ['read', (s: VersionedStateStore) => s.get('kept')],
    ['write', (s: VersionedStateStore) => s.put('k', 1)],
    ['remove from', (s: VersionedStateStore) => s.remove('kept')],
    ['iterate', (s: VersionedStateStore) => [...s.entries()]],
    ['commit', (s: VersionedStateStore) => s.commit()],
  ])('refuses to %s a store after its commit, as an internal error naming it', (action, use) => {
    const store = openStore(4);
    store.commit();
    expect(() => use(store)).toThrow(ExecutionError);
    expect(() => use(store)).toThrow(
      `Internal error: tried to ${action} operator 2 store 'left' at version 4 after it was committed.`,
    );
  });

  it('refuses any use after an abort, and an abort after a commit', () => {
    const aborted = openStore();
    aborted.abort();
    expect(() => aborted.put('k', 1)).toThrow(/after it was aborted/);
    expect(() => aborted.commit()).toThrow(/after it was aborted/);
    const committed = openStore();
    committed.commit();
    expect(() => committed.abort()).toThrow(/aborted after it was committed/);
  });
});
