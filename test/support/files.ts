/**
 * Data files for file-source tests: JSON-lines files with a chosen modification time.
 */
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** Options of `writeJsonLines`. */
export interface WriteOptions {
  /** Modification time in seconds since the epoch; the file source admits files in this order. */
  readonly mtime?: number;
}

/**
 * Writes one JSON object per line to `dir/name` (creating subdirectories), gzip-compressed when the
 * name ends in `.gz`, and returns the file's path.
 */
export function writeJsonLines(
  dir: string,
  name: string,
  rows: readonly object[],
  options: WriteOptions = {},
): string {
  const file = path.join(dir, name);
  mkdirSync(path.dirname(file), { recursive: true });
  const text = rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
  writeFileSync(file, name.endsWith('.gz') ? gzipSync(text) : text);
  if (options.mtime !== undefined) utimesSync(file, options.mtime, options.mtime);
  return file;
}
