/**
 * One canonical text per row value, so that rows can be compared as multisets and printed in a
 * failure message: object keys sorted (a row written by hand need not follow the schema's column
 * order), maps as sorted entries, binary as hex, NaN and the infinities spelled out, and, when the
 * value's type is known, timestamps and dates as Spark shows them. A JS `Date` in a timestamp column
 * reads as its instant (to the microsecond for a Timestamp), in a date column as its UTC day, so
 * expected rows are written with Dates, as input rows are; a number there is shown as the number it
 * is, so it never matches a timestamp or a date.
 */
import type { DataType } from '../types/data-types.js';
import { MICROS } from '../types/time-units.js';
import { formatDate, formatTimestamp } from '../types/timestamp-text.js';
import { dateEpochMicros } from '../types/timestamp.js';

const MS_PER_DAY = MICROS.day / MICROS.millisecond;

/** The canonical text of a row (or of any value in one), read as of `type` when given. */
export function rowText(value: unknown, type?: DataType): string {
  if (value === null || value === undefined) return 'null';
  if (value instanceof Date && type?.kind === 'timestamp')
    return formatTimestamp(dateEpochMicros(value));
  if (value instanceof Date && type?.kind === 'date')
    return formatDate(Math.floor(value.getTime() / MS_PER_DAY));
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  if (value instanceof Uint8Array) return `0x${Buffer.from(value).toString('hex')}`;
  if (value instanceof Date) return formatTimestamp(dateEpochMicros(value));
  if (Array.isArray(value)) {
    const element = type?.kind === 'array' ? type.elementType : undefined;
    return `[${value.map((v) => rowText(v, element)).join(', ')}]`;
  }
  if (value instanceof Map) {
    const [keyType, valueType] = type?.kind === 'map' ? [type.keyType, type.valueType] : [];
    const entries = [...value].map(
      ([k, v]) => `${rowText(k, keyType)} -> ${rowText(v, valueType)}`,
    );
    return `map(${entries.sort().join(', ')})`;
  }
  const fieldTypes = new Map(
    type?.kind === 'struct' ? type.fields.map((f) => [f.name, f.dataType]) : [],
  );
  const fields = Object.entries(value as Record<string, unknown>)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}: ${rowText(v, fieldTypes.get(k))}`);
  return `{${fields.join(', ')}}`;
}

/** How two lists of rows differ as multisets (order ignored, duplicates counted). */
export interface RowDifference {
  /** Rows expected but not found (as often as they are missing). */
  readonly missing: readonly string[];
  /** Rows found but not expected (as often as they are extra). */
  readonly unexpected: readonly string[];
}

/**
 * The rows each list has that the other lacks; both empty when they hold the same rows. `schema` is
 * the rows' type, when known.
 */
export function rowDifference(
  actual: readonly unknown[],
  expected: readonly unknown[],
  schema?: DataType,
): RowDifference {
  const remaining = new Map<string, number>();
  for (const row of actual) {
    const text = rowText(row, schema);
    remaining.set(text, (remaining.get(text) ?? 0) + 1);
  }
  const missing: string[] = [];
  for (const row of expected) {
    const text = rowText(row, schema);
    const left = remaining.get(text) ?? 0;
    if (left === 0) missing.push(text);
    else remaining.set(text, left - 1);
  }
  const unexpected = [...remaining].flatMap(([text, n]) => Array<string>(n).fill(text));
  return { missing: missing.sort(), unexpected: unexpected.sort() };
}
