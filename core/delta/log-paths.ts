/**
 * Data file paths as the Delta log holds them: relative to the table root and written as a URI path
 * (RFC 2396), so a reader must percent-decode them to find the object. Partition directories are
 * already Hive-escaped (`a%3Ab` for `a:b`); the URI form escapes that `%` again (`a%253Ab`), exactly
 * as Spark writes it.
 */
import { resolveStoredReference } from '../checkpoint/stored-reference.js';

/** The log's URI path of a data file stored under `key` (relative to the table root). */
export function toLogPath(key: string): string {
  return encodeURI(key);
}

/**
 * The object key (relative to the table root) of a path from the log; `entry` names the action that
 * holds it (`log version 3, add action`). Throws UnsafePathError naming the table, the entry and the
 * path when the decoded path leaves the table root: absolute paths and other schemes included, so a
 * table whose files live elsewhere (a shallow clone) is not one Sluice reads.
 */
export function fromLogPath(path: string, table: string, entry: string): string {
  return resolveStoredReference(path, { root: `Delta table ${table}`, entry, encoding: 'uri' });
}
