/**
 * JSON values, as `JSON.parse` returns them, to engine values and back, with Spark's JSON rules.
 *
 * Reading: a reader is compiled once per type into nested closures, so that per record the work is
 * a property load and a type check per field, with no lookups by name or type. The rules:
 * - struct fields match JSON keys exactly; keys the type lacks are ignored; a missing key or JSON
 *   null is NULL. A map needs string keys, since JSON object keys are text.
 * - int and long take integral numbers in range; double takes any number, and the strings Spark
 *   accepts for non-finite values (`"NaN"`, `"Infinity"`, `"-INF"`, ...).
 * - string takes a string, and keeps any other value as its JSON text, as Spark keeps the raw text.
 * - boolean takes true or false; timestamp takes text (`parseTimestamp`) or integral seconds since
 *   the epoch; date takes text; binary takes base64 text.
 * - Anything else throws a JsonTypeMismatch naming the value's path: `a.b` for a field, `a[]` for an
 *   element of the array `a`, `a{}` for a value of the map `a`.
 * `JSON.parse` forgets how a number was written, so `1.0` is read as the int 1 where Spark would
 * call the record malformed.
 *
 * Writing produces the text of Spark's `to_json`: null struct fields are omitted, timestamps are
 * ISO 8601 instants in UTC with milliseconds, dates `yyyy-MM-dd`, binary base64, and doubles as
 * Java prints them (`1.0`, `1.0E7`, `"NaN"`).
 */
import { InvalidOptionError } from '../errors.js';
import { castFunction } from '../expr/cast.js';
import {
  type ArrayType,
  type DataType,
  type MapType,
  StringType,
  type StructType,
  typeName,
} from '../types/data-types.js';
import { type CalendarInterval, intervalText } from '../types/calendar-interval.js';
import type { Row } from '../types/row.js';
import {
  formatDate,
  formatIsoInstant,
  MICROS,
  parseDate,
  parseTimestamp,
} from '../types/timestamp-text.js';

/** Converts one non-null value produced by `JSON.parse`; throws a JsonTypeMismatch when it does not fit. */
export type JsonReader = (json: unknown) => unknown;

/** Renders one non-null engine value as JSON text. */
export type JsonWriter = (value: unknown) => string;

/** A JSON object as `JSON.parse` returns it. */
export type JsonObject = Record<string, unknown>;

/** A compiled reader of JSON objects into rows of one struct type. */
export interface RowReader {
  /** Reads a JSON object into a row; throws a JsonTypeMismatch at the first value that does not fit. */
  readonly read: (json: unknown) => Row;
  /**
   * Reads an object that `read` refused, field by field, leaving null each field that does not fit:
   * Spark keeps the other fields of a record with a bad top-level field.
   */
  readonly readPartial: (json: JsonObject) => Row;
}

/**
 * Thrown by a reader when a value does not fit its type. It is a control signal, like DropRow: the
 * record parsers catch it and apply their parse mode, so it carries no stack trace.
 */
export class JsonTypeMismatch {
  /** The value's path in the record; empty for the record itself. */
  readonly path: string;
  /** The type the schema asks for. */
  readonly expected: DataType;
  /** The JSON value found instead. */
  readonly actual: unknown;

  constructor(path: string, expected: DataType, actual: unknown) {
    this.path = path;
    this.expected = expected;
    this.actual = actual;
  }

  /** The mismatch in words, for error messages: `field 'a.b' expects integer but got "x"`. */
  describe(): string {
    const where = this.path === '' ? 'the record' : `field '${this.path}'`;
    const got = JSON.stringify(this.actual);
    const shown = got.length > 40 ? `${got.slice(0, 40)}...` : got;
    return `${where} expects ${typeName(this.expected)} but got ${shown}`;
  }
}

const INT_MIN = -2147483648;
const INT_MAX = 2147483647;
const NON_FINITE: ReadonlyMap<string, number> = new Map([
  ['NaN', NaN],
  ['Infinity', Infinity],
  ['+Infinity', Infinity],
  ['+INF', Infinity],
  ['-Infinity', -Infinity],
  ['-INF', -Infinity],
]);
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** True for a JSON object (not null, not an array). */
export function isJsonObject(json: unknown): json is JsonObject {
  return typeof json === 'object' && json !== null && !Array.isArray(json);
}

