/**
 * Rows the program hands to the engine (`createDataFrame`, `MemoryStream.addData`, processor
 * outputs and state values, UDF results), checked against the schema and converted to engine form,
 * through this file only. Every value must already be of its column's type: the engine never casts
 * these, so a string in a timestamp column would otherwise become a NULL window and `'abc' + 1` a
 * string. The engine's forms are JS numbers for int, bigint and double (integral and in range where
 * the type demands), microseconds since the epoch for timestamps, days since the epoch for dates,
 * Uint8Array for binary, arrays for structs and Maps for maps. Timestamp and date columns take a JS
 * `Date` (a {@link Timestamp} gives its microseconds; a date column takes the Date's UTC day) and
 * refuse numbers, which could be read as ms or µs or days: the error names the column.
 */
import { InvalidOptionError } from '../errors.js';
import type { DataType, StructType } from './data-types.js';
import { typeName } from './data-types.js';
import { isCalendarInterval } from './calendar-interval.js';
import type { Row, RowObject } from './row.js';
import { dateEpochMicros } from './timestamp.js';

/** Converts one value found at `path` (`a`, `s.b`, `tags[2]`, `m['k']`) of the row being checked. */
type ValueInput = (value: unknown, path: string) => unknown;

/** Thrown at the first value that does not fit; caught per row to add the row's number. */
class ValueMismatch extends Error {
  constructor(
    readonly path: string,
    readonly expected: string,
    readonly value: unknown,
  ) {
    super(`${path} expects ${expected}`);
  }
}

const MS_PER_DAY = 86_400_000;
const INT_MIN = -(2 ** 31);
const INT_MAX = 2 ** 31 - 1;

/**
 * A converter from user-facing objects to engine rows of `schema`, built once. It throws an
 * InvalidOptionError naming `source` (e.g. `createDataFrame`), the row index, the column (its path
 * for a nested value), the expected type and the value given. Missing columns become null.
 */
export function rowInputConverter(
  schema: StructType,
  source: string,
): (obj: unknown, index: number) => Row {
  const fields = schema.fields;
  const inputs = fields.map((f) => valueInput(f.dataType, f.nullable));
  return (obj, index) => {
    if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) {
      throw new InvalidOptionError(
        `${source}: row ${index} is not an object keyed by column name.`,
      );
    }
    const row = new Array<unknown>(fields.length);
    try {
      for (let i = 0; i < fields.length; i++) {
        row[i] = inputs[i]((obj as RowObject)[fields[i].name], fields[i].name);
      }
    } catch (e) {
      if (!(e instanceof ValueMismatch)) throw e;
      throw new InvalidOptionError(
        `${source}: row ${index}, column '${e.path}' expects ${e.expected} but got ${describe(e.value)}; give a value of the column's type (the engine does not cast input rows).`,
      );
    }
    return row;
  };
}

function valueInput(t: DataType, nullable: boolean): ValueInput {
  const input = nonNullInput(t);
  return (value, path) => {
    if (value === null || value === undefined) {
      if (!nullable) throw new ValueMismatch(path, `a non-null ${typeName(t)}`, value);
      return null;
    }
    return input(value, path);
  };
}

function nonNullInput(t: DataType): ValueInput {
  switch (t.kind) {
    case 'string':
      return typed('a string', (v) => typeof v === 'string');
    case 'boolean':
      return typed('a boolean', (v) => typeof v === 'boolean');
    case 'int':
      return typed('an integer (a whole number from -2^31 to 2^31-1)', isInt);
    case 'long':
      return typed('a bigint (a whole number within ±(2^53 - 1))', Number.isSafeInteger);
    case 'double':
      return typed('a double (a number)', (v) => typeof v === 'number');
    case 'binary':
      return typed('binary (a Uint8Array)', (v) => v instanceof Uint8Array);
    case 'null':
      return typed('null (void)', () => false);
    case 'interval':
      return typed('an interval ({ months, days, micros }, whole numbers)', isCalendarInterval);
    case 'timestamp':
      return datetimeInput(
        'a timestamp (a Date: new Date(ms), or Timestamp.fromEpochMicros(µs) for microseconds)',
        dateEpochMicros,
      );
    case 'date':
      return datetimeInput(
        'a date (a Date, whose UTC day is taken: new Date(Date.UTC(y, m, d)))',
        (d) => Math.floor(d.getTime() / MS_PER_DAY),
      );
    case 'struct':
      return structInput(t);
    case 'array':
      return arrayInput(t.elementType, t.containsNull);
    case 'map':
      return mapInput(t.keyType, t.valueType, t.valueContainsNull);
  }
}

