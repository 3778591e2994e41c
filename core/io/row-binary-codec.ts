/**
 * A compact binary encoding of engine rows, directed by their schema (the idea of Avro's binary
 * encoding): both ends know the schema, so a value carries no field names and no type tags. The
 * repartition stage writes stage-1 rows in it, many to a Kafka record (a page of rows), and each
 * record's key columns as its own encoded row.
 *
 * Layout of an encoded row: the format version byte (1), then the row as a struct. A page of rows
 * is the version byte, the number of rows (4 bytes, little-endian: rows of a schema without fields
 * take no bytes), then each row's struct, one after the other.
 * - struct: a null bitmap (one bit per field, LSB first), then each non-null field in order;
 * - array: element count (varint), a null bitmap of the elements, then each non-null element;
 * - map: entry count, then each key (never null) followed by a null bit byte and the value;
 * - int, long, timestamp (microseconds), date (days): a signed varint of the integer: the first
 *   byte holds the sign (bit 0) and 6 bits of the magnitude, later bytes 7 bits each, bit 7 saying
 *   another byte follows. Exact over the whole safe-integer range, where zigzag in doubles is not;
 * - double: 8 bytes IEEE 754 little-endian (NaN, infinities and -0 survive);
 * - boolean: one byte; string: byte length then UTF-8; binary: length then the bytes;
 * - interval: months, days, microseconds as three signed varints; null type: nothing.
 *
 * Why not JSON: values are a third to a half the size (no names, numbers as varints), a timestamp
 * keeps its microseconds without string formatting, and binary needs no base64.
 */
import { SluiceError } from '../errors.js';
import type { DataType, StructType } from '../types/data-types.js';
import type { Row } from '../types/row.js';
import { JsonStringCache } from './json-string-cache.js';

/** The version byte every encoded row starts with. */
const FORMAT_VERSION = 1;

/** A value that does not fit its column's type, or bytes that are not an encoded row of the schema. */
export class RowEncodingError extends SluiceError {
  constructor(message: string) {
    super('ROW_ENCODING', message);
  }
}

/** Encodes `row` of `schema`. */
export function encodeRow(row: Row, schema: StructType): Uint8Array {
  return new ReusedRowEncoder(schema).encode(row).slice();
}

/** Decodes a row of `schema` that `encodeRow` wrote. */
export function decodeRow(bytes: Uint8Array, schema: StructType): Row {
  const input = versionedReader(bytes);
  const row = readStruct(input, schema, stringCaches(schema));
  if (!input.atEnd()) {
    throw new RowEncodingError(
      `an encoded row has ${bytes.length - input.position} bytes after its last field; the writer used another schema.`,
    );
  }
  return row;
}

/**
 * Encodes rows one at a time into one buffer it reuses, to hash keys without an allocation per row:
 * each result is the same bytes as encodeRow's, and valid only until the next call.
 */
export class ReusedRowEncoder {
  private readonly out = new ByteWriter();

  constructor(private readonly schema: StructType) {}

  /** `row`'s encoding, until the next call. */
  encode(row: Row): Uint8Array {
    this.out.length = 0;
    this.out.byte(FORMAT_VERSION);
    writeRow(this.out, row, this.schema);
    return this.out.written();
  }
}

/**
 * Encodes rows of one schema into one page, one after another (module doc): one value to send and
 * to read, where rows encoded alone are one each.
 */
export class RowPageEncoder {
  private readonly out = new ByteWriter();
  private rows = 0;

  constructor(private readonly schema: StructType) {
    this.out.byte(FORMAT_VERSION);
    this.out.uint32(0);
  }

  /** Appends `row`. */
  add(row: Row): void {
    writeRow(this.out, row, this.schema);
    this.rows++;
  }

  /** How many rows the page holds. */
  get rowCount(): number {
    return this.rows;
  }

  /** The page's size so far, in bytes. */
  get byteLength(): number {
    return this.out.length;
  }

  /** The page's bytes. */
  finish(): Uint8Array {
    const bytes = this.out.bytes();
    new DataView(bytes.buffer, bytes.byteOffset).setUint32(1, this.rows, true);
    return bytes;
  }
}

/** Decodes the rows of `schema` of a page RowPageEncoder wrote, in order. */
export function decodeRowPage(bytes: Uint8Array, schema: StructType): Row[] {
  const input = versionedReader(bytes);
  const count = input.uint32();
  const strings = stringCaches(schema);
  const rows: Row[] = [];
  for (let i = 0; i < count; i++) rows.push(readStruct(input, schema, strings));
  if (!input.atEnd()) {
    throw new RowEncodingError(
      `a page of ${count} encoded rows has ${bytes.length - input.position} bytes after its last row; the writer used another schema.`,
    );
  }
  return rows;
}

