/**
 * Sluice's SQL data types and how their values are held in memory.
 *
 * Value representation (internal and in collected rows):
 * - string: JS string; boolean: JS boolean; int, long, double: JS number.
 *   `long` is limited to the safe integer range (±2^53 - 1); a cast or arithmetic result outside it is an error.
 * - timestamp: microseconds since the Unix epoch (UTC) as a JS number, Spark's precision.
 *   Exact for instants between the years 1685 and 2255.
 * - date: days since the Unix epoch as a JS number.
 * - binary: Uint8Array. array: JS array. map: JS Map.
 * - struct: a positional JS array inside the engine; an object keyed by field name in collected rows.
 * - null is SQL NULL for every type.
 */

/** A primitive (non-nested) SQL type. */
export type AtomicType =
  | { readonly kind: 'string' }
  | { readonly kind: 'boolean' }
  | { readonly kind: 'int' }
  | { readonly kind: 'long' }
  | { readonly kind: 'double' }
  | { readonly kind: 'timestamp' }
  | { readonly kind: 'date' }
  | { readonly kind: 'binary' }
  | { readonly kind: 'interval' }
  | { readonly kind: 'null' };

/** An ordered list of elements of one type. */
export interface ArrayType {
  readonly kind: 'array';
  readonly elementType: DataType;
  readonly containsNull: boolean;
}

/** A map from keys of one type to values of another. */
export interface MapType {
  readonly kind: 'map';
  readonly keyType: DataType;
  readonly valueType: DataType;
  readonly valueContainsNull: boolean;
}

/** Metadata carried by a field; `eventTimeDelayMicros` marks a column with a watermark. */
export interface FieldMetadata {
  readonly eventTimeDelayMicros?: number;
}

/** One named, typed column of a struct or a schema. */
export interface StructField {
  readonly name: string;
  readonly dataType: DataType;
  readonly nullable: boolean;
  readonly metadata?: FieldMetadata;
}

/** A record of named fields; the schema of every DataFrame is a StructType. */
export interface StructType {
  readonly kind: 'struct';
  readonly fields: readonly StructField[];
}

/** Any SQL data type. */
export type DataType = AtomicType | ArrayType | MapType | StructType;

/** The string type. */
export const StringType: AtomicType = { kind: 'string' };
/** The boolean type. */
export const BooleanType: AtomicType = { kind: 'boolean' };
/** 32-bit signed integers. */
export const IntegerType: AtomicType = { kind: 'int' };
/** Integers in the JS safe range. */
export const LongType: AtomicType = { kind: 'long' };
/** IEEE 754 double precision floating point. */
export const DoubleType: AtomicType = { kind: 'double' };
/** An instant with microsecond precision. */
export const TimestampType: AtomicType = { kind: 'timestamp' };
/** A calendar date. */
export const DateType: AtomicType = { kind: 'date' };
/** A byte sequence. */
export const BinaryType: AtomicType = { kind: 'binary' };
/** The type of an untyped NULL literal. */
export const NullType: AtomicType = { kind: 'null' };

/** Builds an array type. */
export function ArrayOf(elementType: DataType, containsNull = true): ArrayType {
  return { kind: 'array', elementType, containsNull };
}

/** Builds a map type. */
export function MapOf(keyType: DataType, valueType: DataType, valueContainsNull = true): MapType {
  return { kind: 'map', keyType, valueType, valueContainsNull };
}

/** Builds a struct field; nullable unless told otherwise. */
export function field(
  name: string,
  dataType: DataType,
  nullable = true,
  metadata?: FieldMetadata,
): StructField {
  return metadata ? { name, dataType, nullable, metadata } : { name, dataType, nullable };
}

/** Builds a struct type (and so a schema) from its fields. */
export function struct(fields: readonly StructField[]): StructType {
  return { kind: 'struct', fields };
}

/** True for the numeric types (int, long, double). */
export function isNumeric(t: DataType): boolean {
  return t.kind === 'int' || t.kind === 'long' || t.kind === 'double';
}

/** Spark's short name of a type, as `printSchema` and error messages show it. */
export function typeName(t: DataType): string {
  switch (t.kind) {
    case 'int':
      return 'integer';
    case 'null':
      return 'void';
    case 'array':
      return `array<${typeName(t.elementType)}>`;
    case 'map':
      return `map<${typeName(t.keyType)},${typeName(t.valueType)}>`;
    case 'struct':
      return `struct<${t.fields.map((f) => `${f.name}:${typeName(f.dataType)}`).join(',')}>`;
    default:
      return t.kind;
  }
}

/** Structural equality of two types (nullability and metadata ignored). */
export function sameType(a: DataType, b: DataType): boolean {
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case 'array':
      return sameType(a.elementType, (b as ArrayType).elementType);
    case 'map':
      return (
        sameType(a.keyType, (b as MapType).keyType) &&
        sameType(a.valueType, (b as MapType).valueType)
      );
    case 'struct': {
      const bf = (b as StructType).fields;
      return (
        a.fields.length === bf.length &&
        a.fields.every((f, i) => f.name === bf[i].name && sameType(f.dataType, bf[i].dataType))
      );
    }
    default:
      return true;
  }
}

/** Renders a schema as Spark's `printSchema()` tree. */
export function treeString(schema: StructType): string {
  const lines = ['root'];
  const walk = (t: DataType, indent: string): void => {
    if (t.kind === 'struct') {
      for (const f of t.fields) {
        lines.push(`${indent}|-- ${f.name}: ${shortName(f.dataType)} (nullable = ${f.nullable})`);
        walk(f.dataType, `${indent}|    `);
      }
    } else if (t.kind === 'array') {
      lines.push(
        `${indent}|-- element: ${shortName(t.elementType)} (containsNull = ${t.containsNull})`,
      );
      walk(t.elementType, `${indent}|    `);
    } else if (t.kind === 'map') {
      lines.push(`${indent}|-- key: ${shortName(t.keyType)}`);
      lines.push(
        `${indent}|-- value: ${shortName(t.valueType)} (valueContainsNull = ${t.valueContainsNull})`,
      );
      walk(t.valueType, `${indent}|    `);
    }
  };
  walk(schema, ' ');
  return lines.join('\n');
}

function shortName(t: DataType): string {
  return t.kind === 'struct' || t.kind === 'array' || t.kind === 'map' ? t.kind : typeName(t);
}
