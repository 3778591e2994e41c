/**
 * The JSON functions of the DataFrame API: `from_json` and `to_json`. `from_json` checks its schema
 * and options when the column is built, so a bad one fails before the query runs;
 * core/functions/json-functions.ts binds and evaluates both, and its module doc states the rules.
 */
import { InvalidOptionError } from '../errors.js';
import {
  corruptRecordIndex,
  type JsonParseOptions,
  resolveJsonParseOptions,
} from '../io/json-record.js';
import { compileJsonReader } from '../io/json-value.js';
import { type DataType, typeName } from '../types/data-types.js';
import { parseSchema, parseTypeName } from '../types/type-names.js';
import { Column, columnOrName } from './column.js';

/**
 * Parses a JSON string column into a struct, array or map. `schema` is a DataType, a DDL schema
 * (`'a INT, b STRING'`) or a type name (`'array<string>'`). A malformed record gives nulls
 * (PERMISSIVE, with its text in the `_corrupt_record` string field if the schema has one), drops
 * the row (DROPMALFORMED) or fails the query (FAILFAST). As in Spark, single-quoted JSON and NaN or
 * Infinity are read unless `allowSingleQuotes` or `allowNonNumericNumbers` is false. Throws an
 * InvalidOptionError for a bad schema or option.
 */
export function from_json(
  c: Column | string,
  schema: DataType | string,
  options?: JsonParseOptions,
): Column {
  const type = typeof schema === 'string' ? parseSchemaText(schema) : schema;
  if (type.kind !== 'struct' && type.kind !== 'array' && type.kind !== 'map') {
    throw new InvalidOptionError(
      `from_json() needs a struct, array or map schema, got ${typeName(type)}. Name the field, as in 'value ${typeName(type).toUpperCase()}'.`,
    );
  }
  const parse = resolveJsonParseOptions(options, 'from_json()');
  // Compiled here only to reject unreadable types (map keys that are not strings) before the query runs.
  compileJsonReader(type);
  corruptRecordIndex(type, parse.columnNameOfCorruptRecord, 'from_json()');
  const { mode, columnNameOfCorruptRecord, syntax } = parse;
  return new Column({
    kind: 'call',
    name: 'from_json',
    args: [columnOrName(c)],
    options: { schema: type, mode, columnNameOfCorruptRecord, syntax },
  });
}

/** Renders a struct, array or map column as JSON text, as Spark's `to_json` does (null fields are left out). */
export function to_json(c: Column | string): Column {
  return new Column({ kind: 'call', name: 'to_json', args: [columnOrName(c)] });
}

/** Spark's reading of a schema string: a type name first, then a DDL field list. */
function parseSchemaText(text: string): DataType {
  try {
    return parseTypeName(text);
  } catch {
    return parseSchema(text);
  }
}
