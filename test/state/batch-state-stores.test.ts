import { describe, expect, it } from 'vitest';
import { KeyedStateStore } from '../../core/state/keyed-state-store.js';
import { BatchStateStores } from '../../core/state/batch-state-stores.js';
import { manifestEntry, stateStoreId } from '../../core/state/state-store-id.js';
import { stateEntryBytes } from '../../core/state/state-size-estimate.js';

const IDS = [stateStoreId(0), stateStoreId(1, 'left'), stateStoreId(1, 'right')];

function open() {
  const data = new Map(IDS.map((id) => [manifestEntry(id), new KeyedStateStore(4)]));
  return { data, stores: new BatchStateStores(data, IDS, 6) };
}

describe('BatchStateStores', () => {
  it('open every declared store at the version of the last commit', () => {
    const { stores } = open();
    expect(IDS.map((id) => stores.store(id.operatorId, id.storeName).version)).toEqual([6, 6, 6]);
  });

  it("sum an operator's figures over its stores only", () => {
    const { stores } = open();
    stores.store(1, 'left').put('a', 1);
    stores.store(1, 'right').put('b', 1);
    stores.store(0).put('c', 1);
    expect(stores.metrics(1)).toEqual({
      numRowsTotal: 2,
      numRowsUpdated: 2,
      numRowsRemoved: 0,
      memoryUsedBytes: stateEntryBytes('a', 1) + stateEntryBytes('b', 1),
    });
  });

  it('commit or abort all stores together', () => {
    const committed = open().stores;
    committed.commit();
    expect(IDS.map((id) => committed.store(id.operatorId, id.storeName).state)).toEqual([
      'committed',
      'committed',
      'committed',
    ]);
    const aborted = open().stores;
    aborted.abort();
    expect(() => aborted.store(0).get('k')).toThrow(/after it was aborted/);
  });

  it('refuse a store the operator did not declare, as an internal error', () => {
    expect(() => open().stores.store(1)).toThrow(
      "Internal error: operator 1 store 'default' is not among the stores the operator declared.",
    );
  });
});
