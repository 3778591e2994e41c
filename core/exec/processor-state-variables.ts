/**
 * A stateful processor's state variables over their state stores: one store per variable (named as
 * the variable), one entry per grouping key, always for the key the processor is being called for
 * (Spark's implicit grouping key).
 *
 * Entries: a value variable holds `[value, expiresAtMs | null]`; a list variable an array of
 * `[element, expiresAtMs | null]`; a map variable a Map from the entry key's encoding to
 * `[key, value, expiresAtMs | null]`. With a TTL, every write sets its element's expiry to the
 * batch's processing time plus the TTL; a value whose expiry is at or before the batch's time is
 * expired (Spark's rule): never returned, and removed by the TTL cleanup (ttl-cleanup.ts).
 * Values are copied going in and out, so the processor never changes a stored version in place.
 */
import { ExecutionError, InvalidOptionError } from '../errors.js';
import type { ListState, MapState, ValueState } from '../plan/stateful-processor.js';
import type { StateVariableDeclaration } from '../plan/state-variable-declarations.js';
import type { StateStore } from '../state/state-store.js';
import { copyStateValue, encodeStateValue } from '../state/state-value.js';
import { type DataType, field, struct } from '../types/data-types.js';
import { toExternal } from '../types/row.js';
import { rowInputConverter } from '../types/row-input.js';

/** What a variable needs from the batch running it. */
export interface VariableScope {
  /** The store key of the grouping key being processed; throws when none is. */
  currentKey(variable: string): string;
  readonly batchTimestampMs: number;
  /** Records that `variable` of store key `key` holds a value expiring at `expiresAtMs` (TTL). */
  expiresAt(variable: string, key: string, expiresAtMs: number): void;
  /** How errors name the processor. */
  readonly processorName: string;
}

type Expiry = number | null;

/** Converts one kind of value between the processor's form and the stored one. */
class ValueCodec {
  private readonly check?: (obj: unknown, index: number) => unknown[];

  constructor(
    private readonly type: DataType | undefined,
    private readonly what: string,
  ) {
    if (type) this.check = rowInputConverter(struct([field('value', type, true)]), what);
  }

  toStored(value: unknown): unknown {
    if (!this.check) {
      try {
        encodeStateValue(value);
      } catch (e) {
        throw new ExecutionError(
          `${this.what}: ${(e as Error).message} A state value must be plain data (numbers, strings, booleans, null, arrays, Maps, Sets, Uint8Arrays), or declare the variable with a type.`,
          { cause: e },
        );
      }
      return copyStateValue(value);
    }
    try {
      return this.check({ value }, 0)[0];
    } catch (e) {
      if (!(e instanceof InvalidOptionError)) throw e;
      throw new ExecutionError(e.message, { cause: e });
    }
  }

  toUser(stored: unknown): unknown {
    return this.type ? toExternal(stored, this.type) : copyStateValue(stored);
  }
}

/** Shared by the three kinds: the store, the scope, the TTL. */
abstract class StateVariable {
  protected readonly ttlMs: number | undefined;

  constructor(
    protected readonly declaration: StateVariableDeclaration,
    protected readonly store: StateStore,
    protected readonly scope: VariableScope,
  ) {
    this.ttlMs = declaration.ttlMs;
  }

  protected get key(): string {
    return this.scope.currentKey(this.declaration.name);
  }

  protected what(): string {
    return `Processor ${this.scope.processorName}, ${this.declaration.kind} state '${this.declaration.name}'`;
  }

  /** The expiry a write made now gets, recorded in the TTL index. */
  protected newExpiry(key: string): Expiry {
    if (this.ttlMs === undefined) return null;
    const expiresAt = this.scope.batchTimestampMs + this.ttlMs;
    this.scope.expiresAt(this.declaration.name, key, expiresAt);
    return expiresAt;
  }

  protected live(expiry: Expiry): boolean {
    return expiry === null || expiry > this.scope.batchTimestampMs;
  }
}

/** ValueState over its store. */
export class StoredValueState<T> extends StateVariable implements ValueState<T> {
  private readonly codec = new ValueCodec(this.declaration.types[0], this.what());

  exists(): boolean {
    return this.entry() !== undefined;
  }

  get(): T | undefined {
    const entry = this.entry();
    return entry === undefined ? undefined : (this.codec.toUser(entry[0]) as T);
  }

  update(value: T): void {
    if (value === undefined || value === null) return this.clear();
    const key = this.key;
    this.store.put(key, [this.codec.toStored(value), this.newExpiry(key)]);
  }

  clear(): void {
    this.store.remove(this.key);
  }

  private entry(): [unknown, Expiry] | undefined {
    const entry = this.store.get(this.key) as [unknown, Expiry] | undefined;
    return entry && this.live(entry[1]) ? entry : undefined;
  }
}

