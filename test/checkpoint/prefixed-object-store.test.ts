import { describe, expect, it } from 'vitest';
import { MemoryObjectStore } from '../../core/checkpoint/memory-object-store.js';
import { PrefixedObjectStore } from '../../core/checkpoint/prefixed-object-store.js';
import { objectStoreContract } from './object-store-contract.js';

objectStoreContract(
  'under a prefix of another store',
  () => new PrefixedObjectStore(new MemoryObjectStore(), 'sources/0/'),
  { enforcesPutIfAbsent: true },
);

describe('a store under a prefix', () => {
  it('keeps its objects under the prefix and never sees the other objects of the store', async () => {
    const store = new MemoryObjectStore('checkpoint');
    await store.put('sources/1/a', Buffer.from('other'));
    await store.put('state/x', Buffer.from('state'));
    const source = new PrefixedObjectStore(store, 'sources/0/');
    await source.put('a', Buffer.from('mine'));
    expect(await store.list('')).toEqual(['sources/0/a', 'sources/1/a', 'state/x']);
    expect(await source.list('')).toEqual(['a']);
    expect(Buffer.from((await source.get('a'))!).toString()).toBe('mine');
    expect(source.location).toBe('checkpoint/sources/0');
  });
});
