/**
 * Engine values as DynamoDB attribute values: how a result row becomes the attributes of an item.
 *
 * | engine type           | attribute                                                          |
 * |-----------------------|--------------------------------------------------------------------|
 * | string                | S                                                                  |
 * | boolean               | BOOL                                                               |
 * | int, long, double     | N (NaN and infinities have no DynamoDB form: the batch fails)      |
 * | timestamp             | S `2026-01-01T10:00:00.000000Z` (iso8601, the default: readable,   |
 * |                       | and sorts as time does) or N microseconds since the epoch          |
 * |                       | (epochMicros)                                                      |
 * | date                  | S `2026-01-01`                                                     |
 * | binary                | B                                                                  |
 * | struct (and window)   | M by field name; a window is M {start, end}                        |
 * | array                 | L                                                                  |
 * | map                   | M, keys as text                                                    |
 * | null                  | the attribute is left out of the item (a sparse item, as DynamoDB  |
 * |                       | indexes expect); inside lists, maps and structs it is NULL         |
 *
 * Converters are built once per schema, so a batch pays one switch per column, not per value.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { SinkError } from '../errors.js';
import type { DataType, StructType } from '../types/data-types.js';
import { type CalendarInterval, intervalText } from '../types/calendar-interval.js';
import type { Row } from '../types/row.js';
import { formatDate, MICROS } from '../types/timestamp-text.js';

/** How timestamps are written: ISO 8601 text in UTC with microseconds, or microseconds as a number. */
export type DynamoDbTimestampFormat = 'iso8601' | 'epochMicros';

/** The attributes of an item, by name. */
export type ItemAttributes = Record<string, AttributeValue>;

/** Converts one engine value (never null) to an attribute value. */
type ValueEncoder = (value: unknown) => AttributeValue;

const NULL: AttributeValue = { NULL: true };

/**
 * A converter from engine rows of `schema` to item attributes, one per non-null column. `context`
 * names the sink in error messages.
 */
export function rowEncoder(
  schema: StructType,
  timestamps: DynamoDbTimestampFormat,
  context: string,
): (row: Row) => ItemAttributes {
  const fields = schema.fields.map((f) => ({
    name: f.name,
    encode: valueEncoder(f.dataType, timestamps, `${context}, column ${f.name}`),
  }));
  return (row) => {
    const item: ItemAttributes = {};
    for (let i = 0; i < fields.length; i++) {
      const value = row[i];
      if (value !== null && value !== undefined) item[fields[i].name] = fields[i].encode(value);
    }
    return item;
  };
}

/** A timestamp as ISO 8601 text in UTC with all six fraction digits, so text order is time order. */
export function isoTimestamp(micros: number): string {
  const seconds = Math.floor(micros / MICROS.second);
  const fraction = micros - seconds * MICROS.second;
  const text = new Date(seconds * 1000).toISOString();
  return `${text.slice(0, text.length - 5)}.${String(fraction).padStart(6, '0')}Z`;
}

function valueEncoder(
  type: DataType,
  timestamps: DynamoDbTimestampFormat,
  context: string,
): ValueEncoder {
  switch (type.kind) {
    case 'string':
      return (v) => ({ S: v as string });
    case 'boolean':
      return (v) => ({ BOOL: v as boolean });
    case 'int':
    case 'long':
    case 'double':
      return (v) => ({ N: numberText(v as number, context) });
    case 'timestamp':
      return timestamps === 'iso8601'
        ? (v) => ({ S: isoTimestamp(v as number) })
        : (v) => ({ N: String(v) });
    case 'date':
      return (v) => ({ S: formatDate(v as number) });
    case 'binary':
      return (v) => ({ B: v as Uint8Array });
    case 'interval':
      return (v) => ({ S: intervalText(v as CalendarInterval) });
    case 'null':
      return () => NULL;
    case 'array': {
      const element = nullable(valueEncoder(type.elementType, timestamps, context));
      return (v) => ({ L: (v as unknown[]).map(element) });
    }
    case 'map': {
      const entry = nullable(valueEncoder(type.valueType, timestamps, context));
      return (v) => {
        const m: ItemAttributes = {};
        for (const [key, value] of v as Map<unknown, unknown>) m[String(key)] = entry(value);
        return { M: m };
      };
    }
    case 'struct': {
      const fields = type.fields.map((f) => ({
        name: f.name,
        encode: nullable(valueEncoder(f.dataType, timestamps, `${context}.${f.name}`)),
      }));
      return (v) => {
        const m: ItemAttributes = {};
        fields.forEach((f, i) => (m[f.name] = f.encode((v as Row)[i])));
        return { M: m };
      };
    }
  }
}

/** Inside lists, maps and structs a null keeps its place as NULL. */
function nullable(encode: ValueEncoder): ValueEncoder {
  return (v) => (v === null || v === undefined ? NULL : encode(v));
}

function numberText(n: number, context: string): string {
  if (!Number.isFinite(n)) {
    throw new SinkError(
      `${context}: ${n} cannot be written, since DynamoDB numbers are finite; turn it into null or a finite value in the query (e.g. with when()).`,
    );
  }
  return String(n);
}
