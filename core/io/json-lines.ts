/**
 * JSON lines, one JSON record per line, as Spark's JSON data source reads and writes them.
 *
 * Reading: blank lines are skipped, and a line holding an array gives one row per element (Spark's
 * SPARK-3308). Malformed records follow the parse mode (see json-record.ts). Without a schema,
 * one is inferred first from every record (see json-inference.ts): the union of their fields,
 * sorted by name, plus the corrupt-record column in PERMISSIVE mode when a record is malformed.
 * Inference only notes malformed records; the reading pass that follows judges them, so FAILFAST
 * names the same line with or without a schema.
 *
 * Writing: one object per row with its null fields left out, each line ending in `\n`.
 */
import { field, StringType, struct, type StructType } from '../types/data-types.js';
import type { Row } from '../types/row.js';
import { finishInferredSchema, inferJsonType, mergeJsonTypes } from './json-inference.js';
import {
  asNullable,
  corruptRecordIndex,
  isBlankRecord,
  type JsonParseOptions,
  MalformedRecord,
  malformedRecordError,
  parseJsonText,
  permissiveRow,
  readRootRow,
  resolveJsonParseOptions,
  type ResolvedJsonParseOptions,
} from './json-record.js';
import { compileJsonWriter, compileRowReader, type RowReader } from './json-value.js';

/** Options of {@link parseJsonLines}, named as Spark's JSON reader names them. */
export interface JsonLinesOptions extends JsonParseOptions {
  /** The records' schema. @default inferred from the records */
  readonly schema?: StructType;
  /** The input's name (a file name) for error messages. @default 'JSON input' */
  readonly source?: string;
}

/** The rows read from JSON lines. */
export interface JsonLines {
  /** The rows' schema: the given one with every field nullable, or the inferred one. */
  readonly schema: StructType;
  readonly rows: Row[];
  /** How many records were malformed (kept as nulls in PERMISSIVE mode, dropped in DROPMALFORMED). */
  readonly malformed: number;
}

/**
 * Reads JSON lines into rows of `options.schema`, or of a schema inferred from the records. Throws
 * an ExecutionError naming the source and line for a malformed record in FAILFAST mode, and an
 * InvalidOptionError for a bad option.
 */
export function parseJsonLines(text: string, options: JsonLinesOptions = {}): JsonLines {
  const source = options.source ?? 'JSON input';
  const parse = resolveJsonParseOptions(options, `Reading ${source}`);
  const lines = text.split('\n');
  const schema = options.schema ? asNullable(options.schema) : inferSchema(lines, parse);
  return readLines(lines, schema, parse, source);
}

/** Renders rows of `schema` as JSON lines, as Spark's JSON writer does. */
export function formatJsonLines(rows: readonly Row[], schema: StructType): string {
  const write = compileJsonWriter(schema);
  let out = '';
  for (const row of rows) out += `${write(row)}\n`;
  return out;
}

function inferSchema(lines: readonly string[], parse: ResolvedJsonParseOptions): StructType {
  let schema = struct([]);
  let malformed = false;
  for (const line of lines) {
    let t = inferJsonType(line, parse.syntax);
    if (t === null) {
      malformed ||= !isBlankRecord(line);
      continue;
    }
    while (t.kind === 'array') t = t.elementType; // each element of a top-level array is a record
    if (t.kind === 'struct') schema = mergeJsonTypes(schema, t);
    else if (t.kind !== 'null') malformed = true; // Spark ignores null records when inferring
  }
  if (malformed && parse.mode === 'PERMISSIVE') {
    schema = mergeJsonTypes(schema, struct([field(parse.columnNameOfCorruptRecord, StringType)]));
  }
  return finishInferredSchema(schema);
}

function readLines(
  lines: readonly string[],
  schema: StructType,
  parse: ResolvedJsonParseOptions,
  source: string,
): JsonLines {
  const column = parse.columnNameOfCorruptRecord;
  const corruptIndex = corruptRecordIndex(schema, column, `Reading ${source}`);
  const reader = compileRowReader(schema, corruptIndex >= 0 ? column : undefined);
  const rows: Row[] = [];
  let malformed = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = withoutCarriageReturn(lines[i]);
    const json = parseJsonText(line, parse.syntax);
    if (json === undefined) continue;
    const bad = json instanceof MalformedRecord ? json : appendRows(json, reader, line, rows);
    if (bad === null) continue;
    malformed++;
    if (parse.mode === 'FAILFAST') throw malformedRecordError(`${source} line ${i + 1}`, bad);
    if (parse.mode === 'PERMISSIVE')
      rows.push(permissiveRow(bad, schema.fields.length, corruptIndex));
  }
  return { schema, rows, malformed };
}

/** A line of a file with Windows line ends, as the corrupt-record column should show it. */
function withoutCarriageReturn(line: string): string {
  return line.charCodeAt(line.length - 1) === 13 ? line.slice(0, -1) : line;
}

/**
 * Appends the rows of one parsed line: one row, or one per element of a top-level array. Returns
 * the MalformedRecord when the line does not fit; a bad element makes the whole line malformed.
 */
function appendRows(
  json: unknown,
  reader: RowReader,
  line: string,
  rows: Row[],
): MalformedRecord | null {
  if (!Array.isArray(json)) {
    const row = readRootRow(json, reader, line);
    if (row instanceof MalformedRecord) return row;
    rows.push(row);
    return null;
  }
  const elementRows: Row[] = [];
  for (const element of json as unknown[]) {
    const row = readRootRow(element, reader, line);
    if (row instanceof MalformedRecord) {
      return new MalformedRecord(line, row.mismatch, null, row.syntax);
    }
    elementRows.push(row);
  }
  for (const row of elementRows) rows.push(row);
  return null;
}
