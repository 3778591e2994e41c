/**
 * The files a file stream source has admitted, after Spark's SeenFilesMap. A file is new when its
 * path was never admitted and it is not older than `maxFileAgeMs` before the newest file admitted.
 * Files older than that are forgotten, which bounds what the source remembers; they can be
 * forgotten safely because a file that old is not admitted anyway, seen or not.
 *
 * Ages are relative to the newest admitted file, not to the clock, so the same admissions always
 * give the same set, whichever run computes it, and the set loaded from the checkpoint equals the
 * one a long-running source built in memory.
 */
import { comparePaths, type ListedFile } from './file-listing.js';

/** The admitted files within the age window. */
export class SeenFiles {
  private readonly modified = new Map<string, number>();
  private newestMs = -Infinity;

  /** `maxFileAgeMs`: Infinity remembers every file forever. */
  constructor(readonly maxFileAgeMs: number) {}

  /** Files modified before this time are too old to be admitted. */
  get thresholdMs(): number {
    return this.newestMs - this.maxFileAgeMs;
  }

  /** How many files the set remembers. */
  get size(): number {
    return this.modified.size;
  }

  /** True when the next batch may admit `file`. */
  isNew(file: ListedFile): boolean {
    return file.modifiedMs >= this.thresholdMs && !this.modified.has(file.path);
  }

  /** Records admitted files, then forgets those the window has left behind. */
  add(files: readonly ListedFile[]): void {
    const previousThreshold = this.thresholdMs;
    for (const f of files) {
      this.modified.set(f.path, f.modifiedMs);
      this.newestMs = Math.max(this.newestMs, f.modifiedMs);
    }
    const threshold = this.thresholdMs;
    if (threshold === previousThreshold) return;
    for (const [path, modifiedMs] of this.modified) {
      if (modifiedMs < threshold) this.modified.delete(path);
    }
  }

  /** The remembered files in path order (sizes are not kept: 0). */
  files(): ListedFile[] {
    return [...this.modified]
      .map(([path, modifiedMs]) => ({ path, size: 0, modifiedMs }))
      .sort((a, b) => comparePaths(a.path, b.path));
  }
}
