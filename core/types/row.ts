/**
 * Row shapes. Inside the engine a row is a positional array matching its schema's fields (fast to
 * build and index); at the API boundary (`collect`, sinks) it becomes an object keyed by field name.
 * Rows coming in from the program are checked and converted by row-input.ts.
 */
import type { DataType, StructType } from './data-types.js';

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

/** Converts one engine value of type `t` to its user-facing form (structs become objects). */
export function toExternal(value: unknown, t: DataType): unknown {
  if (value === null || value === undefined) return null;
  switch (t.kind) {
    case 'struct':
      return toRowObject(value as Row, t);
    case 'array':
      return needsConversion(t.elementType)
        ? (value as unknown[]).map((v) => toExternal(v, t.elementType))
        : value;
    case 'map':
      return needsConversion(t.valueType)
        ? new Map(
            [...(value as Map<unknown, unknown>)].map(([k, v]) => [k, toExternal(v, t.valueType)]),
          )
        : value;
    default:
      return value;
  }
}

function needsConversion(t: DataType): boolean {
  return t.kind === 'struct' || t.kind === 'array' || t.kind === 'map';
}
