import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemoryObjectStore } from '../../core/checkpoint/memory-object-store.js';
import { CheckpointError } from '../../core/errors.js';
import { encodeInlineState } from '../../core/state/inline-state.js';
import type { KeyedStateStore } from '../../core/state/keyed-state-store.js';
import {
  type PersistResult,
  type StateManifest,
  StateRepository,
  type StateVersionRef,
  type StoresByEntry,
} from '../../core/state/state-repository.js';
import { stateStoreId } from '../../core/state/state-store-id.js';

const PARTITIONS = 4;
const INTERVAL = 3;
const BUDGET = 32 * 1024;
const ids = [stateStoreId(0), stateStoreId(1, 'right')];

/** A repository over a store that counts what it is asked to write. */
function setup(budget = BUDGET, numPartitions = PARTITIONS) {
  const objects = new MemoryObjectStore();
  const puts: string[] = [];
  const put = objects.put.bind(objects);
  objects.put = (key, bytes) => {
    puts.push(key);
    return put(key, bytes);
  };
  return {
    objects,
    puts,
    repository: new StateRepository(objects, numPartitions, INTERVAL, [], budget),
  };
}

function contents(stores: StoresByEntry): Record<string, [string, unknown][]> {
  return Object.fromEntries(
    [...stores].map(([entry, s]) => [entry, [...s.entries()].sort(([a], [b]) => (a < b ? -1 : 1))]),
  );
}

/** Persists batch `batchId` after `change` and returns what it wrote and the version. */
async function persistBatch(
  repository: StateRepository,
  state: { manifest: StateManifest; stores: StoresByEntry },
  batchId: number,
  change: (stores: StoresByEntry) => void,
): Promise<PersistResult> {
  change(state.stores);
  const persisted = await repository.persist(batchId, `a${batchId}`, state.manifest, state.stores);
  state.manifest = persisted.manifest;
  return persisted;
}

const store = (stores: StoresByEntry, entry: string): KeyedStateStore => stores.get(entry)!;

