/**
 * Admission control of a file stream: which of the new files the next batch reads. Files are taken
 * in admission order while the batch stays within maxFilesPerTrigger and maxBytesPerTrigger. The
 * byte limit is soft, as in Spark: a file larger than the limit is admitted alone, or the stream
 * would stop at it forever. It counts the size `measure` gives a file (its uncompressed size for a
 * `.gz`, see counted-size.ts), asking only for the files it considers, and only with a byte limit:
 * measuring a `.gz` costs a read.
 */
import { admittedSize } from './counted-size.js';
import { comparePaths, type ListedFile } from './file-listing.js';

/**
 * The order files are admitted in: oldest first by modification time (Spark's default), newest
 * first (`latestFirst`), or by path, which a listing that continues after the last admitted path
 * needs: everything it leaves for later must sort after what it admitted.
 */
export type AdmissionOrder = 'oldest-first' | 'newest-first' | 'path';

/** The per-batch limits; absent means no limit. */
export interface AdmissionLimits {
  readonly maxFilesPerTrigger?: number;
  readonly maxBytesPerTrigger?: number;
}

/**
 * The files the next batch reads, in reading order: the first of `candidates` within the limits.
 * With a byte limit, each considered file is measured, and admitted as `measure` returned it.
 */
export async function admitFiles(
  candidates: readonly ListedFile[],
  order: AdmissionOrder,
  limits: AdmissionLimits,
  measure: (file: ListedFile) => Promise<ListedFile>,
): Promise<ListedFile[]> {
  const ordered = inAdmissionOrder(candidates, order);
  const maxFiles = limits.maxFilesPerTrigger ?? Infinity;
  const maxBytes = limits.maxBytesPerTrigger ?? Infinity;
  if (maxBytes === Infinity) return ordered.slice(0, maxFiles);
  const admitted: ListedFile[] = [];
  let bytes = 0;
  for (const candidate of ordered) {
    if (admitted.length >= maxFiles) break;
    const file = await measure(candidate);
    if (admitted.length > 0 && bytes + admittedSize(file) > maxBytes) break;
    admitted.push(file);
    bytes += admittedSize(file);
  }
  return admitted;
}

function inAdmissionOrder(files: readonly ListedFile[], order: AdmissionOrder): ListedFile[] {
  const byPath = (a: ListedFile, b: ListedFile) => comparePaths(a.path, b.path);
  if (order === 'path') return [...files].sort(byPath);
  const oldestFirst = [...files].sort((a, b) => a.modifiedMs - b.modifiedMs || byPath(a, b));
  return order === 'oldest-first' ? oldestFirst : oldestFirst.reverse();
}
