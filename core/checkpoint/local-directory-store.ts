/**
 * An ObjectStore on the local filesystem. Writes go to a temporary file first and become visible
 * atomically: `put` renames it into place; `putIfAbsent` hard-links it, which fails if the name is
 * taken, so two writers racing for one key cannot both win. A writer killed in between leaves its
 * `.tmp-*` file behind; `removeAbandonedWrites` deletes those not modified for an hour, far longer
 * than any one write takes (a live writer's file changes as it writes and is gone when it is done).
 */
import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { CheckpointError } from '../errors.js';
import type { CreateResult, ObjectStore } from './object-store.js';

const TEMP_PREFIX = '.tmp-';
/** A temporary file unchanged for this long belongs to no live writer. */
const ABANDONED_AFTER_MS = 60 * 60_000;

/** An object store rooted at a directory. */
export class LocalDirectoryStore implements ObjectStore {
  readonly location: string;
  /**
   * Directories this store made or found, so a put into one costs no mkdir: a stateful query puts
   * into the same few directories every batch. One removed behind the store's back is made again
   * when a write into it finds it missing.
   */
  private readonly madeDirectories = new Set<string>();

  constructor(
    private readonly root: string,
    /** Time since the last change after which a temporary file is abandoned. @default 1 hour */
    private readonly abandonedAfterMs = ABANDONED_AFTER_MS,
  ) {
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
    const files = await this.filesUnder(dir);
    return files
      .filter((f) => !path.basename(f).startsWith(TEMP_PREFIX))
      .map((f) => path.relative(this.location, f).split(path.sep).join('/'))
      .filter((k) => k.startsWith(prefix))
      .sort();
  }

  async removeAbandonedWrites(): Promise<number> {
    const temps = (await this.filesUnder('')).filter((f) =>
      path.basename(f).startsWith(TEMP_PREFIX),
    );
    const cutoff = Date.now() - this.abandonedAfterMs;
    let removed = 0;
    for (const temp of temps) {
      const modifiedMs = await this.modifiedMs(temp);
      if (modifiedMs === undefined || modifiedMs > cutoff) continue;
      await fs.rm(temp, { force: true });
      removed++;
    }
    return removed;
  }

  /** When a file last changed; undefined when it is gone (its writer finished meanwhile). */
  private async modifiedMs(file: string): Promise<number | undefined> {
    try {
      return (await fs.stat(file)).mtimeMs;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new CheckpointError(`Cannot read ${file}: ${(e as Error).message}`, { cause: e });
    }
  }

  /** Every file under the directory `dir` (relative to the root), as absolute paths. */
  private async filesUnder(dir: string): Promise<string[]> {
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
    return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.file(key), { force: true });
  }

  private file(key: string): string {
    return path.join(this.location, key);
  }

  private async writeTemp(key: string, bytes: Uint8Array): Promise<string> {
    const dir = path.dirname(this.file(key));
    const temp = path.join(dir, `${TEMP_PREFIX}${randomUUID()}`);
    if (!this.madeDirectories.has(dir)) await this.makeDirectory(dir);
    try {
      await fs.writeFile(temp, bytes);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      await this.makeDirectory(dir);
      await fs.writeFile(temp, bytes);
    }
    return temp;
  }

  private async makeDirectory(dir: string): Promise<void> {
    await fs.mkdir(dir, { recursive: true });
    this.madeDirectories.add(dir);
  }
}
