/**
 * Table schemas in the form the Delta log keeps them (`metaData.schemaString`): Spark's JSON schema
 * (core/types/spark-json-schema.ts), with the errors and write checks of a Delta table.
 */
import { DeltaTableError } from '../errors.js';
import { DoubleType, type StructType, typeName } from '../types/data-types.js';
import {
  parseSparkJsonSchema,
  primitiveTypeOf,
  toSparkJsonSchema,
} from '../types/spark-json-schema.js';

/** The metadata key under which a column declares an invariant writers must enforce. */
const INVARIANTS_KEY = 'delta.invariants';

/** The `schemaString` of a table with `schema`. */
export function toDeltaSchemaString(schema: StructType): string {
  return toSparkJsonSchema(schema);
}

/**
 * Parses a `schemaString`. Throws DeltaTableError naming the table when it is not a valid schema or
 * uses a type Sluice cannot read (variant, interval).
 */
export function parseDeltaSchema(schemaString: string, table: string): StructType {
  const parsed = parseSparkJsonSchema(schemaString);
  if ('schema' in parsed) return parsed.schema;
  const message =
    parsed.kind === 'unsupported'
      ? `Delta table ${table}: ${parsed.problem}, which Sluice cannot read; read the table with an engine that supports it.`
      : `Delta table ${table}: metaData.schemaString ${parsed.problem}; the log is damaged.`;
  throw new DeltaTableError(message, { cause: parsed.cause });
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
      const primitive = primitiveTypeOf(type);
      if (!primitive?.exact) {
        reasons.push(
          `column '${path}' is ${type}, which Sluice reads and writes as ${typeName(primitive?.type ?? DoubleType)}`,
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
