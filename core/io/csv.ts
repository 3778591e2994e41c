/**
 * CSV text as Spark's CSV data source reads and writes it, with Spark's defaults: no header, columns
 * `_c0, _c1, ...`, all strings unless `inferSchema`, `\` as the escape character inside quotes, an
 * empty field is NULL, and blank lines are skipped. Quoted fields may contain the delimiter and line
 * breaks (Spark's `multiLine` reading). Input is read chunk by chunk, one record at a time
 * (see csv-tokenizer.ts), so a file of any length reads within maxRecordBytes per record.
 *
 * A record is malformed when its field count differs from the schema's, when a field does not convert
 * to its column's type, when a non-nullable column is empty, or when the tokenizer rejects it (an
 * unclosed quote). The mode decides what happens to it: PERMISSIVE keeps the fields that did convert,
 * sets the others to NULL and puts the record's text in the corrupt-record column if the schema has one;
 * DROPMALFORMED drops it; FAILFAST throws. `malformed` counts such records in every mode.
 */
import { AnalysisError, ExecutionError, InvalidOptionError } from '../errors.js';
import { castFunction } from '../expr/cast.js';
import { type CsvRecord, CsvTokenizer, type CsvTokenSettings } from './csv-tokenizer.js';
import {
  BooleanType,
  type DataType,
  DoubleType,
  field,
  IntegerType,
  LongType,
  NullType,
  StringType,
  struct,
  type StructField,
  type StructType,
  TimestampType,
  typeName,
} from '../types/data-types.js';
import type { Row } from '../types/row.js';
import {
  formatDate,
  formatIsoInstant,
  parseDate,
  parseTimestamp,
} from '../types/timestamp-text.js';

/** What the reader does with a malformed record. */
export type CsvParseMode = 'PERMISSIVE' | 'DROPMALFORMED' | 'FAILFAST';

/** Options of {@link parseCsv}, named as Spark's CSV reader names them. */
export interface CsvReadOptions {
  /** The columns, applied by position; without it the columns come from the first record. */
  readonly schema?: StructType;
  /** Whether the first record holds the column names (skipped when a schema is given). @default false */
  readonly header?: boolean;
  /** The field separator, one or more characters. @default ',' */
  readonly delimiter?: string;
  /** The quote character; `''` turns quoting off. @default '"' */
  readonly quote?: string;
  /** The character that escapes a quote inside a quoted field; `'"'` reads RFC 4180 `""`. @default '\\' */
  readonly escape?: string;
  /** Whether to infer int, long, double, boolean and timestamp columns (one extra pass). @default false */
  readonly inferSchema?: boolean;
  /** What to do with malformed records. @default 'PERMISSIVE' */
  readonly mode?: CsvParseMode;
  /** The text that stands for NULL (an unquoted empty field is always NULL). @default '' */
  readonly nullValue?: string;
  /** The string column of `schema` that receives a malformed record's text. @default '_corrupt_record' */
  readonly columnNameOfCorruptRecord?: string;
  /** The input's name (a file path), for error messages. @default 'CSV input' */
  readonly source?: string;
  /** The longest record, in bytes. @default DEFAULT_MAX_RECORD_BYTES */
  readonly maxRecordBytes?: number;
}

/** The result of {@link parseCsv}. */
export interface CsvReadResult {
  /** The schema of `rows`: the given one, or the inferred one (every field nullable). */
  readonly schema: StructType;
  /** Engine rows in schema order. */
  readonly rows: Row[];
  /** The number of malformed records, whatever the mode did with them. */
  readonly malformed: number;
}

/** Options of {@link formatCsv}, named as Spark's CSV writer names them. */
export interface CsvWriteOptions {
  /** Whether to write the column names as the first line. @default false */
  readonly header?: boolean;
  /** The field separator. @default ',' */
  readonly delimiter?: string;
  /** The quote character. @default '"' */
  readonly quote?: string;
  /** The character written before a quote (and before itself) inside a quoted field. @default '\\' */
  readonly escape?: string;
  /** The text written for NULL. @default '' */
  readonly nullValue?: string;
}

