/**
 * Row shapes. Inside the engine a row is a positional array matching its schema's fields (fast to
 * build and index); wherever user code sees it (`collect`, sinks, processors, UDFs) it becomes an
 * object keyed by field name, through this file only. There a timestamp (µs since the epoch inside)
 * becomes a {@link Timestamp}, a Date carrying its microseconds, and a date (days since the epoch)
 * a Date at that day's UTC midnight. Rows coming in from the program are checked and converted by
 * row-input.ts.
 */
import type { DataType, StructType } from './data-types.js';
import { MICROS } from './time-units.js';
import { Timestamp } from './timestamp.js';

const MS_PER_DAY = MICROS.day / MICROS.millisecond;

/** A row inside the engine: values in schema order. */
export type Row = unknown[];

/** A row as users see it: field name to value, structs as nested objects. */
export type RowObject = Record<string, unknown>;

/** Converts an engine row to a user-facing object. */
export function toRowObject(row: Row, schema: StructType): RowObject {
  const out: RowObject = {};
  const fields = schema.fields;
  for (let i = 0; i < fields.length; i++)
    out[fields[i].name] = toExternal(row[i], fields[i].dataType);
  return out;
}

/**
 * Converts one engine value of type `t` to its user-facing form: structs become objects, timestamps
 * Timestamps and dates Dates.
 */
export function toExternal(value: unknown, t: DataType): unknown {
  if (value === null || value === undefined) return null;
  switch (t.kind) {
    case 'timestamp':
      return Timestamp.fromEpochMicros(value as number);
    case 'date':
      return new Date((value as number) * MS_PER_DAY);
    case 'struct':
      return toRowObject(value as Row, t);
    case 'array':
      return needsConversion(t.elementType)
        ? (value as unknown[]).map((v) => toExternal(v, t.elementType))
        : value;
    case 'map':
      return needsConversion(t.keyType) || needsConversion(t.valueType)
        ? new Map(
            [...(value as Map<unknown, unknown>)].map(([k, v]) => [
              toExternal(k, t.keyType),
              toExternal(v, t.valueType),
            ]),
          )
        : value;
    default:
      return value;
  }
}

/** Kinds whose engine value is the user's value, so arrays and maps of them are handed out as they are. */
const SAME_OUTSIDE = new Set<DataType['kind']>([
  'string',
  'boolean',
  'int',
  'long',
  'double',
  'binary',
  'interval',
  'null',
]);

function needsConversion(t: DataType): boolean {
  return !SAME_OUTSIDE.has(t.kind);
}
