/**
 * One JSON record under a parse mode: the part `from_json` and the JSON lines reader share.
 *
 * A record is malformed when its text is not JSON or its value does not fit the schema. What
 * happens then depends on the parse mode, as in Spark:
 * - PERMISSIVE (the default): the record becomes a row of nulls, keeping the top-level fields that
 *   did fit, with the record's text in the corrupt-record column when the schema has that column;
 * - DROPMALFORMED: the record is dropped and counted;
 * - FAILFAST: the query fails with an ExecutionError that quotes the record and says what is wrong.
 */
import { ExecutionError, InvalidOptionError } from '../errors.js';
import { ArrayOf, type DataType, field, MapOf, struct, typeName } from '../types/data-types.js';
import type { Row } from '../types/row.js';
import { jsonSyntaxError, standardJsonText } from './json-inference.js';
import { MAX_JSON_NESTING_DEPTH, tooDeepAt } from './json-nesting.js';
import {
  isLenient,
  type JsonSyntax,
  type JsonSyntaxOptions,
  resolveJsonSyntax,
  STRICT_JSON,
} from './json-syntax.js';
import { isJsonObject, JsonTypeMismatch, type RowReader } from './json-value.js';

/** What a JSON reader does with a malformed record. */
export type ParseMode = 'PERMISSIVE' | 'DROPMALFORMED' | 'FAILFAST';

/** Options of every JSON reader: the parse mode, and the JSON syntax (see json-syntax.ts). */
export interface JsonParseOptions extends JsonSyntaxOptions {
  /** What to do with a malformed record (case-insensitive). @default 'PERMISSIVE' */
  readonly mode?: ParseMode;
  /** The string field that receives a malformed record's text in PERMISSIVE mode. @default '_corrupt_record' */
  readonly columnNameOfCorruptRecord?: string;
}

/** JsonParseOptions, validated and with their defaults applied. */
export interface ResolvedJsonParseOptions {
  readonly mode: ParseMode;
  readonly columnNameOfCorruptRecord: string;
  readonly syntax: JsonSyntax;
}

const MODES: readonly string[] = ['PERMISSIVE', 'DROPMALFORMED', 'FAILFAST'];
const BLANK = /^[ \t\r\n]*$/;

/** Validates JSON parse options; `caller` names the API in the InvalidOptionError. */
export function resolveJsonParseOptions(
  options: JsonParseOptions | undefined,
  caller: string,
): ResolvedJsonParseOptions {
  const mode = String(options?.mode ?? 'PERMISSIVE').toUpperCase();
  if (!MODES.includes(mode)) {
    throw new InvalidOptionError(
      `${caller}: mode '${options?.mode}' is not a parse mode; use 'PERMISSIVE' (the default), 'DROPMALFORMED' or 'FAILFAST'.`,
    );
  }
  const column: unknown = options?.columnNameOfCorruptRecord ?? '_corrupt_record';
  if (typeof column !== 'string' || column === '') {
    throw new InvalidOptionError(
      `${caller}: columnNameOfCorruptRecord must be a non-empty field name, got ${JSON.stringify(column)}.`,
    );
  }
  const syntax = resolveJsonSyntax(options, caller);
  return { mode: mode as ParseMode, columnNameOfCorruptRecord: column, syntax };
}

/**
 * The position of the corrupt-record column in `schema`, or -1 when it has none. Throws an
 * InvalidOptionError naming `caller` when that field is not a string, since it holds the record's text.
 */
export function corruptRecordIndex(schema: DataType, column: string, caller: string): number {
  if (schema.kind !== 'struct') return -1;
  const index = schema.fields.findIndex((f) => f.name === column);
  if (index >= 0 && schema.fields[index].dataType.kind !== 'string') {
    throw new InvalidOptionError(
      `${caller}: the corrupt-record column '${column}' must be a string, but the schema makes it ${typeName(schema.fields[index].dataType)}. Change its type, or name another column with columnNameOfCorruptRecord.`,
    );
  }
  return index;
}

/** `t` with every field, element and map value nullable, since JSON can leave out or null any of them. */
export function asNullable<T extends DataType>(t: T): T {
  switch (t.kind) {
    case 'struct':
      return struct(
        t.fields.map((f) => field(f.name, asNullable(f.dataType), true, f.metadata)),
      ) as T;
    case 'array':
      return ArrayOf(asNullable(t.elementType)) as T;
    case 'map':
      return MapOf(t.keyType, asNullable(t.valueType)) as T;
    default:
      return t;
  }
}

