/**
 * Spark's JSON form of a schema (what Spark's `StructType.json` writes and `DataType.fromJson`
 * reads). The Delta log keeps a table's schema in it (`metaData.schemaString`, the "Schema
 * Serialization Format" appendix of the Delta protocol) and the file sink's manifests record the
 * schema of their rows in it, so both read and write it through this one codec.
 *
 * Writing maps each Sluice type to its Spark name (int is `integer`, the NULL type is `void`) and
 * writes field metadata empty, since Sluice's only field metadata (the watermark marker) belongs to
 * a query, not to stored data. Reading also accepts Spark's other primitive types and maps them as
 * the Parquet reader maps their file types: `short` and `byte` to int, `float` and `decimal(p,s)` to
 * double, `timestamp_ntz` to timestamp.
 */
import {
  ArrayOf,
  BinaryType,
  BooleanType,
  type DataType,
  DateType,
  DoubleType,
  field,
  IntegerType,
  LongType,
  MapOf,
  NullType,
  StringType,
  struct,
  type StructType,
  TimestampType,
} from './data-types.js';

/** The Spark name of each Sluice atomic type, by kind. */
const PRIMITIVE_NAMES: Record<string, string> = {
  string: 'string',
  boolean: 'boolean',
  int: 'integer',
  long: 'long',
  double: 'double',
  timestamp: 'timestamp',
  date: 'date',
  binary: 'binary',
  null: 'void',
};

/** The Sluice type of each Spark primitive type name Sluice reads. */
const PRIMITIVE_TYPES: Record<string, DataType> = {
  string: StringType,
  boolean: BooleanType,
  integer: IntegerType,
  short: IntegerType,
  byte: IntegerType,
  long: LongType,
  float: DoubleType,
  double: DoubleType,
  timestamp: TimestampType,
  timestamp_ntz: TimestampType,
  date: DateType,
  binary: BinaryType,
  void: NullType,
};

/** The Spark names Sluice writes, which read back as the same type. */
const WRITTEN_NAMES = new Set(Object.values(PRIMITIVE_NAMES));

/**
 * Why a schema text could not be read: `malformed` (not JSON, or not a schema) or `unsupported` (a
 * valid schema with a type Sluice cannot read, such as variant or interval). `problem` completes a
 * sentence about the text, e.g. "is not JSON (...)" or "column 'x' has type 'variant'".
 */
export interface SchemaTextProblem {
  readonly kind: 'malformed' | 'unsupported';
  readonly problem: string;
  readonly cause?: unknown;
}

/** The JSON text of `schema`. */
export function toSparkJsonSchema(schema: StructType): string {
  return JSON.stringify(jsonType(schema));
}

/** The schema `text` holds, or why it holds none. */
export function parseSparkJsonSchema(
  text: string,
): { readonly schema: StructType } | SchemaTextProblem {
  let json: unknown;
  try {
    json = JSON.parse(text) as unknown;
  } catch (cause) {
    return { kind: 'malformed', problem: `is not JSON (${(cause as Error).message})`, cause };
  }
  try {
    const schema = sluiceType(json, 'the schema');
    if (schema.kind !== 'struct') {
      return { kind: 'malformed', problem: `is not a valid schema: it is a ${schema.kind}` };
    }
    return { schema };
  } catch (e) {
    if (e instanceof Unreadable) return e.problem;
    throw e;
  }
}

/**
 * The Sluice type a Spark primitive type name is read as, or undefined for one Sluice cannot read;
 * `exact` tells whether writing that type gives the same name back.
 */
export function primitiveTypeOf(name: string): { type: DataType; exact: boolean } | undefined {
  const type =
    PRIMITIVE_TYPES[name] ??
    (/^decimal\(\s*\d+\s*,\s*\d+\s*\)$/.test(name) ? DoubleType : undefined);
  return type && { type, exact: WRITTEN_NAMES.has(name) };
}

/** Thrown inside the recursive reader and turned into a value at its top. */
class Unreadable extends Error {
  constructor(readonly problem: SchemaTextProblem) {
    super(problem.problem);
  }
}

function jsonType(t: DataType): string | Record<string, unknown> {
  switch (t.kind) {
    case 'struct':
      return {
        type: 'struct',
        fields: t.fields.map((f) => ({
          name: f.name,
          type: jsonType(f.dataType),
          nullable: f.nullable,
          metadata: {},
        })),
      };
    case 'array':
      return { type: 'array', elementType: jsonType(t.elementType), containsNull: t.containsNull };
    case 'map':
      return {
        type: 'map',
        keyType: jsonType(t.keyType),
        valueType: jsonType(t.valueType),
        valueContainsNull: t.valueContainsNull,
      };
    default:
      return PRIMITIVE_NAMES[t.kind];
  }
}

function sluiceType(json: unknown, path: string): DataType {
  if (typeof json === 'string') {
    const primitive = primitiveTypeOf(json);
    if (primitive) return primitive.type;
    throw new Unreadable({ kind: 'unsupported', problem: `${path} has type '${json}'` });
  }
  if (!isObject(json)) throw malformed(`${path} has no valid type`);
  switch (json.type) {
    case 'struct': {
      if (!Array.isArray(json.fields)) throw malformed(`${path} is a struct without fields`);
      return struct(
        (json.fields as unknown[]).map((f) => {
          if (!isObject(f) || typeof f.name !== 'string') {
            throw malformed(`a field of ${path} has no name`);
          }
          const where = path === 'the schema' ? `column '${f.name}'` : `${path}.${f.name}`;
          return field(f.name, sluiceType(f.type, where), f.nullable !== false);
        }),
      );
    }
    case 'array':
      return ArrayOf(
        sluiceType(json.elementType, `${path} (element)`),
        json.containsNull !== false,
      );
    case 'map':
      return MapOf(
        sluiceType(json.keyType, `${path} (key)`),
        sluiceType(json.valueType, `${path} (value)`),
        json.valueContainsNull !== false,
      );
    default:
      throw malformed(`${path} has the unknown type ${JSON.stringify(json.type)}`);
  }
}

function malformed(what: string): Unreadable {
  return new Unreadable({ kind: 'malformed', problem: `is not a valid schema: ${what}` });
}

/** True for a JSON object (not null, not an array). */
function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
