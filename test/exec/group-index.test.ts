import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GroupIndex } from '../../core/exec/group-index.js';
import { encodeKey } from '../../core/expr/group-key.js';

describe('GroupIndex', () => {
  it('finds a value by every key of the list', () => {
    const index = new GroupIndex<string>(['value', 'value']);
    index.set([1, 'books'], 'a');
    index.set([1, 'games'], 'b');
    index.set([2, 'books'], 'c');
    expect(index.get([1, 'books'])).toBe('a');
    expect(index.get([1, 'games'])).toBe('b');
    expect(index.get([2, 'books'])).toBe('c');
    expect(index.get([2, 'games'])).toBeUndefined();
    expect(index.get([3, 'books'])).toBeUndefined();
  });

  it('keys null, -0 and NaN as encodeKey does', () => {
    const index = new GroupIndex<string>(['value']);
    index.set([null], 'null');
    index.set([-0], 'zero');
    index.set([NaN], 'nan');
    expect(index.get([null])).toBe('null');
    expect(index.get(['null'])).toBeUndefined();
    expect(index.get([0])).toBe('zero');
    expect(index.get([NaN])).toBe('nan');
  });

  it('keys a window by its start and nested values by content', () => {
    const index = new GroupIndex<string>(['window', 'encoded']);
    index.set(
      [
        [600, 1200],
        ['a', 1],
      ],
      'w',
    );
    expect(
      index.get([
        [600, 1200],
        ['a', 1],
      ]),
    ).toBe('w');
    expect(
      index.get([
        [600, 1200],
        ['a', 2],
      ]),
    ).toBeUndefined();
    expect(index.get([null, ['a', 1]])).toBeUndefined();
  });

  it('holds one value for a global aggregate, which has no keys', () => {
    const index = new GroupIndex<string>([]);
    expect(index.get([])).toBeUndefined();
    index.set([], 'all');
    expect(index.get([])).toBe('all');
  });

  it('reaches the same entry exactly when encodeKey gives the same string', () => {
    // Values of one column share a type, as in a schema (encodeKey is injective only within a type).
    const numbers: fc.Arbitrary<unknown> = fc.oneof(
      fc.constantFrom(null, 0, -0, NaN),
      fc.integer({ min: -3, max: 3 }),
    );
    const strings: fc.Arbitrary<unknown> = fc.oneof(
      fc.constantFrom(null, '', '[', ']', '\u0001', '\u0000'),
      fc.string({ maxLength: 3 }),
    );
    const booleans: fc.Arbitrary<unknown> = fc.constantFrom(null, true, false);
    const lists = fc
      .constantFrom(numbers, strings, booleans)
      .chain((column) =>
        fc.array(fc.tuple(column, fc.array(column, { maxLength: 2 })), { maxLength: 40 }),
      );
    fc.assert(
      fc.property(lists, (keyLists) => {
        // Entries are objects, so that two entries for one encoded key would count twice.
        const index = new GroupIndex<{ key: string }>(['value', 'encoded']);
        for (const keyValues of keyLists) {
          const found = index.get(keyValues);
          if (found === undefined) index.set(keyValues, { key: encodeKey(keyValues) });
          else expect(found.key).toBe(encodeKey(keyValues));
        }
        const entries = new Set(keyLists.map((k) => index.get(k)));
        expect(entries.size).toBe(new Set(keyLists.map((k) => encodeKey(k))).size);
      }),
    );
  });
});
