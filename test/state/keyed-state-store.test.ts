import { describe, expect, it } from 'vitest';
import { DELETED, KeyedStateStore } from '../../core/state/keyed-state-store.js';

/** Keys of `store` that fall in distinct partitions, one per partition asked for. */
function keysInDistinctPartitions(store: KeyedStateStore, count: number): string[] {
  const byPartition = new Map<number, string>();
  for (let i = 0; byPartition.size < count; i++) {
    const key = `key-${i}`;
    if (!byPartition.has(store.partitionOf(key))) byPartition.set(store.partitionOf(key), key);
  }
  return [...byPartition.values()];
}

describe('KeyedStateStore', () => {
  describe('partitioning', () => {
    it('is 32-bit FNV-1a of the key modulo the partition count, so state files written by earlier versions still match', () => {
      // published FNV-1a test vectors: "" -> 0x811c9dc5, "a" -> 0xe40c292c, "foobar" -> 0xbf9cf968
      const store = new KeyedStateStore(1_000_003);
      expect(store.partitionOf('')).toBe(0x811c9dc5 % 1_000_003);
      expect(store.partitionOf('a')).toBe(0xe40c292c % 1_000_003);
      expect(store.partitionOf('foobar')).toBe(0xbf9cf968 % 1_000_003);
      // asked again, in any order
      expect(store.partitionOf('foobar')).toBe(0xbf9cf968 % 1_000_003);
      expect(store.partitionOf('a')).toBe(0xe40c292c % 1_000_003);
    });

    it('puts a key in the same partition in every store with the same partition count', () => {
      const a = new KeyedStateStore(16);
      const b = new KeyedStateStore(16);
      for (let i = 0; i < 200; i++) {
        const key = JSON.stringify([`category-${i}`, i * 1_000_000]);
        expect(a.partitionOf(key)).toBe(b.partitionOf(key));
      }
    });

    it('spreads keys over every partition, each within range', () => {
      const store = new KeyedStateStore(16);
      const counts = new Array<number>(16).fill(0);
      for (let i = 0; i < 1_600; i++) counts[store.partitionOf(`user-${i}`)]++;
      expect(counts.every((n) => n > 50)).toBe(true);
      expect(counts.reduce((a, b) => a + b)).toBe(1_600);
    });
  });

  describe('reads and writes', () => {
    it('gets what was put, counts keys once, and forgets removed keys', () => {
      const store = new KeyedStateStore(4);
      store.put('a', 1);
      store.put('b', [1, 2]);
      store.put('a', 2);
      expect(store.get('a')).toBe(2);
      expect(store.size).toBe(2);
      expect(store.remove('a')).toBe(true);
      expect(store.remove('never-there')).toBe(false);
      expect(store.get('a')).toBeUndefined();
      expect(store.size).toBe(1);
      expect([...store.entries()]).toEqual([['b', [1, 2]]]);
    });

    it('iterates every entry of every partition', () => {
      const store = new KeyedStateStore(8);
      for (let i = 0; i < 100; i++) store.put(`k${i}`, i);
      const entries = [...store.entries()];
      expect(entries).toHaveLength(100);
      expect(new Map(entries).get('k42')).toBe(42);
      const perPartition = Array.from({ length: 8 }, (_, p) => [...store.partitionEntries(p)]);
      expect(perPartition.flat()).toHaveLength(100);
      perPartition.forEach((partition, p) =>
        partition.forEach(([k]) => expect(store.partitionOf(k)).toBe(p)),
      );
    });
  });

  describe('change tracking', () => {
    it('records the changes since the last take, grouped by the partition of each key', () => {
      const store = new KeyedStateStore(16);
      const [k1, k2, k3] = keysInDistinctPartitions(store, 3);
      store.put(k1, 'one');
      store.put(k2, 'two');
      store.put(k3, 'three');
      store.remove(k3);
      const changes = store.takeChanges();
      expect(new Set(changes.keys())).toEqual(
        new Set([k1, k2, k3].map((k) => store.partitionOf(k))),
      );
      expect(changes.get(store.partitionOf(k1))).toEqual(new Map([[k1, 'one']]));
      expect(changes.get(store.partitionOf(k2))).toEqual(new Map([[k2, 'two']]));
      expect(changes.get(store.partitionOf(k3))).toEqual(new Map([[k3, DELETED]]));
    });

    it('keeps only the last change of a key', () => {
      const store = new KeyedStateStore(4);
      store.put('k', 1);
      store.put('k', 2);
      store.remove('k');
      store.put('k', 3);
      expect(store.takeChanges().get(store.partitionOf('k'))).toEqual(new Map([['k', 3]]));
    });

    it('starts a fresh change set after each take', () => {
      const store = new KeyedStateStore(4);
      store.put('a', 1);
      store.takeChanges();
      expect(store.takeChanges().size).toBe(0);
      store.put('b', 2);
      expect([...store.takeChanges().values()].flatMap((c) => [...c.keys()])).toEqual(['b']);
    });

    it('records no change for removing a key that is not there', () => {
      const store = new KeyedStateStore(4);
      store.remove('ghost');
      expect(store.takeChanges().size).toBe(0);
    });

    it('applies persisted changes while loading without recording them as new changes', () => {
      const store = new KeyedStateStore(4);
      store.apply(store.partitionOf('a'), 'a', 1);
      store.apply(store.partitionOf('b'), 'b', 2);
      store.apply(store.partitionOf('a'), 'a', DELETED);
      store.apply(store.partitionOf('c'), 'c', DELETED);
      expect([...store.entries()]).toEqual([['b', 2]]);
      expect(store.size).toBe(1);
      expect(store.takeChanges().size).toBe(0);
    });
  });
});
