/**
 * The directory `df.write` puts data files in: a local directory, or the root of an object store
 * (an `s3://bucket/prefix` URL the session resolves, or any ObjectStore). The save modes need only
 * three things of it: whether anything is there, removing all of it, and writing one file.
 */
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import type { ObjectStore } from '../checkpoint/object-store.js';

/** Where a batch writer's files go. */
export interface OutputDirectory {
  /** The directory or the store's location, for messages. */
  readonly location: string;
  /** True when the directory exists (a store: holds any object). */
  exists(): Promise<boolean>;
  /** Removes the directory and everything under it. */
  clear(): Promise<void>;
  /** Writes one file of the output, creating the directory if needed. */
  write(name: string, bytes: Uint8Array): Promise<void>;
}

/** A local directory. */
export function localOutputDirectory(directory: string): OutputDirectory {
  return {
    location: directory,
    exists: async () => existsSync(directory),
    clear: () => fs.rm(directory, { recursive: true, force: true }),
    write: async (name, bytes) => {
      await fs.mkdir(directory, { recursive: true });
      await fs.writeFile(path.join(directory, name), bytes);
    },
  };
}

/** The root of an object store. */
export function storeOutputDirectory(store: ObjectStore): OutputDirectory {
  return {
    location: store.location,
    exists: async () => (await store.list('')).length > 0,
    clear: async () => {
      for (const key of await store.list('')) await store.delete(key);
    },
    write: (name, bytes) => store.put(name, bytes),
  };
}
