/**
 * The general reading of one JSON text against a `from_json` schema: `JSON.parse` (or the lenient
 * scanner, for single quotes and NaN), then the compiled reader of the schema. `from_json` reads
 * every record this way, and the columnar decoder (json-column-decoder.ts) every record its fast
 * path does not take, so both give the same value, the same malformed records and the same errors.
 */
import type { DataType } from '../types/data-types.js';
import {
  MalformedRecord,
  malformedRecordError,
  parseJsonText,
  permissiveRow,
  readRootRow,
  type ParseMode,
} from './json-record.js';
import type { JsonSyntax } from './json-syntax.js';
import {
  compileJsonReader,
  compileRowReader,
  isJsonObject,
  JsonTypeMismatch,
} from './json-value.js';

/**
 * Reads one non-null JSON text: the value of the schema, null for blank text (no record), or the
 * MalformedRecord that says why the text is not JSON or does not fit.
 */
export type JsonTextReader = (text: string) => unknown;

/**
 * Compiles the reader of JSON texts of `schema` in `syntax`. `corruptColumn` names the struct
 * field that holds a malformed record's text (not read from the JSON), undefined when there is none.
 */
export function compileJsonTextReader(
  schema: DataType,
  syntax: JsonSyntax,
  corruptColumn: string | undefined,
): JsonTextReader {
  const read = recordReader(schema, corruptColumn);
  return (text) => {
    const json = parseJsonText(text, syntax);
    if (json === undefined) return null;
    return json instanceof MalformedRecord ? json : read(json, text);
  };
}

/** Reads a parsed record of `schema`, or returns the MalformedRecord saying why it does not fit. */
function recordReader(
  schema: DataType,
  corruptColumn: string | undefined,
): (json: unknown, text: string) => unknown {
  if (schema.kind === 'struct') {
    const rows = compileRowReader(schema, corruptColumn);
    return (json, text) => readRootRow(json, rows, text);
  }
  const read = compileJsonReader(schema);
  // Spark reads a lone object as a one-element array when the schema is an array of structs.
  const wrapObject = schema.kind === 'array' && schema.elementType.kind === 'struct';
  return (json, text) => {
    try {
      return read(wrapObject && isJsonObject(json) ? [json] : json);
    } catch (e) {
      if (e instanceof JsonTypeMismatch) return new MalformedRecord(text, e, null);
      throw e;
    }
  };
}

/** What a parse mode makes of a malformed record: a value, or DROP for DROPMALFORMED. */
export type MalformedHandler = (malformed: MalformedRecord) => unknown;

/** The value DROPMALFORMED makes of a malformed record: none, the record is dropped. */
export const DROP: unique symbol = Symbol('drop the malformed record');

/**
 * The handler of malformed records of `schema` in `mode`: PERMISSIVE gives the row of nulls that
 * keeps the fields that fit (and the text in the corrupt-record column at `corruptIndex`, -1 for
 * none; null for an array or map schema), DROPMALFORMED gives DROP, FAILFAST throws the
 * ExecutionError that quotes the record.
 */
export function malformedHandler(
  schema: DataType,
  mode: ParseMode,
  corruptIndex: number,
): MalformedHandler {
  switch (mode) {
    case 'PERMISSIVE': {
      if (schema.kind !== 'struct') return () => null;
      const width = schema.fields.length;
      return (m) => permissiveRow(m, width, corruptIndex);
    }
    case 'DROPMALFORMED':
      return () => DROP;
    case 'FAILFAST':
      return (m) => {
        throw malformedRecordError('from_json()', m);
      };
  }
}