/**
 * Compiles the reader of JSON values of `type`. Throws an InvalidOptionError when the type cannot
 * be read from JSON (a map whose keys are not strings).
 */
export function compileJsonReader(type: DataType): JsonReader {
  return readerFor(type, '');
}

/**
 * Compiles the reader of top-level records of `schema`. The field `ignoredField` (the column for
 * corrupt records) is not read from the JSON and stays null, as in Spark.
 */
export function compileRowReader(schema: StructType, ignoredField?: string): RowReader {
  return rowReader(schema, '', ignoredField);
}

function readerFor(t: DataType, path: string): JsonReader {
  const fail = (v: unknown): never => {
    throw new JsonTypeMismatch(path, t, v);
  };
  switch (t.kind) {
    case 'string':
      return (v) => (typeof v === 'string' ? v : JSON.stringify(v));
    case 'boolean':
      return (v) => (typeof v === 'boolean' ? v : fail(v));
    case 'int':
      // an int has no negative zero (Spark's IntegerType; an Int32Array column cannot hold one)
      return (v) =>
        Number.isInteger(v) && (v as number) >= INT_MIN && (v as number) <= INT_MAX
          ? (v as number) + 0
          : fail(v);
    case 'long':
      return (v) => (Number.isSafeInteger(v) ? v : fail(v));
    case 'double':
      return (v) => (typeof v === 'number' ? v : (NON_FINITE.get(v as string) ?? fail(v)));
    case 'timestamp':
      return (v) => timestampOf(v) ?? fail(v);
    case 'date':
      return (v) => (typeof v === 'string' ? parseDate(v) : null) ?? fail(v);
    case 'binary':
      // Copied out of Buffer's shared pool, so the value owns its bytes.
      return (v) =>
        typeof v === 'string' && BASE64.test(v)
          ? new Uint8Array(Buffer.from(v, 'base64'))
          : fail(v);
    case 'interval':
      return fail;
    case 'null':
      return () => null;
    case 'array':
      return arrayReader(t, path, fail);
    case 'map':
      return mapReader(t, path, fail);
    case 'struct':
      return rowReader(t, path).read;
  }
}

/** A timestamp from text, or from integral seconds since the epoch as Spark reads JSON numbers. */
function timestampOf(json: unknown): number | null {
  if (typeof json === 'string') return parseTimestamp(json);
  return Number.isInteger(json) ? (json as number) * MICROS.second : null;
}

function arrayReader(t: ArrayType, path: string, fail: (v: unknown) => never): JsonReader {
  const element = readerFor(t.elementType, `${path}[]`);
  return (v) => {
    if (!Array.isArray(v)) return fail(v);
    const out = new Array<unknown>(v.length);
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      out[i] = x === null ? null : element(x);
    }
    return out;
  };
}

function mapReader(t: MapType, path: string, fail: (v: unknown) => never): JsonReader {
  if (t.keyType.kind !== 'string') {
    throw new InvalidOptionError(
      `Cannot read ${typeName(t)}${path ? ` (at '${path}')` : ''} from JSON: JSON object keys are text, so the map needs string keys. Use map<string,${typeName(t.valueType)}>.`,
    );
  }
  const value = readerFor(t.valueType, `${path}{}`);
  return (v) => {
    if (!isJsonObject(v)) return fail(v);
    const out = new Map<string, unknown>();
    for (const key of Object.keys(v)) {
      const x = v[key];
      out.set(key, x === null ? null : value(x));
    }
    return out;
  };
}