const DEFAULT_SOURCE = 'CSV input';
const MODES: readonly CsvParseMode[] = ['PERMISSIVE', 'DROPMALFORMED', 'FAILFAST'];
const INT_MIN = -2147483648;
const INT_MAX = 2147483647;
const INTEGER = /^[+-]?\d+$/;
const BOOLEAN = /^(true|false)$/i;
const DECIMAL_NUMBER = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[dDfF]?\s*$/;
const SPECIAL_DOUBLES = new Map([
  ['NaN', NaN],
  ['Inf', Infinity],
  ['+Inf', Infinity],
  ['-Inf', -Infinity],
  ['Infinity', Infinity],
  ['+Infinity', Infinity],
  ['-Infinity', -Infinity],
]);

/**
 * Parses CSV text into engine rows with Spark's CSV reader semantics (see the module doc); without a
 * schema, the schema comes from the same text (see {@link CsvSchemaInference}). Throws as
 * {@link CsvReader} does.
 */
export function parseCsv(text: string, options: CsvReadOptions = {}): CsvReadResult {
  const bytes = Buffer.from(text, 'utf8');
  let schema = options.schema;
  if (!schema) {
    const inference = new CsvSchemaInference(options);
    inference.addFile(options.source ?? DEFAULT_SOURCE, [bytes]);
    schema = inference.schema();
  }
  const reader = new CsvReader(schema, options);
  reader.add(bytes);
  return reader.result();
}

/**
 * Reads one CSV input chunk by chunk into rows of `schema` (applied by position), holding one record
 * at a time besides the rows. Throws InvalidOptionError for a bad option, AnalysisError for a schema
 * CSV cannot hold, ExecutionError naming the source and line for the first malformed record in
 * FAILFAST mode, and InputLimitError for a record longer than maxRecordBytes, in every mode.
 */
export class CsvReader {
  private readonly settings: ReadSettings;
  private readonly plan: ReadPlan;
  private readonly tokenizer: CsvTokenizer;
  private readonly rows: Row[] = [];
  private malformed = 0;
  private headerPending: boolean;

  constructor(schema: StructType, options: CsvReadOptions = {}) {
    this.settings = readSettings(options);
    this.plan = readPlan(schema, this.settings);
    this.tokenizer = new CsvTokenizer(this.settings);
    this.headerPending = this.settings.header;
  }

  /** Reads the records `chunk` completes; a record may continue in the next chunk. */
  add(chunk: Uint8Array): void {
    for (const record of this.tokenizer.push(chunk)) this.addRecord(record);
  }

  /** Ends the input and returns its rows. */
  result(): CsvReadResult {
    for (const record of this.tokenizer.end()) this.addRecord(record);
    return { schema: this.plan.schema, rows: this.rows, malformed: this.malformed };
  }

  private addRecord(record: CsvRecord): void {
    if (this.headerPending) {
      this.headerPending = false;
      return;
    }
    const { row, problem } = convertRecord(record, this.plan, this.settings.nullValue);
    if (problem === undefined) {
      this.rows.push(row);
      return;
    }
    this.malformed++;
    if (this.settings.mode === 'FAILFAST') {
      throw new ExecutionError(
        `Malformed CSV record in ${this.settings.source} at line ${record.line}: ${problem}. Fix the record, or read with mode PERMISSIVE (keeps it with nulls) or DROPMALFORMED (skips it).`,
      );
    }
    if (this.settings.mode === 'PERMISSIVE') {
      if (this.plan.corruptIndex >= 0) row[this.plan.corruptIndex] = record.raw;
      this.rows.push(row);
    }
  }
}

/**
 * The schema of CSV inputs, as Spark infers it: column names from the first file's header (or
 * `_c<i>` for the first well-formed record's fields), all strings unless `inferSchema`, which types
 * each column from every record of every file (each file's header skipped). Reads records one at a
 * time; without `inferSchema` it stops after the first record it needs.
 */
export class CsvSchemaInference {
  private readonly settings: ReadSettings;
  private names: string[] | undefined;
  private types: DataType[] = [];

  constructor(options: CsvReadOptions = {}) {
    this.settings = readSettings(options);
  }

  /** Whether another file can still change the schema. */
  get wantsMore(): boolean {
    return this.names === undefined || this.settings.inferSchema;
  }