/** A string cache per top-level string field of `schema` (readStruct). */
function stringCaches(schema: StructType): JsonStringCache[] {
  return schema.fields.map(() => new JsonStringCache());
}

/** A reader positioned after the format version byte, which must be this version's. */
function versionedReader(bytes: Uint8Array): ByteReader {
  const input = new ByteReader(bytes);
  const version = input.byte();
  if (version !== FORMAT_VERSION) {
    throw new RowEncodingError(
      `an encoded row starts with format version ${version}, but this version of Sluice reads version ${FORMAT_VERSION}; run stage 1 and stage 2 on the same version.`,
    );
  }
  return input;
}

function writeStruct(out: ByteWriter, row: Row, type: StructType): void {
  const fields = type.fields;
  out.nullBitmap(row, fields.length);
  for (let i = 0; i < fields.length; i++) {
    const v = row[i];
    if (v === null || v === undefined) continue;
    try {
      writeValue(out, v, fields[i].dataType);
    } catch (e) {
      throw e instanceof ValueMismatch ? e.within(`.${fields[i].name}`) : e;
    }
  }
}

/**
 * Reads a struct's null bitmap and fields. Strings of a top-level field go through that field's
 * cache (`strings[i]`): a grouping key repeats few values, and decoding each again was most of a
 * page's decoding.
 */
function readStruct(
  input: ByteReader,
  type: StructType,
  strings: readonly JsonStringCache[] = [],
): Row {
  const fields = type.fields;
  const row: unknown[] = new Array(fields.length);
  // the writer puts the whole bitmap first: a byte for each 8 fields
  const bitmap = fields.length > 8 ? input.bitmapBytes(fields.length) : undefined;
  let nulls = bitmap ? 0 : fields.length > 0 ? input.byte() : 0;
  for (let i = 0; i < fields.length; i++) {
    if (bitmap && i % 8 === 0) nulls = bitmap[i >> 3];
    const dataType = fields[i].dataType;
    if ((nulls & (1 << (i % 8))) !== 0) row[i] = null;
    else if (dataType.kind === 'string') row[i] = input.text(strings[i]);
    else row[i] = readValue(input, dataType);
  }
  return row;
}

function writeValue(out: ByteWriter, v: unknown, type: DataType): void {
  switch (type.kind) {
    case 'struct':
      return writeStruct(out, v as Row, type);
    case 'array': {
      const items = v as unknown[];
      out.varint(items.length);
      out.nullBitmap(items, items.length);
      for (const item of items)
        if (item !== null && item !== undefined) writeValue(out, item, type.elementType);
      return;
    }
    case 'map': {
      const entries = [...(v as Map<unknown, unknown>)];
      out.varint(entries.length);
      for (const [key, value] of entries) {
        within(' key', () => writeValue(out, key, type.keyType));
        const isNull = value === null || value === undefined;
        out.byte(isNull ? 1 : 0);
        if (!isNull) within(' value', () => writeValue(out, value, type.valueType));
      }
      return;
    }
    case 'int':
    case 'long':
    case 'timestamp':
    case 'date':
      return out.varint(integer(v, type.kind));
    case 'double':
      return out.float64(v as number);
    case 'boolean':
      return out.byte(v ? 1 : 0);
    case 'string':
      return out.text(v as string);
    case 'binary':
      return out.blob(v as Uint8Array);
    case 'interval': {
      const i = v as { months: number; days: number; micros: number };
      out.varint(integer(i.months, 'interval months'));
      out.varint(integer(i.days, 'interval days'));
      return out.varint(integer(i.micros, 'interval micros'));
    }
    case 'null':
      return;
  }
}

function readValue(input: ByteReader, type: DataType): unknown {
  switch (type.kind) {
    case 'struct':
      return readStruct(input, type);
    case 'array': {
      const n = input.varint();
      const nulls = input.bitmap(n);
      return nulls.map((isNull) => (isNull ? null : readValue(input, type.elementType)));
    }
    case 'map': {
      const n = input.varint();
      const map = new Map<unknown, unknown>();
      for (let i = 0; i < n; i++) {
        const key = readValue(input, type.keyType);
        map.set(key, input.byte() === 1 ? null : readValue(input, type.valueType));
      }
      return map;
    }
    case 'int':
    case 'long':
    case 'timestamp':
    case 'date':
      return input.varint();
    case 'double':
      return input.float64();
    case 'boolean':
      return input.byte() === 1;
    case 'string':
      return input.text(undefined);
    case 'binary':
      return input.blob().slice();
    case 'interval':
      return { months: input.varint(), days: input.varint(), micros: input.varint() };
    case 'null':
      return null;
  }
}