/** Values of an atomic type whose engine form is the value itself. */
function typed(expected: string, accepts: (value: unknown) => boolean): ValueInput {
  return (value, path) => {
    if (!accepts(value)) throw new ValueMismatch(path, expected, value);
    return value;
  };
}

function isInt(value: unknown): boolean {
  return Number.isInteger(value) && (value as number) >= INT_MIN && (value as number) <= INT_MAX;
}

/** A valid Date converts to the engine's unit; anything else, numbers included, is refused. */
function datetimeInput(expected: string, fromDate: (date: Date) => number): ValueInput {
  return (value, path) => {
    if (!(value instanceof Date) || Number.isNaN(value.getTime()))
      throw new ValueMismatch(path, expected, value);
    return fromDate(value);
  };
}

/** A struct value: an object keyed by field name, or an array in field order (the engine's form). */
function structInput(t: StructType): ValueInput {
  const inputs = t.fields.map((f) => valueInput(f.dataType, f.nullable));
  return (value, path) => {
    if (typeof value !== 'object' || value instanceof Date || value instanceof Map) {
      throw new ValueMismatch(path, `${typeName(t)} (an object keyed by field name)`, value);
    }
    const positional = Array.isArray(value);
    if (positional && value.length !== t.fields.length) {
      throw new ValueMismatch(path, `${typeName(t)} (${t.fields.length} fields)`, value);
    }
    return t.fields.map((f, i) =>
      inputs[i](
        positional ? (value as unknown[])[i] : (value as RowObject)[f.name],
        `${path}.${f.name}`,
      ),
    );
  };
}

function arrayInput(elementType: DataType, containsNull: boolean): ValueInput {
  const element = valueInput(elementType, containsNull);
  return (value, path) => {
    if (!Array.isArray(value)) {
      throw new ValueMismatch(
        path,
        `${typeName({ kind: 'array', elementType, containsNull })} (an array)`,
        value,
      );
    }
    return value.map((v, i) => element(v, `${path}[${i}]`));
  };
}

/** A map value: a Map, or a plain object (its keys are strings, so the map's keys must be too). */
function mapInput(keyType: DataType, valueType: DataType, valueContainsNull: boolean): ValueInput {
  const mapType: DataType = { kind: 'map', keyType, valueType, valueContainsNull };
  const keyInput = valueInput(keyType, false);
  const valueOf = valueInput(valueType, valueContainsNull);
  return (value, path) => {
    const isObject = typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date);
    if (!(value instanceof Map) && !isObject) {
      throw new ValueMismatch(path, `${typeName(mapType)} (a Map or an object)`, value);
    }
    const entries = value instanceof Map ? [...value] : Object.entries(value as object);
    return new Map(
      entries.map(([k, v]) => {
        const key = keyInput(k, `${path} key ${JSON.stringify(k)}`);
        return [key, valueOf(v, `${path}[${JSON.stringify(k)}]`)];
      }),
    );
  };
}

/** The value given, for messages: its JS type and a short rendering. */
function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'string') return `the string ${JSON.stringify(truncated(value))}`;
  if (value instanceof Date) return `the Date ${String(value)}`;
  if (value instanceof Map) return 'a Map';
  if (value instanceof Uint8Array) return `a Uint8Array`;
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === 'object') return 'an object';
  return `the ${typeof value} ${truncated(String(value))}`;
}

function truncated(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}...` : text;
}
