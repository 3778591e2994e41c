/**
 * Data file paths as the Delta log holds them: relative to the table root and written as a URI path
 * (RFC 2396), so a reader must percent-decode them to find the object. Partition directories are
 * already Hive-escaped (`a%3Ab` for `a:b`); the URI form escapes that `%` again (`a%253Ab`), exactly
 * as Spark writes it.
 */
import { DeltaTableError } from '../errors.js';

/** The log's URI path of a data file stored under `key` (relative to the table root). */
export function toLogPath(key: string): string {
  return encodeURI(key);
}

/**
 * The object key (relative to the table root) of a path from the log. Throws DeltaTableError naming
 * the table for an absolute path (a URI with a scheme, or a leading `/`): a table whose files live
 * elsewhere (a shallow clone) is not one Sluice reads yet.
 */
export function fromLogPath(path: string, table: string): string {
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(path) || path.startsWith('/')) {
    throw new DeltaTableError(
      `Delta table ${table}: data file ${path} is an absolute path outside the table; Sluice reads only tables whose files lie under the table root.`,
    );
  }
  try {
    return decodeURIComponent(path);
  } catch (cause) {
    throw new DeltaTableError(
      `Delta table ${table}: data file path ${JSON.stringify(path)} is not a valid URI path; the log is damaged.`,
      { cause },
    );
  }
}