/** A record that is not JSON or does not fit the schema. */
export class MalformedRecord {
  /** The record's text. */
  readonly text: string;
  /** How the value does not fit the schema; null when the text is not JSON. */
  readonly mismatch: JsonTypeMismatch | null;
  /** The row without its bad top-level fields, when the record is an object. */
  readonly partial: Row | null;
  /** The syntax the text was read with, to say where it is not JSON. */
  readonly syntax: JsonSyntax;

  constructor(
    text: string,
    mismatch: JsonTypeMismatch | null,
    partial: Row | null,
    syntax: JsonSyntax = STRICT_JSON,
  ) {
    this.text = text;
    this.mismatch = mismatch;
    this.partial = partial;
    this.syntax = syntax;
  }

  /** What is wrong, quoting the record's start: `'{"a":}' is not valid JSON: unexpected '}' at position 5`. */
  describe(): string {
    const quoted = `'${this.text.length > 100 ? `${this.text.slice(0, 100)}...` : this.text}'`;
    if (this.mismatch) return `${quoted} does not match the schema: ${this.mismatch.describe()}`;
    // Located here, on the failure path only, since JSON.parse does not always say where.
    const error = jsonSyntaxError(this.text, this.syntax);
    const offset = error?.offset ?? 0;
    if (error?.reason === 'too-deep') {
      return `${quoted} nests deeper than ${MAX_JSON_NESTING_DEPTH} levels at position ${offset}, more than Spark's JSON reader allows`;
    }
    const found = offset < this.text.length ? `'${this.text[offset]}'` : 'end of input';
    return `${quoted} is not valid JSON: unexpected ${found} at position ${offset}`;
  }
}

/** True for text with nothing but JSON whitespace: no record at all, which Spark skips. */
export function isBlankRecord(text: string): boolean {
  return BLANK.test(text);
}

/**
 * Parses one record's text, JSON of `syntax`: its JSON value, a MalformedRecord (also for a record
 * nested deeper than MAX_JSON_NESTING_DEPTH), or undefined when the text is blank. Standard JSON
 * takes the fast path of `JSON.parse`; only text it refuses is scanned for the extensions.
 */
export function parseJsonText(text: string, syntax: JsonSyntax = STRICT_JSON): unknown {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    if (isBlankRecord(text)) return undefined;
    const standard = isLenient(syntax) ? standardJsonText(text, syntax) : undefined;
    return standard === undefined
      ? new MalformedRecord(text, null, null, syntax)
      : (JSON.parse(standard) as unknown); // the scanner also refused nesting too deep
  }
  return tooDeepAt(text) >= 0 ? new MalformedRecord(text, null, null, syntax) : json;
}

/** Reads a parsed top-level record into a row, or into a MalformedRecord that keeps the fields that fit. */
export function readRootRow(json: unknown, reader: RowReader, text: string): Row | MalformedRecord {
  try {
    return reader.read(json);
  } catch (e) {
    if (!(e instanceof JsonTypeMismatch)) throw e;
    return new MalformedRecord(text, e, isJsonObject(json) ? reader.readPartial(json) : null);
  }
}

/** The row PERMISSIVE mode makes of a malformed record: its partial row or nulls, and its text in the corrupt-record column. */
export function permissiveRow(
  malformed: MalformedRecord,
  width: number,
  corruptIndex: number,
): Row {
  const row = malformed.partial ?? new Array<unknown>(width).fill(null);
  if (corruptIndex >= 0) row[corruptIndex] = malformed.text;
  return row;
}

/** The FAILFAST error for a malformed record; `where` says which record (`from_json()`, `events.jsonl line 3`). */
export function malformedRecordError(where: string, malformed: MalformedRecord): ExecutionError {
  return new ExecutionError(
    `Malformed JSON record in ${where}: ${malformed.describe()}. Fix the input, or set mode 'PERMISSIVE' (malformed records become nulls) or 'DROPMALFORMED' (they are dropped) to tolerate bad records.`,
    { cause: malformed.mismatch ?? undefined },
  );
}
