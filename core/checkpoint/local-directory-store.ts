/**
 * An ObjectStore on the local filesystem. Writes go to a temporary file first and become visible
 * atomically: `put` renames it into place; `putIfAbsent` hard-links it, which fails if the name is
 * taken, so two writers racing for one key cannot both win.
 */
import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { CheckpointError } from '../errors.js';
import type { CreateResult, ObjectStore } from './object-store.js';

/** An object store rooted at a directory. */
export class LocalDirectoryStore implements ObjectStore {
  readonly location: string;

  constructor(private readonly root: string) {
    this.location = path.resolve(root);
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    const temp = await this.writeTemp(key, bytes);
    await fs.rename(temp, this.file(key));
  }

  async putIfAbsent(key: string, bytes: Uint8Array): Promise<CreateResult> {
    const temp = await this.writeTemp(key, bytes);
    try {
      await fs.link(temp, this.file(key));
      return 'created';
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') return 'exists';
      throw new CheckpointError(`Cannot create ${this.file(key)}: ${(e as Error).message}`, {
        cause: e,
      });
    } finally {
      await fs.rm(temp, { force: true });
    }
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    try {
      return await fs.readFile(this.file(key));
    } catch (e) {
      // EISDIR: the key is only a prefix of other keys (a directory here), not an object
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'EISDIR') return undefined;
      throw new CheckpointError(`Cannot read ${this.file(key)}: ${(e as Error).message}`, {
        cause: e,
      });
    }
  }

  async list(prefix: string): Promise<string[]> {
    const dir = prefix.includes('/') ? prefix.slice(0, prefix.lastIndexOf('/')) : '';
    let entries;
    try {
      entries = await fs.readdir(path.join(this.location, dir), {
        recursive: true,
        withFileTypes: true,
      });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw new CheckpointError(`Cannot list ${this.location}/${dir}: ${(e as Error).message}`, {
        cause: e,
      });
    }
    return entries
      .filter((e) => e.isFile() && !e.name.startsWith('.tmp-'))
      .map((e) =>
        path.relative(this.location, path.join(e.parentPath, e.name)).split(path.sep).join('/'),
      )
      .filter((k) => k.startsWith(prefix))
      .sort();
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.file(key), { force: true });
  }

  private file(key: string): string {
    return path.join(this.location, key);
  }

  private async writeTemp(key: string, bytes: Uint8Array): Promise<string> {
    const target = this.file(key);
    await fs.mkdir(path.dirname(target), { recursive: true });
    const temp = path.join(path.dirname(target), `.tmp-${randomUUID()}`);
    await fs.writeFile(temp, bytes);
    return temp;
  }
}
