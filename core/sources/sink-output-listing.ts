/**
 * The listing of a file sink's output: when the root holds a `_sluice_metadata/` manifest log, only
 * the files the log lists are data, as Spark's file source reads a sink's output through
 * `_spark_metadata`. A crashed attempt's files, which no manifest lists, are never read. Any other
 * root is listed as it is.
 */
import type { ObjectStore } from '../checkpoint/object-store.js';
import { FileSinkLog } from '../io/file-sink-log.js';
import { comparePaths, type FileListing, type ListedFile } from './file-listing.js';

/** A listing that honours a file sink's manifest log at its root. */
export class SinkOutputListing implements FileListing {
  private readonly log: FileSinkLog;

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
    if (!(await this.log.exists())) return this.files.list(startAfter);
    return (await this.log.allFiles())
      .map((f) => ({ path: f.path, size: f.size, modifiedMs: f.modificationTime }))
      .filter((f) => startAfter === undefined || comparePaths(f.path, startAfter) > 0)
      .sort((a, b) => comparePaths(a.path, b.path));
  }

  read(path: string): Promise<Uint8Array> {
    return this.files.read(path);
  }

  nameOf(path: string): string {
    return this.files.nameOf(path);
  }
}
