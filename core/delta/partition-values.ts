/**
 * Partition values: their text form in the Delta log ("Partition Value Serialization" in the Delta
 * protocol) and the Hive-style directory (`column=value`) a partition's files are written under.
 *
 * The log, not the directory, is the truth about a file's partition values; the directories only
 * follow the convention Spark and other engines use, so that tools that know nothing of Delta (DuckDB
 * with hive_partitioning) still see the columns. As in Delta, an empty string is a NULL partition
 * value: a string column's '' reads back as NULL.
 */
import { DeltaTableError } from '../errors.js';
import { type DataType, typeName } from '../types/data-types.js';
import { formatDate, MICROS, parseDate, parseTimestamp } from '../types/timestamp-text.js';

/** The directory name Hive, Spark and Delta use for a NULL partition value. */
const NULL_PARTITION_DIRECTORY = '__HIVE_DEFAULT_PARTITION__';

/** Characters Hive escapes in partition directory names (as %XX), besides control characters. */
const HIVE_ESCAPED = new Set('"#%\'*/:=?\\\u007f{[]^');

/** True for the types a table can be partitioned by: the atomic ones. */
export function isPartitionType(type: DataType): boolean {
  return !['struct', 'array', 'map', 'null'].includes(type.kind);
}

/**
 * The log's text form of an engine value of a partition column: numbers as decimal text, dates as
 * `yyyy-MM-dd`, timestamps as ISO 8601 in UTC with microseconds (the form the protocol recommends),
 * binary as one character per byte; null for NULL and for the empty string.
 */
export function formatPartitionValue(value: unknown, type: DataType): string | null {
  if (value === null || value === undefined) return null;
  switch (type.kind) {
    case 'date':
      return formatDate(value as number);
    case 'timestamp':
      return isoMicros(value as number);
    case 'binary':
      return Array.from(value as Uint8Array, (b) => String.fromCharCode(b)).join('');
    default: {
      const text = String(value);
      return text === '' ? null : text;
    }
  }
}

/**
 * The engine value of a partition value read from the log. Accepts every form the protocol allows
 * (timestamps with a space or a `T`, with or without `Z`). Throws DeltaTableError naming the table and
 * column when the text is not a value of the column's type.
 */
export function parsePartitionValue(
  text: string | null | undefined,
  type: DataType,
  column: string,
  table: string,
): unknown {
  if (text === null || text === undefined || text === '') return null;
  const value = parseText(text, type);
  if (value === undefined) {
    throw new DeltaTableError(
      `Delta table ${table}: partition value ${JSON.stringify(text)} of column '${column}' is not a ${typeName(type)}; the log is damaged.`,
    );
  }
  return value;
}

/** The directory segment `column=value` of a partition value, escaped as Hive escapes it. */
export function partitionDirectory(column: string, value: string | null): string {
  return `${escapePathName(column)}=${value === null ? NULL_PARTITION_DIRECTORY : escapePathName(value)}`;
}

/** undefined when `text` is not a value of `type`. */
function parseText(text: string, type: DataType): unknown {
  switch (type.kind) {
    case 'string':
      return text;
    case 'int':
    case 'long': {
      const n = Number(text);
      return Number.isSafeInteger(n) && /^\s*[+-]?\d+\s*$/.test(text) ? n : undefined;
    }
    case 'double': {
      const n = Number(text);
      return Number.isNaN(n) && text.trim() !== 'NaN' ? undefined : n;
    }
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : undefined;
    case 'date':
      return parseDate(text) ?? undefined;
    case 'timestamp':
      return parseTimestamp(text) ?? undefined;
    case 'binary':
      return Uint8Array.from(text, (c) => c.charCodeAt(0));
    default:
      return undefined;
  }
}

function isoMicros(micros: number): string {
  const seconds = Math.floor(micros / MICROS.second);
  const fraction = micros - seconds * MICROS.second;
  const iso = new Date(seconds * 1000).toISOString(); // yyyy-mm-ddThh:mm:ss.000Z
  return `${iso.slice(0, 19)}.${String(fraction).padStart(6, '0')}Z`;
}

function escapePathName(text: string): string {
  let out = '';
  for (const c of text) {
    const code = c.charCodeAt(0);
    out +=
      code < 0x20 || HIVE_ESCAPED.has(c)
        ? `%${code.toString(16).toUpperCase().padStart(2, '0')}`
        : c;
  }
  return out;
}
