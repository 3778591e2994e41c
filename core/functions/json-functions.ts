/**
 * JSON functions: `from_json` parses a string column against a schema, `to_json` renders a struct,
 * array or map column as JSON text. Null in gives null out.
 *
 * `from_json` follows Spark's JSON reader (see core/io/json-value.ts and core/io/json-record.ts for
 * the rules and the parse modes). Unlike Spark, it also accepts DROPMALFORMED: the evaluator then
 * throws the DROP_MALFORMED signal, and the operator running it drops the row and counts it.
 *
 * Over a struct schema, `from_json` also gets a columnar kernel (core/expr/kernels/from-json-kernel.ts)
 * that decodes a batch's texts, or over `cast(binary as string)` their UTF-8 bytes, into typed
 * columns, building only the fields the query reads (`readFields`, set by the planner's pruning
 * pass, core/plan/json-field-pruning.ts). A schema that is not a struct (an array or a map) keeps the
 * generic kernel: the row evaluator over each row.
 *
 * These are the binders; the DataFrame API builds the calls in core/api/json-functions.ts.
 */
import { AnalysisError } from '../errors.js';
import type { BoundExpression, Evaluator } from '../expr/bound-expression.js';
import { DROP_MALFORMED } from '../expr/drop-row.js';
import { fromJsonKernel } from '../expr/kernels/from-json-kernel.js';
import { kernelOf } from '../expr/kernels/generic-kernel.js';
import { compileJsonColumnDecoder } from '../io/json-column-decoder.js';
import { type DataType, StringType, typeName } from '../types/data-types.js';
import {
  asNullable,
  corruptRecordIndex,
  MalformedRecord,
  type ResolvedJsonParseOptions,
} from '../io/json-record.js';
import { compileJsonTextReader, DROP, malformedHandler } from '../io/json-text-reader.js';
import { compileJsonWriter } from '../io/json-value.js';
import { requireArity } from './function-arguments.js';
import type { FunctionTable } from '../expr/function-table.js';
import { nullIntolerant } from './function-registry.js';

/** The non-expression arguments of a `from_json` call. */
interface FromJsonCallOptions extends ResolvedJsonParseOptions {
  readonly schema: DataType;
  /**
   * The top-level fields of the result the query reads, when the planner found it reads only some;
   * the columnar kernel leaves the others null. Absent: every field.
   */
  readonly readFields?: readonly string[];
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
    const evaluator = fromJsonEvaluator(args[0].eval, schema, options);
    if (options.schema.kind !== 'struct')
      return { dataType: schema, nullable: true, eval: evaluator };
    const decoder = compileJsonColumnDecoder(options.schema, options, options.readFields);
    const records = args[0].utf8Bytes ?? kernelOf(args[0]);
    return {
      dataType: schema,
      nullable: true,
      eval: evaluator,
      kernel: fromJsonKernel(records, decoder),
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
