/**
 * An ObjectStore whose every call passes the crash points of a CrashInjector (crash-injector.ts).
 * Put it under a checkpoint, a state store, a file source, a file or Delta sink: every request they
 * make, including each write inside one Delta commit, becomes a point a test can crash at.
 */
import type { CreateResult, ObjectStore } from '../checkpoint/object-store.js';
import type { CrashInjector } from './crash-injector.js';

/** `store` with a crash point on both sides of every call, named `name.call(key)`. */
export function crashingObjectStore(
  store: ObjectStore,
  injector: CrashInjector,
  name: string,
): ObjectStore {
  const at = <T>(call: string, key: string, run: () => Promise<T>) =>
    injector.around(`${name}.${call}(${key})`, run);
  const removeAbandoned = store.removeAbandonedWrites?.bind(store);
  return {
    location: store.location,
    put: (key: string, bytes: Uint8Array): Promise<void> =>
      at('put', key, () => store.put(key, bytes)),
    putIfAbsent: (key: string, bytes: Uint8Array): Promise<CreateResult> =>
      at('putIfAbsent', key, () => store.putIfAbsent(key, bytes)),
    get: (key: string): Promise<Uint8Array | undefined> => at('get', key, () => store.get(key)),
    list: (prefix: string): Promise<string[]> => at('list', prefix, () => store.list(prefix)),
    delete: (key: string): Promise<void> => at('delete', key, () => store.delete(key)),
    ...(removeAbandoned && {
      removeAbandonedWrites: (): Promise<number> =>
        at('removeAbandonedWrites', '', removeAbandoned),
    }),
  };
}
