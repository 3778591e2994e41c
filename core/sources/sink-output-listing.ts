/**
 * The listing of a file sink's output: when the root holds a `_sluice_metadata/` manifest log, only
 * the files the log lists are data, as Spark's file source reads a sink's output through
 * `_spark_metadata`. A crashed attempt's files, which no manifest lists, are never read. Any other
 * root is listed as it is. As in Spark, which kind of root it is is decided once, at the first
 * listing, so a planning costs no extra request to ask again.
 */
import type { ObjectStore } from '../checkpoint/object-store.js';
import { FileSinkLog } from '../io/file-sink-log.js';
import { comparePaths, type FileListing, type ListedFile } from './file-listing.js';

/** A listing that honours a file sink's manifest log at its root. */
export class SinkOutputListing implements FileListing {
  private readonly log: FileSinkLog;
  private sinkOutput: Promise<boolean> | undefined;

  /** `files` lists the root as it is; `store` reads the same root's manifest log. */
  constructor(
    private readonly files: FileListing,
    store: ObjectStore,
  ) {
    this.log = new FileSinkLog(store);
  }

  get location(): string {
    return this.files.location;
  }

  async list(startAfter?: string): Promise<ListedFile[]> {
    this.sinkOutput ??= this.log.exists().catch((error: unknown) => {
      this.sinkOutput = undefined; // a failed check is asked again by the next planning
      throw error;
    });
    if (!(await this.sinkOutput)) return this.files.list(startAfter);
    return (await this.log.allFiles())
      .map((f) => ({ path: f.path, size: f.size, modifiedMs: f.modificationTime }))
      .filter((f) => startAfter === undefined || comparePaths(f.path, startAfter) > 0)
      .sort((a, b) => comparePaths(a.path, b.path));
  }

  read(path: string): Promise<Uint8Array> {
    return this.files.read(path);
  }

  async *chunks(path: string): AsyncGenerator<Uint8Array> {
    if (this.files.chunks) yield* this.files.chunks(path);
    else yield await this.files.read(path);
  }

  async readRange(path: string, start: number, length: number): Promise<Uint8Array | undefined> {
    return this.files.readRange?.(path, start, length);
  }

  nameOf(path: string): string {
    return this.files.nameOf(path);
  }
}