function integer(v: unknown, kind: string): number {
  if (typeof v === 'number' && Number.isSafeInteger(v)) return v;
  throw new ValueMismatch(
    `holds ${String(v)}, which is no safe integer, but its type is ${kind}; the engine keeps ${kind} values as integers within ±(2^53 - 1).`,
  );
}

/**
 * A value that does not fit its type, on its way up to the row: each struct field and map key or
 * value it passes adds its part of the path, so that no path is built for the values that fit.
 */
class ValueMismatch extends Error {
  constructor(
    readonly detail: string,
    readonly path = '',
  ) {
    super(detail);
  }

  /** The same mismatch, `part` further from the row. */
  within(part: string): ValueMismatch {
    return new ValueMismatch(this.detail, part + this.path);
  }

  /** The error the caller sees, the path starting at `root`. */
  named(root: string): RowEncodingError {
    return new RowEncodingError(`${root}${this.path} ${this.detail}`);
  }
}

/** Runs `write`, adding `part` to the path of a mismatch it throws. */
function within(part: string, write: () => void): void {
  try {
    write();
  } catch (e) {
    throw e instanceof ValueMismatch ? e.within(part) : e;
  }
}

/** Writes `row` as a struct of `schema`; a value that does not fit is a RowEncodingError naming it. */
function writeRow(out: ByteWriter, row: Row, schema: StructType): void {
  try {
    writeStruct(out, row, schema);
  } catch (e) {
    throw e instanceof ValueMismatch ? e.named('row') : e;
  }
}

const UTF8_ENCODER = new TextEncoder();
const UTF8_DECODER = new TextDecoder();

/** Strings longer than this are decoded each time: long texts rarely repeat. */
const MOST_CACHED_BYTES = 64;

/** True when `bytes[start..end)` are all below 0x80, where UTF-8 and ASCII agree. */
function isAscii(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (bytes[i] >= 0x80) return false;
  return true;
}

/** A growing byte buffer. */
class ByteWriter {
  private buffer = new Uint8Array(64);
  private view = new DataView(this.buffer.buffer);
  length = 0;

  byte(b: number): void {
    this.reserve(1);
    this.buffer[this.length++] = b;
  }

  /** The signed varint of the module doc. */
  varint(n: number): void {
    let magnitude = Math.abs(n);
    const low = magnitude % 64;
    magnitude = Math.floor(magnitude / 64);
    // -0 is an integer 0 here: the integer types have no negative zero
    this.byte(low * 2 + (n < 0 ? 1 : 0) + (magnitude > 0 ? 128 : 0));
    while (magnitude > 0) {
      const digit = magnitude % 128;
      magnitude = Math.floor(magnitude / 128);
      this.byte(digit + (magnitude > 0 ? 128 : 0));
    }
  }

  uint32(n: number): void {
    this.reserve(4);
    this.view.setUint32(this.length, n, true);
    this.length += 4;
  }

  float64(x: number): void {
    this.reserve(8);
    this.view.setFloat64(this.length, x, true);
    this.length += 8;
  }

  blob(bytes: Uint8Array): void {
    this.varint(bytes.length);
    this.reserve(bytes.length);
    this.buffer.set(bytes, this.length);
    this.length += bytes.length;
  }

  /** A string as its UTF-8 byte length, then the bytes: the same bytes as blob of its UTF-8. */
  text(s: string): void {
    if (s.length < 64 && this.ascii(s)) return;
    // a UTF-16 code unit is at most 3 bytes of UTF-8; a length below 8192 is a 2-byte varint at most
    const most = s.length * 3;
    if (most >= 8192) return this.blob(UTF8_ENCODER.encode(s));
    // encoded in place behind room for the length, not into a new array per string
    this.reserve(2 + most);
    const at = this.length;
    const { written } = UTF8_ENCODER.encodeInto(s, this.buffer.subarray(at + 2));
    if (written < 64) {
      this.buffer.copyWithin(at + 1, at + 2, at + 2 + written);
      this.buffer[at] = written * 2;
      this.length = at + 1 + written;
    } else {
      this.buffer[at] = (written % 64) * 2 + 128;
      this.buffer[at + 1] = Math.floor(written / 64);
      this.length = at + 2 + written;
    }
  }

