/**
 * JSON functions: `from_json` parses a string column against a schema, `to_json` renders a struct,
 * array or map column as JSON text. Null in gives null out.
 *
 * `from_json` follows Spark's JSON reader (see core/io/json-value.ts and core/io/json-record.ts for
 * the rules and the parse modes). Unlike Spark, it also accepts DROPMALFORMED: the evaluator then
 * throws the DROP_MALFORMED signal, and the operator running it drops the row and counts it.
 */
import { Column, columnOrName } from '../api/column.js';
import { AnalysisError, InvalidOptionError } from '../errors.js';
import type { BoundExpression, Evaluator } from '../expr/bound-expression.js';
import { DROP_MALFORMED } from '../expr/drop-row.js';
import { type DataType, StringType, typeName } from '../types/data-types.js';
import { parseSchema, parseTypeName } from '../types/type-names.js';
import {
  asNullable,
  corruptRecordIndex,
  type JsonParseOptions,
  MalformedRecord,
  resolveJsonParseOptions,
  type ResolvedJsonParseOptions,
} from '../io/json-record.js';
import { compileJsonTextReader, DROP, malformedHandler } from '../io/json-text-reader.js';
import { compileJsonReader, compileJsonWriter } from '../io/json-value.js';
import { requireArity } from './function-arguments.js';
import { type FunctionTable, nullIntolerant } from './function-registry.js';

/** The non-expression arguments of a `from_json` call. */
interface FromJsonCallOptions extends ResolvedJsonParseOptions {
  readonly schema: DataType;
}

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

/** Binders of the JSON functions. */
export const jsonFunctions: FunctionTable = {
  from_json: (args, call) => {
    requireArgument('from_json', args, ['string'], 'a string');
    const options = call.options as FromJsonCallOptions | undefined;
    if (!options?.schema) {
      throw new AnalysisError(
        'from_json() needs a schema; build it with from_json(column, schema).',
      );
    }
    const schema = asNullable(options.schema);
    return {
      dataType: schema,
      nullable: true,
      eval: fromJsonEvaluator(args[0].eval, schema, options),
    };
  },
  to_json: (args) => {
    requireArgument('to_json', args, ['struct', 'array', 'map'], 'a struct, array or map');
    return {
      dataType: StringType,
      nullable: args[0].nullable,
      eval: nullIntolerant(args, compileJsonWriter(args[0].dataType)),
    };
  },
};

function requireArgument(
  name: string,
  args: readonly BoundExpression[],
  kinds: readonly string[],
  wanted: string,
): void {
  requireArity(name, args, 1);
  const t = args[0].dataType;
  if (!kinds.includes(t.kind) && t.kind !== 'null') {
    throw new AnalysisError(`${name}() needs ${wanted} argument, got ${typeName(t)}.`);
  }
}

function fromJsonEvaluator(
  input: Evaluator,
  schema: DataType,
  options: FromJsonCallOptions,
): Evaluator {
  const corruptIndex = corruptRecordIndex(schema, options.columnNameOfCorruptRecord, 'from_json()');
  const read = compileJsonTextReader(
    schema,
    options.syntax,
    corruptIndex >= 0 ? options.columnNameOfCorruptRecord : undefined,
  );
  const onMalformed = malformedHandler(schema, options.mode, corruptIndex);
  return (row) => {
    const text = input(row);
    if (text === null) return null;
    const value = read(text as string);
    if (!(value instanceof MalformedRecord)) return value;
    const handled = onMalformed(value);
    if (handled === DROP) throw DROP_MALFORMED;
    return handled;
  };
}