describe('state carried by the commit', () => {
  it('writes no object for a small version, and a cold load of it holds every put, delete and value type', async () => {
    const { repository, puts } = setup();
    const state = await repository.load(null, ids);
    const v0 = await persistBatch(repository, state, 0, (s) => {
      store(s, '0').put('a', new Map([['x', new Set([1, 2])]]));
      store(s, '0').put('z', -0);
      store(s, '0').put('b', Infinity);
      store(s, '1/right').put('c', new Uint8Array([1, 2]));
    });
    const v1 = await persistBatch(repository, state, 1, (s) => {
      store(s, '0').remove('b');
      store(s, '0').put('d', 'new');
    });
    expect(puts.filter((k) => k.includes('/manifests/'))).toEqual([]);
    expect(v0.version).toMatchObject({ manifestKey: null, batchId: 0 });
    expect(v1.version.inlineState!.length).toBeLessThanOrEqual(BUDGET);
    const cold = await repository.load(v1.version, ids);
    expect(contents(cold.stores)).toEqual(contents(state.stores));
    expect(store(cold.stores, '0').get('a')).toEqual(new Map([['x', new Set([1, 2])]]));
    expect(Object.is(store(cold.stores, '0').get('z'), -0)).toBe(true);
    // the earlier version still loads as it was
    const earlier = await repository.load(v0.version, ids);
    expect(store(earlier.stores, '0').get('b')).toBe(Infinity);
    expect(store(earlier.stores, '0').get('d')).toBeUndefined();
  });

  it('merges a key changed in every batch into one inline change', async () => {
    const { repository } = setup(BUDGET, 1);
    const state = await repository.load(null, [ids[0]]);
    let last: PersistResult | undefined;
    // batch 0 is the only partition's turn; the next turn comes INTERVAL batches later
    for (let b = 1; b < INTERVAL; b++)
      last = await persistBatch(repository, state, b, (s) => store(s, '0').put('k', b));
    expect(last!.manifest.operators['0'][0].inline).toEqual([['k', INTERVAL - 1]]);
  });

  it('snapshots one partition per batch, in turns, so every partition gets its snapshot within the period', async () => {
    const { repository, puts } = setup();
    const state = await repository.load(null, ids);
    const slots = ids.length * PARTITIONS;
    const perBatch: number[] = [];
    for (let b = 0; b < 2 * slots; b++) {
      const before = puts.length;
      // every partition of both stores changes in every batch
      await persistBatch(repository, state, b, (s) => {
        for (let k = 0; k < 40; k++) {
          store(s, '0').put(`k${k}`, b);
          store(s, '1/right').put(`k${k}`, -b);
        }
      });
      perBatch.push(puts.length - before);
    }
    expect(Math.max(...perBatch)).toBe(1);
    expect(new Set(puts).size).toBe(puts.length);
    const snapshotted = new Set(puts.map((k) => k.split('/').slice(1, -1).join('/')));
    expect(snapshotted.size).toBe(slots);
  });

  it('spills every inline change to delta files when the commit would exceed its budget (snapshots when they cover the partition), and still loads', async () => {
    const { repository, puts } = setup(600);
    const state = await repository.load(null, [ids[0]]);
    const small = await persistBatch(repository, state, 1, (s) => store(s, '0').put('a', 1));
    expect(puts).toEqual([]);
    expect(small.version.inlineState).toBeDefined();
    const key = (k: number) => `key-${k}-${'x'.repeat(k % 7)}`;
    await persistBatch(repository, state, 2, (s) => {
      for (let k = 0; k < 200; k++) store(s, '0').put(key(k), k * 7919);
    });
    // the changes of a partition that holds nothing else are its whole contents: a snapshot
    expect(puts.length).toBe(PARTITIONS);
    expect(puts.every((k) => k.endsWith('.snapshot'))).toBe(true);
    puts.length = 0;
    const big = await persistBatch(repository, state, 3, (s) => {
      for (let k = 0; k < 200; k += 2) store(s, '0').put(key(k), -k);
    });
    // half of each partition changed: the inline changes became delta files, but for the
    // partition whose turn it is (batch 3 of 4 slots), whose changes make a snapshot worth it
    expect(puts.filter((k) => k.endsWith('.delta'))).toHaveLength(PARTITIONS - 1);
    expect(puts.filter((k) => k.endsWith('.snapshot'))).toEqual([
      expect.stringMatching(/^state\/0\/3\//),
    ]);
    expect(big.version.inlineState!.length).toBeLessThanOrEqual(600);
    for (const files of big.manifest.operators['0']) expect(files.inline ?? []).toEqual([]);
    const cold = await repository.load(big.version, [ids[0]]);
    expect(contents(cold.stores)).toEqual(contents(state.stores));
  });

  it('spills a carried inline change that the batch changed again with its new value', async () => {
    const { repository, puts } = setup(600);
    const state = await repository.load(null, [ids[0]]);
    const key = (k: number) => `key-${k}-${'x'.repeat(k % 7)}`;
    await persistBatch(repository, state, 1, (s) => {
      for (let k = 0; k < 200; k++) store(s, '0').put(key(k), k);
    });
    // a few keys of every partition, carried inline by the commit
    const carried = await persistBatch(repository, state, 2, (s) => {
      for (let k = 0; k < 8; k++) store(s, '0').put(key(k), 'carried');
    });
    expect(carried.version.inlineState).toBeDefined();
    puts.length = 0;
    // the carried keys changed again, with enough others that the commit spills to delta files
    const spilled = await persistBatch(repository, state, 3, (s) => {
      for (let k = 0; k < 8; k++) store(s, '0').put(key(k), 'changed again');
      for (let k = 8; k < 200; k += 2) store(s, '0').put(key(k), -k);
    });
    expect(puts.filter((k) => k.endsWith('.delta')).length).toBeGreaterThan(0);
    const cold = await repository.load(spilled.version, [ids[0]]);
    expect(contents(cold.stores)).toEqual(contents(state.stores));
    expect(store(cold.stores, '0').get(key(1))).toBe('changed again');
  });

  it('spills at once changes whose keys alone are far over the budget, and still loads them', async () => {
    const { repository, puts } = setup(600);
    const state = await repository.load(null, [ids[0]]);
    // 3,000 keys: over 32 budgets of JSON before any value, so no compression is tried
    const big = await persistBatch(repository, state, 1, (s) => {
      for (let k = 0; k < 3000; k++) store(s, '0').put(`k${k}`, k % 3 === 0 ? null : [k, 'v']);
    });
    // a first batch's changes cover the whole partition, so the spill is written as its snapshot
    expect(puts.filter((k) => k.endsWith('.snapshot')).length).toBeGreaterThan(0);
    for (const files of big.manifest.operators['0']) expect(files.inline ?? []).toEqual([]);
    const cold = await repository.load(big.version, [ids[0]]);
    expect(contents(cold.stores)).toEqual(contents(state.stores));
  });

  it('on a large partition with few changes, writes no snapshot on its turn until they amount to an interval of its keys', async () => {
    const { repository, puts } = setup(BUDGET, 1);
    const state = await repository.load(null, [ids[0]]);
    await persistBatch(repository, state, 0, (s) => {
      for (let k = 0; k < 300; k++) store(s, '0').put(`k${k}`, 0);
    });
    puts.length = 0;
    // one partition, whose turn comes every interval (3) batches; of its 300 keys, 100 changed
    // (a third, the interval's share) make a snapshot worth it: not at batch 3 (60), at 6 (120)
    const snapshotAt: number[] = [];
    for (let b = 1; b <= 12; b++) {
      const before = puts.length;
      await persistBatch(repository, state, b, (s) => {
        for (let k = 0; k < 20; k++) store(s, '0').put(`k${(b * 20 + k) % 300}`, b);
      });
      if (puts.length > before) snapshotAt.push(b);
    }
    expect(puts.every((k) => k.endsWith('.snapshot'))).toBe(true);
    expect(snapshotAt).toEqual([6, 12]);
  });

  it('writes the manifest as an object when even the manifest alone exceeds the budget', async () => {
    const { repository, puts } = setup(16);
    const state = await repository.load(null, [ids[0]]);
    const v = await persistBatch(repository, state, 1, (s) => store(s, '0').put('a', 1));
    expect(v.version.inlineState).toBeUndefined();
    expect(v.version.manifestKey).toMatch(/^state\/manifests\//);
    expect(puts).toContain(v.version.manifestKey);
    expect(store((await repository.load(v.version, [ids[0]])).stores, '0').get('a')).toBe(1);
  });

  it('encodes a manifest only when its text fits the budget, to the character', () => {
    const manifest = { formatVersion: 1, note: 'x'.repeat(5000), n: [1, 2, 3] };
    const text = encodeInlineState(manifest)!;
    expect(encodeInlineState(manifest, text.length)).toBe(text);
    expect(encodeInlineState(manifest, text.length - 1)).toBeUndefined();
    expect(encodeInlineState(manifest, 8)).toBeUndefined();
  });

  it('refuses a commit whose carried state does not decompress, or is the version of another batch', async () => {
    const { repository } = setup();
    const state = await repository.load(null, [ids[0]]);
    const v = await persistBatch(repository, state, 3, (s) => store(s, '0').put('a', 1));
    const damaged: StateVersionRef = { ...v.version, inlineState: `A${v.version.inlineState!}` };
    await expect(repository.load(damaged, [ids[0]])).rejects.toThrow(CheckpointError);
    await expect(repository.load(damaged, [ids[0]])).rejects.toThrow(
      'The state carried by the commit record of batch 3 does not decompress',
    );
    const moved = { ...v.version, batchId: 4 };
    await expect(repository.load(moved, [ids[0]])).rejects.toThrow(
      'holds version 3 but commit 4 names it',
    );
    const notManifest = { ...v.version, inlineState: encodeInlineState({ formatVersion: 9 }) };
    await expect(repository.load(notManifest, [ids[0]])).rejects.toThrow(
      'unknown format version 9',
    );
  });

  it('loads, after any sequence of batches, exactly the state it persisted, within the budget', async () => {
    const op = fc.record({
      key: fc.constantFrom(...Array.from({ length: 30 }, (_, i) => `k${i}`)),
      value: fc.option(fc.integer(), { nil: undefined }),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(op, { maxLength: 25 }), { minLength: 1, maxLength: 12 }),
        fc.constantFrom(400, 2_000, BUDGET),
        async (batches, budget) => {
          const { repository } = setup(budget);
          const state = await repository.load(null, [ids[0]]);
          for (const [b, ops] of batches.entries()) {
            const v = await persistBatch(repository, state, b, (s) => {
              for (const { key, value } of ops) {
                if (value === undefined) store(s, '0').remove(key);
                else store(s, '0').put(key, value);
              }
            });
            if (v.version.inlineState)
              expect(v.version.inlineState.length).toBeLessThanOrEqual(budget);
            const cold = await repository.load(v.version, [ids[0]]);
            expect(contents(cold.stores)).toEqual(contents(state.stores));
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
