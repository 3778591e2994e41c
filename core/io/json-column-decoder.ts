/**
 * `from_json` over a whole column at once, decoding JSON texts straight into typed columns: the
 * projected decoder of the columnar engine. It gives exactly what `from_json` gives row by row
 * (values, malformed records, the parse mode's nulls, drops and errors) for a struct schema.
 *
 * The fast path scans each record's text, a string or its UTF-8 bytes (Kafka's binary `value`,
 * so `from_json(cast(value as string))` needs no string decode), without `JSON.parse` and without
 * building objects (a string record is scanned as its UTF-8 bytes, json-text-bytes.ts): numbers,
 * booleans, timestamps and dates go into typed arrays, strings into a dictionary while one pays
 * (a top-level string field whose values are nearly all distinct becomes a values column,
 * columnar/adaptive-string-builder.ts), and fields the query does not read are checked but not
 * built (they come out null).
 *
 * Within the fast path, a record of the shape the decoder learned (json-shape-decoder.ts: the
 * keys of a record it read, their order and the text around the values) is read by that shape,
 * which compares the text between values as bytes and reads each value by its field's type; any
 * other record is scanned key by key (json-column-plan.ts). The shape is kept from batch to batch,
 * and learned again from the next record scanned once RELEARN_AFTER_MISSES records in a row have
 * missed it.
 *
 * A record leaves the fast path, and is read by `from_json`'s own reader (JSON.parse and the
 * compiled reader of the schema, see json-text-reader.ts), when it is anything but standard JSON
 * that fits the schema, or when reading it in place would take more code than it is worth:
 * - text that is not standard JSON: malformed text, blank text, single-quoted strings and NaN or
 *   Infinity (allowed by the lenient options), a byte order mark, non-ASCII bytes outside strings;
 * - a value that does not fit its field, even one a repeated key replaces later (the record is
 *   malformed or not, as the general reading decides), and a JSON null as the whole record;
 * - a double field given a string (`"NaN"`, `"Infinity"`, which `from_json` reads as non-finite
 *   numbers), and a struct whose schema repeats a field name.
 * Keys and strings with escapes, and numbers beyond 15 digits or with a fraction or exponent,
 * stay on the fast path (decoded by `JSON.parse` and `Number` on the token alone). Binary, array
 * and map fields are checked by the scanner, then read by `JSON.parse` of their text alone: they
 * are values columns, built of engine values either way.
 */
import { AdaptiveStringBuilder } from '../columnar/adaptive-string-builder.js';
import { type Column, type StructColumn, valueAt } from '../columnar/column-batch.js';
import { type ColumnBuilder, columnBuilder } from '../columnar/column-builder.js';
import { nullColumn } from '../columnar/null-column.js';
import { ExecutionError } from '../errors.js';
import type { DataType, StructType } from '../types/data-types.js';
import type { Row } from '../types/row.js';
import { compileRecordPlan, type RecordPlan, RecordSlots } from './json-column-plan.js';
import {
  asNullable,
  corruptRecordIndex,
  MalformedRecord,
  type ResolvedJsonParseOptions,
} from './json-record.js';
import { learnRecordShape, type RecordShape, type ShapeField } from './json-shape-decoder.js';
import { JsonTextCursor, LeaveFastPath } from './json-text-cursor.js';
import { TextBytes } from './json-text-bytes.js';
import {
  compileJsonTextReader,
  DROP,
  type JsonTextReader,
  malformedHandler,
  type MalformedHandler,
} from './json-text-reader.js';
import { compileJsonReader } from './json-value.js';

/** A column of JSON records, decoded. */
export interface DecodedJsonColumn {
  /**
   * One struct per input row, of the decoder's `dataType`: null where the input is null or blank,
   * or where DROPMALFORMED dropped the record; fields the query does not read are null.
   */
  readonly column: StructColumn;
  /**
   * The input rows DROPMALFORMED dropped, in increasing order (empty in the other modes): the
   * operator removes them from its batch and counts them as `malformedRecords`, as it does for
   * rows `from_json` drops.
   */
  readonly dropped: Int32Array;
  /** The progress counter `from_json` adds to row by row: the records DROPMALFORMED dropped. */
  readonly malformedRecords: number;
  /** How many records left the fast path for `JSON.parse`; for benchmarks and tests, not for progress. */
  readonly generalRecords: number;
  /** How many records the decoder of the learned record shape read (json-shape-decoder.ts); for benchmarks and tests. */
  readonly shapeRecords: number;
}

