/**
 * Row shapes. Inside the engine a row is a positional array matching its schema's fields (fast to
 * build and index); at the API boundary (`collect`, sinks) it becomes an object keyed by field name.
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

/** Converts a user-facing object to an engine row of `schema` (missing fields become null). */
export function fromRowObject(obj: RowObject, schema: StructType): Row {
  return rowObjectConverter(schema)(obj);
}

/**
 * A converter from user-facing objects to engine rows of `schema`, built once: for a schema of atomic
 * columns it copies values by name in a plain loop, the cost of feeding millions of rows.
 */
export function rowObjectConverter(schema: StructType): (obj: RowObject) => Row {
  const fields = schema.fields;
  const names = fields.map((f) => f.name);
  const nested = fields.map((f) => needsConversion(f.dataType) || f.dataType.kind === 'map');
  return (obj) => {
    const row = new Array<unknown>(names.length);
    for (let i = 0; i < names.length; i++) {
      const v = obj[names[i]];
      row[i] = v === undefined ? null : nested[i] ? toInternal(v, fields[i].dataType) : v;
    }
    return row;
  };
}

/** Converts one user-facing value to its engine form (objects of struct type become arrays). */
export function toInternal(value: unknown, t: DataType): unknown {
  if (value === null || value === undefined) return null;
  switch (t.kind) {
    case 'struct':
      return Array.isArray(value) ? value : fromRowObject(value as RowObject, t);
    case 'array':
      return needsConversion(t.elementType)
        ? (value as unknown[]).map((v) => toInternal(v, t.elementType))
        : value;
    case 'map': {
      const entries = value instanceof Map ? [...value] : Object.entries(value as object);
      return new Map(entries.map(([k, v]) => [k, toInternal(v, t.valueType)]));
    }
    default:
      return value;
  }
}

function needsConversion(t: DataType): boolean {
  return t.kind === 'struct' || t.kind === 'array' || t.kind === 'map';
}
