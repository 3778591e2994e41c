/**
 * GroupIndex: finds the group of a row's grouping key values, the lookup aggregation does once per
 * input row. Encoding each row's key values as one string (group-key.ts) and looking that up costs
 * more than the rest of the aggregation: the string is built piece by piece, and V8 must flatten it
 * before it can hash and compare it. So the index nests one Map per grouping key instead, each keyed
 * by a value V8 hashes directly:
 * - numbers, strings, booleans and null by themselves (a Map's SameValueZero equates -0 with 0 and
 *   NaN with NaN, as encodeKey does);
 * - window structs by their start: the windows of one window key all have the same duration;
 * - other nested values (structs, arrays, maps, binary) by their encoded form.
 * Two key lists therefore reach the same entry exactly when encodeKey gives them the same string,
 * which stays the key of the state store, computed once per group rather than once per row.
 */
import { encodeKey } from '../expr/group-key.js';

/** How one grouping key's values are keyed in the index. */
export type LookupKind = 'value' | 'window' | 'encoded';

/** A map from grouping key values to `V` (a group). */
export class GroupIndex<V> {
  private readonly root = new Map<unknown, unknown>();
  private readonly lookups: readonly ((value: unknown) => unknown)[];

  constructor(kinds: readonly LookupKind[]) {
    this.lookups = kinds.map(lookupFor);
  }

  /** The value stored for `keyValues`, or undefined. */
  get(keyValues: readonly unknown[]): V | undefined {
    const last = this.lookups.length - 1;
    let level = this.root;
    for (let i = 0; i < last; i++) {
      const next = level.get(this.lookups[i](keyValues[i]));
      if (next === undefined) return undefined;
      level = next as Map<unknown, unknown>;
    }
    return level.get(this.leafKey(keyValues)) as V | undefined;
  }

  /** Stores `value` for `keyValues`. */
  set(keyValues: readonly unknown[], value: V): void {
    const last = this.lookups.length - 1;
    let level = this.root;
    for (let i = 0; i < last; i++) {
      const key = this.lookups[i](keyValues[i]);
      let next = level.get(key) as Map<unknown, unknown> | undefined;
      if (next === undefined) {
        next = new Map();
        level.set(key, next);
      }
      level = next;
    }
    level.set(this.leafKey(keyValues), value);
  }

  /** The key in the innermost Map; with no grouping keys (a global aggregate) the one entry's. */
  private leafKey(keyValues: readonly unknown[]): unknown {
    const last = this.lookups.length - 1;
    return last < 0 ? undefined : this.lookups[last](keyValues[last]);
  }
}

function lookupFor(kind: LookupKind): (value: unknown) => unknown {
  switch (kind) {
    case 'value':
      return (v) => v;
    case 'window':
      return (v) => (v === null ? null : (v as number[])[0]);
    case 'encoded':
      return (v) => encodeKey([v]);
  }
}