/** Decodes columns of JSON texts for one `from_json` call. */
export interface JsonColumnDecoder {
  /** The type of the decoded column, `from_json`'s: the schema with every field nullable. */
  readonly dataType: StructType;
  /**
   * Decodes `input`: a values column of strings or of UTF-8 `Uint8Array`s (or of both), or a
   * dictionary column of strings; null rows give null. Only the rows `selected` marks with 1 are
   * read (every row when it is null): the others give null, are never dropped and cannot fail.
   * Throws `from_json`'s ExecutionError at the first malformed record in FAILFAST mode.
   */
  decode(input: Column, selected?: Uint8Array | null): DecodedJsonColumn;
}

/**
 * The decoder of `from_json(value, schema, options)` for a query that reads the top-level fields
 * named in `projection` (every field when it is omitted). Throws the InvalidOptionError
 * `from_json` throws for a schema it cannot read (a map whose keys are not strings, a corrupt-record
 * column that is not a string), and an ExecutionError when the projection names a field the
 * schema lacks.
 */
export function compileJsonColumnDecoder(
  schema: StructType,
  options: ResolvedJsonParseOptions,
  projection?: readonly string[],
): JsonColumnDecoder {
  compileJsonReader(schema);
  const corruptIndex = corruptRecordIndex(schema, options.columnNameOfCorruptRecord, 'from_json()');
  const corruptColumn = corruptIndex >= 0 ? options.columnNameOfCorruptRecord : undefined;
  const read = readFields(schema, projection);
  const shapeFields = schema.fields.map((f, i) => ({
    name: f.name,
    dataType: f.dataType,
    read: read.includes(i),
  }));
  return new ProjectedJsonDecoder(
    asNullable(schema),
    read,
    shapeFields,
    compileRecordPlan(schema, (i) => read.includes(i), corruptColumn),
    compileJsonTextReader(schema, options.syntax, corruptColumn),
    malformedHandler(schema, options.mode, corruptIndex),
  );
}

/** The indices of the fields the query reads, in schema order. */
function readFields(schema: StructType, projection: readonly string[] | undefined): number[] {
  const names = schema.fields.map((f) => f.name);
  if (projection === undefined) return names.map((_, i) => i);
  for (const name of projection) {
    if (!names.includes(name)) {
      throw new ExecutionError(
        `Internal error: the projection of from_json() names '${name}', which its schema (${names.join(', ')}) lacks.`,
      );
    }
  }
  return names.flatMap((name, i) => (projection.includes(name) ? [i] : []));
}

/** What one record became. */
type RecordOutcome = 'row' | 'null' | 'dropped';

/** UTF-8 decoding as `cast(binary as string)` does it, for the records the general reading takes. */
const utf8 = new TextDecoder();

/**
 * Records in a row that the shape must miss before the decoder learns the shape of the next record
 * it reads: a producer that changed its key order gets a new shape soon, and records of two
 * shapes mixed keep the first one.
 */
const RELEARN_AFTER_MISSES = 16;
/** Records whose shape cannot be learned (or does not read them), since a shape was last learned, before the decoder stops trying. */
const MAX_LEARNING_FAILURES = 16;

class ProjectedJsonDecoder implements JsonColumnDecoder {
  readonly dataType: StructType;
  private readonly read: readonly number[];
  private readonly shapeFields: readonly ShapeField[];
  private readonly plan: RecordPlan;
  private readonly readText: JsonTextReader;
  private readonly onMalformed: MalformedHandler;
  private readonly cursor = new JsonTextCursor();
  private readonly textBytes = new TextBytes();
  private readonly slots: RecordSlots;
  /** The shape learned from the records so far, kept across batches; null until one is learned. */
  private shape: RecordShape | null = null;
  /** Records the shape missed since it last read one. */
  private shapeMisses = 0;
  /** Records in a row whose shape could not be learned. */
  private learningFailures = 0;
  /** Records the shape read in the current `decode`. */
  private shapeRecords = 0;

  constructor(
    dataType: StructType,
    read: readonly number[],
    shapeFields: readonly ShapeField[],
    plan: RecordPlan,
    readText: JsonTextReader,
    onMalformed: MalformedHandler,
  ) {
    this.dataType = dataType;
    this.read = read;
    this.shapeFields = shapeFields;
    this.plan = plan;
    this.readText = readText;
    this.onMalformed = onMalformed;
    this.slots = new RecordSlots(plan.slotCount);
  }

  decode(input: Column, selected: Uint8Array | null = null): DecodedJsonColumn {
    const n = input.length;
    const fields = this.dataType.fields;
    const builders = this.read.map((f) => fieldBuilder(fields[f].dataType, n));
    const nulls = new NullRows(n);
    const dropped: number[] = [];
    let generalRecords = 0;
    this.shapeRecords = 0;
    for (let i = 0; i < n; i++) {
      const record = selected === null || selected[i] === 1 ? recordAt(input, i) : null;
      let outcome: RecordOutcome;
      if (record === null) {
        outcome = 'null';
      } else if (this.readFast(record)) {
        this.commitSlots(builders);
        outcome = 'row';
      } else {
        generalRecords++;
        outcome = this.readGeneral(record, builders);
      }
      if (outcome === 'row') continue;
      if (outcome === 'dropped') dropped.push(i);
      nulls.mark(i);
      for (const builder of builders) builder.appendNull();
    }
    const children = fields.map((f, i) => {
      const b = this.read.indexOf(i);
      return b >= 0 ? builders[b].finish() : nullColumn(f.dataType, n);
    });
    const column: StructColumn = { kind: 'struct', length: n, children, validity: nulls.finish() };
    return {
      column,
      dropped: Int32Array.from(dropped),
      malformedRecords: dropped.length,
      generalRecords,
      shapeRecords: this.shapeRecords,
    };
  }

