import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ExpiryIndex } from '../../core/exec/expiry-index.js';
import { KeyedStateStore } from '../../core/state/keyed-state-store.js';

const MINUTE = 60_000;

describe('ExpiryIndex', () => {
  it('returns the entries due before a time ordered by time, then id', () => {
    const index = new ExpiryIndex(new KeyedStateStore(4));
    index.add(3 * MINUTE, 'b', 'b3');
    index.add(10, 'z', 'z0');
    index.add(3 * MINUTE, 'a', 'a3');
    index.add(5 * MINUTE, 'c', 'c5');
    expect(index.dueBefore(5 * MINUTE).map((e) => e.payload)).toEqual(['z0', 'a3', 'b3']);
    expect(index.earliest()).toBe(10);
  });

  it('forgets removed entries and drops a bucket once it is empty', () => {
    const store = new KeyedStateStore(4);
    const index = new ExpiryIndex(store);
    index.add(10, 'a', 1);
    index.add(2 * MINUTE, 'b', 2);
    index.remove(10, 'a');
    expect(index.earliest()).toBe(2 * MINUTE);
    index.remove(2 * MINUTE, 'b');
    expect(index.earliest()).toBeUndefined();
    expect(store.size).toBe(0);
  });

  it('never changes a value read from the store in place', () => {
    const store = new KeyedStateStore(1);
    new ExpiryIndex(store).add(10, 'a', 1);
    const before = [...store.entries()].map(([k, v]) => [k, structuredClone(v)]);
    const snapshot = new Map([...store.entries()]);
    const next = new ExpiryIndex(store);
    next.add(20, 'b', 2);
    next.remove(10, 'a');
    // the objects the first batch stored are unchanged: a later batch copied them
    expect([...snapshot].map(([k, v]) => [k, structuredClone(v)])).toEqual(before);
  });

  it('agrees with a sorted list of what was added and not removed', () => {
    const op = fc.record({
      add: fc.boolean(),
      time: fc.integer({ min: -3 * MINUTE, max: 10 * MINUTE }),
      id: fc.constantFrom('a', 'b', 'c'),
    });
    fc.assert(
      fc.property(
        fc.array(op, { maxLength: 40 }),
        fc.integer({ min: -MINUTE, max: 11 * MINUTE }),
        (ops, before) => {
          const index = new ExpiryIndex(new KeyedStateStore(3));
          const model = new Map<string, [number, string]>();
          for (const { add, time, id } of ops) {
            if (add) {
              index.add(time, id, id);
              model.set(`${time}|${id}`, [time, id]);
            } else {
              index.remove(time, id);
              model.delete(`${time}|${id}`);
            }
          }
          const expected = [...model.values()]
            .filter(([t]) => t < before)
            .sort((x, y) => x[0] - y[0] || (x[1] < y[1] ? -1 : 1));
          expect(index.dueBefore(before).map((e) => [e.timeMs, e.id])).toEqual(expected);
          const times = [...model.values()].map(([t]) => t);
          expect(index.earliest()).toBe(times.length ? Math.min(...times) : undefined);
        },
      ),
    );
  });
});