  /** Reads the chunks of the input `source` (a file path, for error messages). */
  addFile(source: string, chunks: Iterable<Uint8Array>): void {
    let first = true;
    for (const record of csvRecords(chunks, { ...this.settings, source })) {
      const isHeader = first && this.settings.header;
      first = false;
      if (isHeader || record.fields !== null) this.name(record, isHeader);
      if (!this.wantsMore) return;
      if (!isHeader && record.fields !== null) this.widen(record.fields);
    }
  }

  /** The inferred schema; every field nullable. */
  schema(): StructType {
    const names = this.names ?? [];
    return struct(
      names.map((name, i) =>
        field(name, this.types[i].kind === 'null' ? StringType : this.types[i]),
      ),
    );
  }

  private name(record: CsvRecord, fromHeader: boolean): void {
    if (this.names !== undefined) return;
    this.names = safeHeader(record.fields ?? [], fromHeader);
    const type = this.settings.inferSchema ? NullType : StringType;
    this.types = this.names.map(() => type);
  }

  private widen(fields: readonly (string | null)[]): void {
    const { types } = this;
    for (let i = 0; i < types.length && i < fields.length; i++) {
      const text = fields[i];
      if (text !== null && text !== '' && text !== this.settings.nullValue) {
        types[i] = widerType(types[i], inferValueType(text));
      }
    }
  }
}

/** The records of an input read chunk by chunk. */
function* csvRecords(
  chunks: Iterable<Uint8Array>,
  settings: CsvTokenSettings,
): Generator<CsvRecord> {
  const tokenizer = new CsvTokenizer(settings);
  for (const chunk of chunks) yield* tokenizer.push(chunk);
  yield* tokenizer.end();
}

/**
 * Formats engine rows of `schema` as CSV text the way Spark's CSV writer does: a value is quoted when
 * it contains the delimiter, the quote or a line break; an empty string is
 * written `""` so that it differs from NULL; timestamps are ISO 8601 in UTC with milliseconds
 * (Spark's default `timestampFormat`); every line ends with `\n`.
 */
