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
 * JsonSchemaInference and JsonLinesReader take one line at a time, so a file can be read as a stream
 * of lines (see file-bytes.ts); parseJsonLines reads text already in memory.
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
  const lines = text.split('\n');
  let schema = options.schema;
  if (!schema) {
    const inference = new JsonSchemaInference(options);
    for (const line of lines) inference.add(line);
    schema = inference.schema();
  }
  const reader = new JsonLinesReader(schema, options);
  for (const line of lines) reader.add(line);
  return reader.result();
}

/** Renders rows of `schema` as JSON lines, as Spark's JSON writer does. */
export function formatJsonLines(rows: readonly Row[], schema: StructType): string {
  const write = compileJsonWriter(schema);
  let out = '';
  for (const row of rows) out += `${write(row)}\n`;
  return out;
}

/**
 * The schema of JSON lines, inferred one line at a time, so that lines can come from a stream:
 * the union of the records' fields, plus the corrupt-record column in PERMISSIVE mode when a
 * record is malformed.
 */
export class JsonSchemaInference {
  private readonly parse: ResolvedJsonParseOptions;
  private merged = struct([]);
  private malformed = false;

  constructor(options: JsonParseOptions & { readonly source?: string } = {}) {
    this.parse = resolveJsonParseOptions(options, `Reading ${options.source ?? 'JSON input'}`);
  }

  /** Adds the record of one line. */
  add(line: string): void {
    let t = inferJsonType(line, this.parse.syntax);
    if (t === null) {
      this.malformed ||= !isBlankRecord(line);
      return;
    }
    while (t.kind === 'array') t = t.elementType; // each element of a top-level array is a record
    if (t.kind === 'struct') this.merged = mergeJsonTypes(this.merged, t);
    else if (t.kind !== 'null') this.malformed = true; // Spark ignores null records when inferring
  }

  /** The schema of the lines added so far. */
  schema(): StructType {
    let schema = this.merged;
    if (this.malformed && this.parse.mode === 'PERMISSIVE') {
      const corrupt = struct([field(this.parse.columnNameOfCorruptRecord, StringType)]);
      schema = mergeJsonTypes(schema, corrupt);
    }
    return finishInferredSchema(schema);
  }
}

/** Reads JSON lines into rows one line at a time, so that lines can come from a stream. */
export class JsonLinesReader {
  private readonly schema: StructType;
  private readonly parse: ResolvedJsonParseOptions;
  private readonly source: string;
  private readonly corruptIndex: number;
  private readonly reader: RowReader;
  private readonly rows: Row[] = [];
  private malformed = 0;
  private lineNumber = 0;

  /** Throws an InvalidOptionError for a bad option or a schema JSON cannot be read into. */
  constructor(schema: StructType, options: JsonLinesOptions = {}) {
    this.source = options.source ?? 'JSON input';
    this.parse = resolveJsonParseOptions(options, `Reading ${this.source}`);
    this.schema = asNullable(schema);
    const column = this.parse.columnNameOfCorruptRecord;
    this.corruptIndex = corruptRecordIndex(this.schema, column, `Reading ${this.source}`);
    this.reader = compileRowReader(this.schema, this.corruptIndex >= 0 ? column : undefined);
  }

  /**
   * Reads the next line. Throws an ExecutionError naming the source and line for a malformed
   * record in FAILFAST mode.
   */
  add(text: string): void {
    this.lineNumber++;
    const line = withoutCarriageReturn(text);
    const json = parseJsonText(line, this.parse.syntax);
    if (json === undefined) return;
    const bad =
      json instanceof MalformedRecord ? json : appendRows(json, this.reader, line, this.rows);
    if (bad === null) return;
    this.malformed++;
    if (this.parse.mode === 'FAILFAST') {
      throw malformedRecordError(`${this.source} line ${this.lineNumber}`, bad);
    }
    if (this.parse.mode === 'PERMISSIVE') {
      this.rows.push(permissiveRow(bad, this.schema.fields.length, this.corruptIndex));
    }
  }

  /** The rows of the lines read so far. */
  result(): JsonLines {
    return { schema: this.schema, rows: this.rows, malformed: this.malformed };
  }
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