  /**
   * Reads a record into the slots on the fast path, by its shape when it has the learned one;
   * false when it needs the general reading.
   */
  private readFast(record: string | Uint8Array): boolean {
    const textBytes = this.textBytes;
    if (typeof record !== 'string') {
      textBytes.copy(record);
    } else if (!textBytes.write(record)) {
      // a lone surrogate: the record has no UTF-8 bytes, so it is scanned as a string
      this.cursor.reset(record);
      return this.readByPlan();
    }
    const bytes = textBytes.bytes;
    const end = textBytes.length;
    const shape = this.shape;
    if (shape !== null) {
      if (shape.decode(textBytes.view, bytes, 0, end, this.slots)) {
        this.shapeRecords++;
        this.shapeMisses = 0;
        return true;
      }
      this.shapeMisses++;
    }
    this.cursor.resetBytes(bytes, 0, end);
    if (!this.readByPlan()) return false;
    if (
      shape === null
        ? this.learningFailures < MAX_LEARNING_FAILURES
        : this.shapeMisses >= RELEARN_AFTER_MISSES
    ) {
      this.learnShape(bytes, end);
    }
    return true;
  }

  /** Reads the record at the cursor with the plan (the general fast path); false when it needs the general reading. */
  private readByPlan(): boolean {
    try {
      this.plan.decode(this.cursor, this.slots);
      return true;
    } catch (e) {
      if (e instanceof LeaveFastPath) return false;
      throw e;
    }
  }

  /** Learns the shape of a record the plan has read, keeping the shape it had when it cannot. */
  private learnShape(bytes: Uint8Array, end: number): void {
    const learned = learnRecordShape(this.plan, this.shapeFields, bytes, 0, end);
    this.shapeMisses = 0;
    if (learned === null) {
      this.learningFailures++;
      return;
    }
    this.shape = learned;
    this.learningFailures = 0;
  }

  private commitSlots(builders: readonly ColumnBuilder[]): void {
    const fields = this.plan.fields;
    for (let b = 0; b < builders.length; b++) fields[this.read[b]].commit(this.slots, builders[b]);
  }

  /** Reads a record as `from_json` does, appending its row; says when there is none. */
  private readGeneral(
    record: string | Uint8Array,
    builders: readonly ColumnBuilder[],
  ): RecordOutcome {
    const text = typeof record === 'string' ? record : utf8.decode(record);
    let value = this.readText(text);
    if (value instanceof MalformedRecord) value = this.onMalformed(value);
    if (value === DROP) return 'dropped';
    if (value === null) return 'null';
    const row = value as Row;
    for (let b = 0; b < builders.length; b++) builders[b].append(row[this.read[b]]);
    return 'row';
  }
}

/**
 * The builder of a top-level field's column: a string field keeps a dictionary only while it pays
 * (a grouping key), and becomes a values column when its strings are nearly all distinct.
 */
function fieldBuilder(t: DataType, n: number): ColumnBuilder {
  return t.kind === 'string' ? new AdaptiveStringBuilder(n) : columnBuilder(t, n);
}

/** Row `i` of the input: its text or bytes, or null. */
function recordAt(input: Column, i: number): string | Uint8Array | null {
  const value = input.kind === 'values' ? input.values[i] : valueAt(input, i);
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || value instanceof Uint8Array) return value;
  throw new ExecutionError(
    `Internal error: from_json() was given a ${input.kind} column whose row ${i} is neither text nor bytes.`,
  );
}

/** The validity bitmap of the decoded struct column, made only once a row is null. */
class NullRows {
  private bits: Uint8Array | null = null;
  private readonly length: number;

  constructor(length: number) {
    this.length = length;
  }

  mark(i: number): void {
    if (this.bits === null) {
      this.bits = new Uint8Array((this.length + 7) >> 3).fill(0xff);
      // bits past the last row are unset, as Arrow requires of padding
      const tail = this.length & 7;
      if (tail !== 0) this.bits[this.bits.length - 1] = (1 << tail) - 1;
    }
    this.bits[i >> 3] &= ~(1 << (i & 7));
  }

  finish(): Uint8Array | null {
    return this.bits;
  }
}
