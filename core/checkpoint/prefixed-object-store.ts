/**
 * A view of an ObjectStore under a key prefix: the part of a checkpoint's store a component owns
 * (e.g. `sources/0/` for the first source), so that it can use short keys of its own and never
 * touch another component's objects.
 */
import type { CreateResult, ObjectStore } from './object-store.js';

/** The objects of `store` whose keys start with `prefix` (which ends with '/'), keyed without it. */
export class PrefixedObjectStore implements ObjectStore {
  readonly location: string;

  constructor(
    private readonly store: ObjectStore,
    private readonly prefix: string,
  ) {
    this.location = `${store.location}/${prefix.replace(/\/$/, '')}`;
  }

  put(key: string, bytes: Uint8Array): Promise<void> {
    return this.store.put(this.prefix + key, bytes);
  }

  putIfAbsent(key: string, bytes: Uint8Array): Promise<CreateResult> {
    return this.store.putIfAbsent(this.prefix + key, bytes);
  }

  get(key: string): Promise<Uint8Array | undefined> {
    return this.store.get(this.prefix + key);
  }

  async list(prefix: string): Promise<string[]> {
    const keys = await this.store.list(this.prefix + prefix);
    return keys.map((k) => k.slice(this.prefix.length));
  }

  delete(key: string): Promise<void> {
    return this.store.delete(this.prefix + key);
  }
}
