import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KeyedStateStore, MEMORY_SAMPLE_ENTRIES } from '../../core/state/keyed-state-store.js';
import { stateEntryBytes, stateValueBytes } from '../../core/state/state-size-estimate.js';

/** The estimate of every entry held, summed by a full scan: what the store's sampled figure is measured against. */
function scannedBytes(store: KeyedStateStore): number {
  let bytes = 0;
  for (const [key, value] of store.entries()) bytes += stateEntryBytes(key, value);
  return bytes;
}

const stateValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double(),
    fc.string(),
    fc.uint8Array({ maxLength: 8 }),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.array(tie('value'), { maxLength: 3 }).map((xs) => new Set(xs)),
    fc.array(fc.tuple(fc.string(), tie('value')), { maxLength: 3 }).map((xs) => new Map(xs)),
  ),
})).value;

describe('the state size estimate', () => {
  it.each([
    ['a small integer lives in its slot', 7, 0],
    ['a double is a heap number', 0.5, 16],
    ['a string is a header and two bytes per code unit', 'abcd', 16 + 8],
    ['an array is a header and a slot per element', [1, 2, 3], 16 + 24],
    ['an array of strings adds the strings', ['ab'], 16 + 8 + 16 + 4],
    ['a Uint8Array is its view and its bytes', new Uint8Array(10), 64 + 10],
    ['a Set is its table and an entry per element', new Set([1, 2]), 64 + 64],
    ['a Map adds its keys and values', new Map([['k', 'v']]), 64 + 32 + 18 + 18],
    ['null is a shared constant', null, 0],
  ])('%s', (_, value, bytes) => {
    expect(stateValueBytes(value)).toBe(bytes);
  });

  it('of an entry counts its slot in the store, its key and its value', () => {
    expect(stateEntryBytes('key', [1, 2])).toBe(32 + (16 + 6) + (16 + 16));
  });

  it('grows with what a value holds', () => {
    fc.assert(
      fc.property(fc.array(stateValue, { maxLength: 5 }), stateValue, (values, extra) => {
        expect(stateValueBytes([...values, extra])).toBeGreaterThan(stateValueBytes(values));
      }),
    );
  });
});

describe("a store's memoryUsedBytes", () => {
  const operation = fc.oneof(
    fc.record({
      op: fc.constant('put' as const),
      key: fc.string({ maxLength: 3 }),
      value: stateValue,
    }),
    fc.record({ op: fc.constant('remove' as const), key: fc.string({ maxLength: 3 }) }),
  );

  it('after any puts and removes, equals a full scan of the entries while no partition holds more than the sample', () => {
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 60 }), (operations) => {
        const store = new KeyedStateStore(4);
        for (const o of operations) {
          if (o.op === 'put') store.put(o.key, o.value);
          else store.remove(o.key);
        }
        expect(store.memoryUsedBytes).toBe(scannedBytes(store));
      }),
    );
  });

  it('of a store loaded from its changes equals that of the store that made them', () => {
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 60 }), (operations) => {
        const written = new KeyedStateStore(4);
        const loaded = new KeyedStateStore(4);
        for (const o of operations) {
          if (o.op === 'put') written.put(o.key, o.value);
          else written.remove(o.key);
        }
        for (const [p, changes] of written.takeChanges()) {
          for (const [key, value] of changes) loaded.apply(p, key, value);
        }
        expect(loaded.memoryUsedBytes).toBe(written.memoryUsedBytes);
        expect(loaded.size).toBe(written.size);
      }),
    );
  });

  it('of a partition larger than the sample, scales the sampled entries to all of them', () => {
    const store = new KeyedStateStore(1);
    const entries = 50 * MEMORY_SAMPLE_ENTRIES;
    // keys of one width, values of two sizes in turn: the sample has the average of the whole
    for (let i = 0; i < entries; i++)
      store.put(`k${String(i).padStart(5, '0')}`, i % 2 === 0 ? [0.5] : [0.5, 'abcdefgh']);
    expect(store.memoryUsedBytes).toBe(scannedBytes(store));
  });

  it('is 0 for an empty store and after every key was removed', () => {
    const store = new KeyedStateStore(2);
    expect(store.memoryUsedBytes).toBe(0);
    store.put('a', ['x', 1]);
    store.put('b', 2.5);
    expect(store.memoryUsedBytes).toBeGreaterThan(0);
    store.remove('a');
    store.remove('b');
    expect(store.memoryUsedBytes).toBe(0);
  });
});
