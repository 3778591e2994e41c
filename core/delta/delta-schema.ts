/**
 * Table schemas in the form the Delta log keeps them (`metaData.schemaString`): Spark's JSON schema,
 * as the "Schema Serialization Format" appendix of the Delta protocol specifies it.
 *
 * Writing maps each Sluice type to its Delta name (int is `integer`, the NULL type is `void`); field
 * metadata is written empty, since Sluice's only field metadata (the watermark marker) belongs to a
 * query, not to a table. Reading also accepts Delta's other primitive types and maps them the way the
 * Parquet reader maps their file types: `short` and `byte` to int, `float` and `decimal(p,s)` to
 * double, `timestamp_ntz` to timestamp.
 */
import { DeltaTableError } from '../errors.js';
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
  typeName,
} from '../types/data-types.js';

/** A type in Delta's JSON schema: a primitive's name, or an object for struct, array and map. */
type JsonType = string | Record<string, unknown>;

/** The Delta name of each Sluice atomic type, by kind. */
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

/** The Delta names Sluice writes, which read back as the same type. */
const WRITTEN_NAMES = new Set(Object.values(PRIMITIVE_NAMES));

/** The Sluice type of each Delta primitive type name. */
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

/** The metadata key under which a column declares an invariant writers must enforce. */
const INVARIANTS_KEY = 'delta.invariants';

/** The `schemaString` of a table with `schema`. */
export function toDeltaSchemaString(schema: StructType): string {
  return JSON.stringify(jsonType(schema));
}

/**
 * Parses a `schemaString`. Throws DeltaTableError naming the table when it is not a valid schema or
 * uses a type Sluice cannot read (variant, interval).
 */
export function parseDeltaSchema(schemaString: string, table: string): StructType {
  const parsed = parseJson(schemaString, table);
  const schema = sluiceType(parsed, 'the schema', table);
  if (schema.kind !== 'struct') {
    throw invalid(table, `the schema is a ${schema.kind}, not a struct`);
  }
  return schema;
}

/**
 * Why Sluice cannot write to a table with this schema without breaking it, one reason per column
 * (empty when it can): a column declares `delta.invariants` (SQL rules a writer must check, which
 * Sluice cannot evaluate), or has a Delta type Sluice reads as another type (short, byte, float,
 * decimal, timestamp_ntz), whose values it would write in the wrong physical type.
 */
export function unwritableColumns(schemaString: string, table: string): string[] {
  const reasons: string[] = [];
  const walk = (type: unknown, path: string): void => {
    if (typeof type === 'string') {
      if (!WRITTEN_NAMES.has(type)) {
        reasons.push(
          `column '${path}' is ${type}, which Sluice reads and writes as ${typeName(PRIMITIVE_TYPES[type] ?? DoubleType)}`,
        );
      }
    } else if (isObject(type) && type.type === 'struct' && Array.isArray(type.fields)) {
      for (const f of type.fields as unknown[]) {
        if (!isObject(f)) continue;
        const name = path === '' ? String(f.name) : `${path}.${String(f.name)}`;
        if (isObject(f.metadata) && INVARIANTS_KEY in f.metadata) {
          reasons.push(`column '${name}' has an invariant (${INVARIANTS_KEY}) Sluice cannot check`);
        }
        walk(f.type, name);
      }
    } else if (isObject(type) && type.type === 'array') {
      walk(type.elementType, `${path}.element`);
    } else if (isObject(type) && type.type === 'map') {
      walk(type.keyType, `${path}.key`);
      walk(type.valueType, `${path}.value`);
    }
  };
  walk(parseJson(schemaString, table), '');
  return reasons;
}

function jsonType(t: DataType): JsonType {
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

function sluiceType(json: unknown, path: string, table: string): DataType {
  if (typeof json === 'string') {
    const primitive = PRIMITIVE_TYPES[json];
    if (primitive) return primitive;
    if (/^decimal\(\s*\d+\s*,\s*\d+\s*\)$/.test(json)) return DoubleType;
    throw new DeltaTableError(
      `Delta table ${table}: ${path} has type '${json}', which Sluice cannot read; read the table with an engine that supports it.`,
    );
  }
  if (!isObject(json)) throw invalid(table, `${path} has no valid type`);
  switch (json.type) {
    case 'struct': {
      if (!Array.isArray(json.fields)) throw invalid(table, `${path} is a struct without fields`);
      return struct(
        (json.fields as unknown[]).map((f) => {
          if (!isObject(f) || typeof f.name !== 'string') {
            throw invalid(table, `a field of ${path} has no name`);
          }
          const where = path === 'the schema' ? `column '${f.name}'` : `${path}.${f.name}`;
          return field(f.name, sluiceType(f.type, where, table), f.nullable !== false);
        }),
      );
    }
    case 'array':
      return ArrayOf(
        sluiceType(json.elementType, `${path} (element)`, table),
        json.containsNull !== false,
      );
    case 'map':
      return MapOf(
        sluiceType(json.keyType, `${path} (key)`, table),
        sluiceType(json.valueType, `${path} (value)`, table),
        json.valueContainsNull !== false,
      );
    default:
      throw invalid(table, `${path} has the unknown type ${JSON.stringify(json.type)}`);
  }
}

function parseJson(schemaString: string, table: string): unknown {
  try {
    return JSON.parse(schemaString) as unknown;
  } catch (cause) {
    throw new DeltaTableError(
      `Delta table ${table}: metaData.schemaString is not JSON (${(cause as Error).message}); the log is damaged.`,
      { cause },
    );
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalid(table: string, what: string): DeltaTableError {
  return new DeltaTableError(
    `Delta table ${table}: metaData.schemaString is not a valid schema: ${what}; the log is damaged.`,
  );
}