  /**
   * Writes `s` (under 64 code units, so its length is one varint byte) when it is all ASCII, where
   * each code unit is its own byte: a short key written byte by byte costs less than a call into
   * the encoder and the view it needs. False, having written nothing, at the first other character.
   */
  private ascii(s: string): boolean {
    this.reserve(1 + s.length);
    const at = this.length;
    for (let i = 0; i < s.length; i++) {
      const code = s.charCodeAt(i);
      if (code >= 0x80) return false;
      this.buffer[at + 1 + i] = code;
    }
    this.buffer[at] = s.length * 2;
    this.length = at + 1 + s.length;
    return true;
  }

  /** One bit per value of `values[0..n)`, set for a null (or a missing value), LSB first. */
  nullBitmap(values: readonly unknown[], n: number): void {
    for (let start = 0; start < n; start += 8) {
      let b = 0;
      for (let i = start; i < Math.min(n, start + 8); i++) {
        if (values[i] === null || values[i] === undefined) b |= 1 << (i - start);
      }
      this.byte(b);
    }
  }

  bytes(): Uint8Array {
    return this.buffer.slice(0, this.length);
  }

  /** The bytes written, in place: valid until the next write. */
  written(): Uint8Array {
    return this.buffer.subarray(0, this.length);
  }

  private reserve(n: number): void {
    if (this.length + n <= this.buffer.length) return;
    const grown = new Uint8Array(Math.max(this.buffer.length * 2, this.length + n));
    grown.set(this.buffer.subarray(0, this.length));
    this.buffer = grown;
    this.view = new DataView(grown.buffer);
  }
}

/** Reads what ByteWriter wrote; running past the end is a RowEncodingError. */
class ByteReader {
  position = 0;
  private view: DataView | undefined;

  constructor(private readonly data: Uint8Array) {}

  atEnd(): boolean {
    return this.position === this.data.length;
  }

  byte(): number {
    this.need(1);
    return this.data[this.position++];
  }

  varint(): number {
    let b = this.byte();
    const negative = (b & 1) === 1;
    let magnitude = (b >> 1) & 63;
    let scale = 64;
    while (b & 128) {
      b = this.byte();
      magnitude += (b & 127) * scale;
      scale *= 128;
    }
    return negative ? -magnitude : magnitude;
  }

  uint32(): number {
    this.need(4);
    const n = this.dataView().getUint32(this.position, true);
    this.position += 4;
    return n;
  }

  float64(): number {
    this.need(8);
    const x = this.dataView().getFloat64(this.position, true);
    this.position += 8;
    return x;
  }

  blob(): Uint8Array {
    const n = this.varint();
    this.need(n);
    const out = this.data.subarray(this.position, this.position + n);
    this.position += n;
    return out;
  }

  /**
   * A string's bytes as text; through `cache` when they are short and all ASCII, which gives back
   * the same string for a repeated value without decoding it again.
   */
  text(cache: JsonStringCache | undefined): string {
    const n = this.varint();
    this.need(n);
    const start = this.position;
    this.position += n;
    if (cache !== undefined && n <= MOST_CACHED_BYTES && isAscii(this.data, start, start + n)) {
      return cache.valueOfAscii(this.data, start, start + n);
    }
    return UTF8_DECODER.decode(this.data.subarray(start, start + n));
  }

  /** The bytes of a null bitmap of `n` values, one for each 8. */
  bitmapBytes(n: number): Uint8Array {
    const length = (n + 7) >> 3;
    this.need(length);
    const bytes = this.data.subarray(this.position, this.position + length);
    this.position += length;
    return bytes;
  }

  bitmap(n: number): boolean[] {
    const out: boolean[] = [];
    for (let start = 0; start < n; start += 8) {
      const b = this.byte();
      for (let i = start; i < Math.min(n, start + 8); i++) out.push((b & (1 << (i - start))) !== 0);
    }
    return out;
  }

  private dataView(): DataView {
    this.view ??= new DataView(this.data.buffer, this.data.byteOffset, this.data.byteLength);
    return this.view;
  }

  private need(n: number): void {
    if (this.position + n <= this.data.length) return;
    throw new RowEncodingError(
      `an encoded row ends after ${this.data.length} bytes, before its last field; the writer used another schema, or the value was cut.`,
    );
  }
}
