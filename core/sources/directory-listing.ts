/**
 * The data files of a local directory tree, for the file stream source. A directory that does not
 * exist yet lists no files, as an S3 prefix without objects does: the stream waits for data.
 */
import { createReadStream, promises as fs } from 'node:fs';
import path from 'node:path';
import { SourceError } from '../errors.js';
import { comparePaths, type FileListing, isHiddenPath, type ListedFile } from './file-listing.js';

/** The files under a local directory, recursively. */
export class DirectoryListing implements FileListing {
  constructor(readonly location: string) {}

  async list(startAfter?: string): Promise<ListedFile[]> {
    const paths = (await this.filePaths()).filter(
      (p) => !isHiddenPath(p) && (startAfter === undefined || comparePaths(p, startAfter) > 0),
    );
    const files = await Promise.all(paths.map((p) => this.stat(p)));
    return files
      .filter((f): f is ListedFile => f !== undefined)
      .sort((a, b) => comparePaths(a.path, b.path));
  }

  async read(file: string): Promise<Uint8Array> {
    try {
      return await fs.readFile(this.nameOf(file));
    } catch (e) {
      throw new SourceError(
        `Cannot read ${this.nameOf(file)}, which a planned batch lists: ${(e as Error).message}. Restore the file, or start the query on a new checkpointLocation.`,
        { cause: e },
      );
    }
  }

  async *chunks(file: string): AsyncGenerator<Uint8Array> {
    try {
      yield* createReadStream(this.nameOf(file));
    } catch (e) {
      throw new SourceError(
        `Cannot read ${this.nameOf(file)}, which a planned batch lists: ${(e as Error).message}. Restore the file, or start the query on a new checkpointLocation.`,
        { cause: e },
      );
    }
  }

  async readRange(file: string, start: number, length: number): Promise<Uint8Array | undefined> {
    let handle: fs.FileHandle | undefined;
    try {
      handle = await fs.open(this.nameOf(file), 'r');
      const range = new Uint8Array(length);
      const { bytesRead } = await handle.read(range, 0, length, start);
      return range.subarray(0, bytesRead);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new SourceError(`Cannot read ${this.nameOf(file)}: ${(e as Error).message}`, {
        cause: e,
      });
    } finally {
      await handle?.close();
    }
  }

  nameOf(file: string): string {
    return path.join(this.location, ...file.split('/'));
  }

  private async filePaths(): Promise<string[]> {
    try {
      const entries = await fs.readdir(this.location, { recursive: true, withFileTypes: true });
      return entries
        .filter((e) => e.isFile())
        .map((e) =>
          path.relative(this.location, path.join(e.parentPath, e.name)).split(path.sep).join('/'),
        );
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw new SourceError(`Cannot list ${this.location}: ${(e as Error).message}`, { cause: e });
    }
  }

  /** Size and time of a file; undefined when it was deleted since the directory was read. */
  private async stat(file: string): Promise<ListedFile | undefined> {
    try {
      const s = await fs.stat(this.nameOf(file));
      return { path: file, size: s.size, modifiedMs: Math.floor(s.mtimeMs) };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new SourceError(`Cannot read ${this.nameOf(file)}: ${(e as Error).message}`, {
        cause: e,
      });
    }
  }
}