function rowReader(t: StructType, path: string, ignoredField?: string): RowReader {
  const names = t.fields.map((f) => f.name);
  const readers = t.fields.map((f) =>
    f.name === ignoredField
      ? () => null
      : readerFor(f.dataType, path ? `${path}.${f.name}` : f.name),
  );
  // A name like `constructor` would find Object.prototype's member when the key is missing.
  const inherited = names.map((name) => name in Object.prototype);
  const n = names.length;
  const valueAt = (o: JsonObject, i: number): unknown =>
    inherited[i] && !Object.hasOwn(o, names[i]) ? undefined : o[names[i]];
  const read = (v: unknown): Row => {
    if (!isJsonObject(v)) throw new JsonTypeMismatch(path, t, v);
    const row = new Array<unknown>(n);
    for (let i = 0; i < n; i++) {
      const x = valueAt(v, i);
      row[i] = x === undefined || x === null ? null : readers[i](x);
    }
    return row;
  };
  const readPartial = (v: JsonObject): Row =>
    readers.map((reader, i) => {
      const x = valueAt(v, i);
      return x === undefined || x === null ? null : readOrNull(reader, x);
    });
  return { read, readPartial };
}

function readOrNull(reader: JsonReader, json: unknown): unknown {
  try {
    return reader(json);
  } catch (e) {
    if (e instanceof JsonTypeMismatch) return null;
    throw e;
  }
}

/** Compiles the writer of JSON text for non-null values of `type`. */
export function compileJsonWriter(type: DataType): JsonWriter {
  switch (type.kind) {
    case 'string':
      return (v) => JSON.stringify(v);
    case 'boolean':
    case 'int':
    case 'long':
      return (v) => String(v);
    case 'double':
      return (v) => javaDoubleText(v as number);
    case 'timestamp':
      return (v) => `"${formatIsoInstant(v as number)}"`;
    case 'date':
      return (v) => `"${formatDate(v as number)}"`;
    case 'binary':
      return (v) => {
        const bytes = v as Uint8Array;
        return `"${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')}"`;
      };
    case 'interval':
      return (v) => JSON.stringify(intervalText(v as CalendarInterval));
    case 'null':
      return () => 'null';
    case 'array':
      return arrayWriter(type);
    case 'map':
      return mapWriter(type);
    case 'struct':
      return structWriter(type);
  }
}

/** Java's `Double.toString`, which Spark's JSON writer uses; non-finite values are quoted, as Jackson does. */
function javaDoubleText(v: number): string {
  if (!Number.isFinite(v)) return Number.isNaN(v) ? '"NaN"' : v > 0 ? '"Infinity"' : '"-Infinity"';
  if (v === 0) return Object.is(v, -0) ? '-0.0' : '0.0';
  const abs = Math.abs(v);
  if (abs >= 1e-3 && abs < 1e7) return Number.isInteger(v) ? `${v}.0` : String(v);
  const [mantissa, exponent] = v.toExponential().split('e');
  return `${mantissa.includes('.') ? mantissa : `${mantissa}.0`}E${Number(exponent)}`;
}

function arrayWriter(t: ArrayType): JsonWriter {
  const element = compileJsonWriter(t.elementType);
  return (v) => {
    const items = v as unknown[];
    let out = '';
    for (let i = 0; i < items.length; i++) {
      const x = items[i];
      out += (i === 0 ? '' : ',') + (x === null ? 'null' : element(x));
    }
    return `[${out}]`;
  };
}

function mapWriter(t: MapType): JsonWriter {
  const keyText =
    t.keyType.kind === 'string' ? (k: unknown) => k : castFunction(t.keyType, StringType);
  const value = compileJsonWriter(t.valueType);
  return (v) => {
    let out = '';
    for (const [k, x] of v as Map<unknown, unknown>) {
      out += `${out === '' ? '' : ','}${JSON.stringify(keyText(k))}:${x === null ? 'null' : value(x)}`;
    }
    return `{${out}}`;
  };
}

function structWriter(t: StructType): JsonWriter {
  const keys = t.fields.map((f) => `${JSON.stringify(f.name)}:`);
  const writers = t.fields.map((f) => compileJsonWriter(f.dataType));
  return (v) => {
    const row = v as Row;
    let out = '';
    for (let i = 0; i < keys.length; i++) {
      const x = row[i];
      // Spark's default (ignoreNullFields): a null field is left out rather than written as null.
      if (x === null || x === undefined) continue;
      out += (out === '' ? '' : ',') + keys[i] + writers[i](x);
    }
    return `{${out}}`;
  };
}