/** ListState over its store. */
export class StoredListState<T> extends StateVariable implements ListState<T> {
  private readonly codec = new ValueCodec(this.declaration.types[0], this.what());

  exists(): boolean {
    return this.elements().length > 0;
  }

  get(): T[] {
    return this.elements().map(([v]) => this.codec.toUser(v) as T);
  }

  put(values: readonly T[]): void {
    const key = this.key;
    this.write(
      key,
      values.map((v) => [this.codec.toStored(v), this.newExpiry(key)]),
    );
  }

  appendValue(value: T): void {
    this.appendList([value]);
  }

  appendList(values: readonly T[]): void {
    const key = this.key;
    const added = values.map((v): [unknown, Expiry] => [
      this.codec.toStored(v),
      this.newExpiry(key),
    ]);
    this.write(key, [...this.elements(), ...added]);
  }

  clear(): void {
    this.store.remove(this.key);
  }

  private elements(): [unknown, Expiry][] {
    const stored = (this.store.get(this.key) as [unknown, Expiry][] | undefined) ?? [];
    return stored.filter(([, expiry]) => this.live(expiry));
  }

  private write(key: string, elements: [unknown, Expiry][]): void {
    if (elements.length === 0) this.store.remove(key);
    else this.store.put(key, elements);
  }
}

/** MapState over its store. */
export class StoredMapState<K, V> extends StateVariable implements MapState<K, V> {
  private readonly keyCodec = new ValueCodec(this.declaration.types[0], `${this.what()} key`);
  private readonly valueCodec = new ValueCodec(this.declaration.types[1], this.what());

  exists(): boolean {
    return this.liveEntries().length > 0;
  }

  getValue(key: K): V | undefined {
    const entry = this.entries().get(this.encodeKey(key));
    return entry && this.live(entry[2]) ? (this.valueCodec.toUser(entry[1]) as V) : undefined;
  }

  containsKey(key: K): boolean {
    return this.getValue(key) !== undefined;
  }

  updateValue(key: K, value: V): void {
    const groupKey = this.key;
    const entries = new Map(this.entries());
    const stored = this.keyCodec.toStored(key);
    entries.set(this.encodeStored(stored), [
      stored,
      this.valueCodec.toStored(value),
      this.newExpiry(groupKey),
    ]);
    this.store.put(groupKey, entries);
  }

  iterator(): [K, V][] {
    return this.liveEntries().map(([k, v]) => [
      this.keyCodec.toUser(k) as K,
      this.valueCodec.toUser(v) as V,
    ]);
  }

  keys(): K[] {
    return this.iterator().map(([k]) => k);
  }

  values(): V[] {
    return this.iterator().map(([, v]) => v);
  }

  removeKey(key: K): void {
    const groupKey = this.key;
    const entries = new Map(this.entries());
    if (!entries.delete(this.encodeKey(key))) return;
    if (entries.size === 0) this.store.remove(groupKey);
    else this.store.put(groupKey, entries);
  }

  clear(): void {
    this.store.remove(this.key);
  }

  private entries(): Map<string, [unknown, unknown, Expiry]> {
    return (this.store.get(this.key) as Map<string, [unknown, unknown, Expiry]>) ?? new Map();
  }

  private liveEntries(): [unknown, unknown, Expiry][] {
    return [...this.entries().values()].filter(([, , expiry]) => this.live(expiry));
  }

  private encodeKey(key: K): string {
    return this.encodeStored(this.keyCodec.toStored(key));
  }

  private encodeStored(stored: unknown): string {
    return JSON.stringify(encodeStateValue(stored));
  }
}

/**
 * Removes what expired by `batchTimestampMs` from variable `declaration`'s entry under `key`;
 * returns how many values it removed (Spark's numValuesRemovedDueToTTLExpiry).
 */
export function removeExpired(
  declaration: StateVariableDeclaration,
  store: StateStore,
  key: string,
  batchTimestampMs: number,
): number {
  const stored = store.get(key);
  if (stored === undefined) return 0;
  const live = (expiry: Expiry) => expiry === null || expiry > batchTimestampMs;
  switch (declaration.kind) {
    case 'value': {
      if (live((stored as [unknown, Expiry])[1])) return 0;
      store.remove(key);
      return 1;
    }
    case 'list': {
      const elements = stored as [unknown, Expiry][];
      const kept = elements.filter(([, e]) => live(e));
      if (kept.length === elements.length) return 0;
      if (kept.length === 0) store.remove(key);
      else store.put(key, kept);
      return elements.length - kept.length;
    }
    case 'map': {
      const entries = stored as Map<string, [unknown, unknown, Expiry]>;
      const kept = new Map([...entries].filter(([, [, , e]]) => live(e)));
      if (kept.size === entries.size) return 0;
      if (kept.size === 0) store.remove(key);
      else store.put(key, kept);
      return entries.size - kept.size;
    }
  }
}