export function formatCsv(
  rows: readonly Row[],
  schema: StructType,
  options: CsvWriteOptions = {},
): string {
  const settings = writeSettings(options);
  const formatters = schema.fields.map((f) => valueFormatter(f));
  const lines: string[] = [];
  if (settings.header) {
    lines.push(schema.fields.map((f) => quoteIfNeeded(f.name, settings)).join(settings.delimiter));
  }
  for (const row of rows) {
    const cells = formatters.map((format, i) => formatCell(row[i], format, settings));
    lines.push(cells.join(settings.delimiter));
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

interface ReadSettings {
  readonly header: boolean;
  readonly delimiter: string;
  readonly quote: string;
  readonly escape: string;
  readonly inferSchema: boolean;
  readonly mode: CsvParseMode;
  readonly nullValue: string;
  readonly corruptColumn: string;
  readonly source: string;
  readonly maxRecordBytes?: number;
}

function readSettings(options: CsvReadOptions): ReadSettings {
  const mode = options.mode ?? 'PERMISSIVE';
  if (!MODES.includes(mode)) {
    throw new InvalidOptionError(
      `Invalid CSV option mode '${String(mode)}': use one of ${MODES.join(', ')}.`,
    );
  }
  return {
    header: options.header ?? false,
    ...tokenSettings(options),
    inferSchema: options.inferSchema ?? false,
    mode,
    nullValue: options.nullValue ?? '',
    corruptColumn: options.columnNameOfCorruptRecord ?? '_corrupt_record',
    source: options.source ?? DEFAULT_SOURCE,
    maxRecordBytes: options.maxRecordBytes,
  };
}

interface WriteSettings {
  readonly header: boolean;
  readonly delimiter: string;
  readonly quote: string;
  readonly escape: string;
  readonly nullValue: string;
}

function writeSettings(options: CsvWriteOptions): WriteSettings {
  const tokens = tokenSettings(options);
  if (tokens.quote === '') {
    throw new InvalidOptionError(
      "Invalid CSV option quote '': the writer needs a quote character to write values that contain the delimiter; omit the option for '\"'.",
    );
  }
  return { header: options.header ?? false, ...tokens, nullValue: options.nullValue ?? '' };
}

function tokenSettings(options: CsvReadOptions | CsvWriteOptions): {
  delimiter: string;
  quote: string;
  escape: string;
} {
  const delimiter = options.delimiter ?? ',';
  const quote = options.quote ?? '"';
  const escape = options.escape ?? '\\';
  if (delimiter === '' || /[\r\n]/.test(delimiter)) {
    throw new InvalidOptionError(
      `Invalid CSV option delimiter '${delimiter}': use one or more characters other than line breaks, such as ',' or '\\t'.`,
    );
  }
  if (quote.length > 1) {
    throw new InvalidOptionError(
      `Invalid CSV option quote '${quote}': use a single character, or '' to turn quoting off.`,
    );
  }
  if (escape.length !== 1) {
    throw new InvalidOptionError(
      `Invalid CSV option escape '${escape}': use a single character, such as '\\\\' or '"'.`,
    );
  }
  return { delimiter, quote, escape };
}

/** Spark's header cleanup: an empty name becomes `_c<i>`, a duplicated name gets its index appended. */
function safeHeader(fields: readonly (string | null)[], fromHeader: boolean): string[] {
  if (!fromHeader) return fields.map((_, i) => `_c${i}`);
  const counts = new Map<string, number>();
  for (const name of fields) {
    if (name) counts.set(name.toLowerCase(), (counts.get(name.toLowerCase()) ?? 0) + 1);
  }
  return fields.map((name, i) => {
    if (!name) return `_c${i}`;
    return (counts.get(name.toLowerCase()) ?? 0) > 1 ? `${name}${i}` : name;
  });
}

/** The narrowest type of one value, tried in Spark's order. */
function inferValueType(text: string): DataType {
  if (INTEGER.test(text)) {
    const n = Number(text);
    if (n >= INT_MIN && n <= INT_MAX) return IntegerType;
    // Spark infers a decimal beyond long's range; Sluice has none, and its long stops at 2^53.
    return Number.isSafeInteger(n) ? LongType : DoubleType;
  }
  if (parseDouble(text) !== undefined) return DoubleType;
  if (parseTimestamp(text) !== null) return TimestampType;
  if (BOOLEAN.test(text)) return BooleanType;
  return StringType;
}

/** Spark's type merge for CSV inference: numbers widen, anything else mixed becomes a string. */
function widerType(a: DataType, b: DataType): DataType {
  if (a.kind === 'null' || a.kind === b.kind) return b;
  if (b.kind === 'null') return a;
  const rank = (t: DataType): number => ['int', 'long', 'double'].indexOf(t.kind);
  if (rank(a) >= 0 && rank(b) >= 0) return rank(a) > rank(b) ? a : b;
  return StringType;
}

/** Java's `Double.parseDouble` for decimal text plus Spark's `NaN`/`Inf` spellings, or undefined. */
function parseDouble(text: string): number | undefined {
  const special = SPECIAL_DOUBLES.get(text.trim());
  if (special !== undefined) return special;
  return DECIMAL_NUMBER.test(text) ? Number(text.trim().replace(/[dDfF]$/, '')) : undefined;
}

/** Converts one non-null field, or returns an Unparsable saying what the text should have been. */
type FieldParser = (text: string) => unknown;

/** Marks a field that did not convert; the message says what was expected. */
class Unparsable {
  constructor(readonly expected: string) {}
}

interface ReadPlan {
  readonly schema: StructType;
  /** For each data column (the schema without the corrupt-record column): its position and parser. */
  readonly columns: readonly {
    readonly index: number;
    readonly field: StructField;
    readonly parse: FieldParser;
  }[];
  readonly corruptIndex: number;
}

function readPlan(schema: StructType, settings: ReadSettings): ReadPlan {
  const corruptIndex = schema.fields.findIndex((f) => f.name === settings.corruptColumn);
  if (corruptIndex >= 0) requireCorruptColumn(schema.fields[corruptIndex]);
  const columns = schema.fields.flatMap((f, index) =>
    index === corruptIndex ? [] : [{ index, field: f, parse: fieldParser(f) }],
  );
  return { schema, columns, corruptIndex };
}

function requireCorruptColumn(f: StructField): void {
  if (f.dataType.kind !== 'string' || !f.nullable) {
    throw new AnalysisError(
      `The corrupt-record column '${f.name}' must be a nullable string; declare it as '${f.name} STRING' or rename it with columnNameOfCorruptRecord.`,
    );
  }
}

function fieldParser(f: StructField): FieldParser {
  switch (f.dataType.kind) {
    case 'string':
      return (text) => text;
    case 'int':
      return (text) => parseIntegral(text, INT_MIN, INT_MAX, 'an integer');
    case 'long':
      return (text) =>
        parseIntegral(
          text,
          Number.MIN_SAFE_INTEGER,
          Number.MAX_SAFE_INTEGER,
          'a long in the safe integer range',
        );
    case 'double':
      return (text) => parseDouble(text) ?? new Unparsable('a double');
    case 'boolean':
      return (text) =>
        BOOLEAN.test(text) ? text.toLowerCase() === 'true' : new Unparsable('true or false');
    case 'timestamp':
      return (text) => parseTimestamp(text) ?? new Unparsable('a timestamp (yyyy-MM-dd HH:mm:ss)');
    case 'date':
      return (text) => parseDate(text) ?? new Unparsable('a date (yyyy-MM-dd)');
    default:
      throw new AnalysisError(
        `CSV data source does not support ${typeName(f.dataType)} (column '${f.name}'); use a string column and parse it with an expression.`,
      );
  }
}

function parseIntegral(text: string, min: number, max: number, expected: string): unknown {
  if (!INTEGER.test(text)) return new Unparsable(expected);
  const n = Number(text);
  return n >= min && n <= max ? n : new Unparsable(expected);
}

/** Converts the fields that can be converted (Spark's partial result) and reports the first problem. */
function convertRecord(
  record: CsvRecord,
  plan: ReadPlan,
  nullValue: string,
): { row: Row; problem?: string } {
  const row: Row = new Array<unknown>(plan.schema.fields.length).fill(null);
  const { fields } = record;
  if (fields === null) {
    return { row, problem: record.problem ?? 'the record could not be tokenized' };
  }
  let problem =
    fields.length === plan.columns.length
      ? undefined
      : `expected ${plan.columns.length} fields but found ${fields.length}`;
  for (let i = 0; i < plan.columns.length && i < fields.length; i++) {
    const { index, field: f, parse: parseField } = plan.columns[i];
    const text = fields[i];
    if (text === null || text === nullValue) {
      if (!f.nullable) problem ??= `column '${f.name}' is not nullable but the field is empty`;
      continue;
    }
    const value = parseField(text);
    if (value instanceof Unparsable) {
      problem ??= `'${text}' is not ${value.expected} (column '${f.name}')`;
    } else {
      row[index] = value;
    }
  }
  return { row, problem };
}

type ValueFormatter = (value: unknown) => string;

function valueFormatter(f: StructField): ValueFormatter {
  switch (f.dataType.kind) {
    case 'timestamp':
      return (v) => formatIsoInstant(v as number);
    case 'date':
      return (v) => formatDate(v as number);
    case 'string':
    case 'int':
    case 'long':
    case 'double':
    case 'boolean':
      return castFunction(f.dataType, StringType) as ValueFormatter;
    default:
      throw new AnalysisError(
        `CSV data source does not support ${typeName(f.dataType)} (column '${f.name}'); convert it to a string first, for example with to_json.`,
      );
  }
}

function formatCell(value: unknown, format: ValueFormatter, settings: WriteSettings): string {
  if (value === null || value === undefined) return settings.nullValue;
  const text = format(value);
  return text === '' ? settings.quote + settings.quote : quoteIfNeeded(text, settings);
}

function quoteIfNeeded(text: string, settings: WriteSettings): string {
  const { delimiter, quote, escape } = settings;
  const needsQuotes =
    text.includes(delimiter) || text.includes(quote) || text.includes('\n') || text.includes('\r');
  if (!needsQuotes) return text;
  // The reader treats the escape character as special only inside quotes, so only there is it doubled.
  const escaped =
    escape === quote
      ? text.replaceAll(quote, quote + quote)
      : text.replaceAll(escape, escape + escape).replaceAll(quote, escape + quote);
  return quote + escaped + quote;
}
