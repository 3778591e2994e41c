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
  const row = readStruct(input, schema);
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
    writeStruct(this.out, row, this.schema, 'row');
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
    writeStruct(this.out, row, this.schema, 'row');
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
  const rows: Row[] = [];
  for (let i = 0; i < count; i++) rows.push(readStruct(input, schema));
  if (!input.atEnd()) {
    throw new RowEncodingError(
      `a page of ${count} encoded rows has ${bytes.length - input.position} bytes after its last row; the writer used another schema.`,
    );
  }
  return rows;
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

function writeStruct(out: ByteWriter, row: Row, type: StructType, path: string): void {
  const fields = type.fields;
  out.bitmap(fields.length, (i) => row[i] === null || row[i] === undefined);
  for (let i = 0; i < fields.length; i++) {
    const v = row[i];
    if (v !== null && v !== undefined)
      writeValue(out, v, fields[i].dataType, `${path}.${fields[i].name}`);
  }
}

function readStruct(input: ByteReader, type: StructType): Row {
  const nulls = input.bitmap(type.fields.length);
  return type.fields.map((f, i) => (nulls[i] ? null : readValue(input, f.dataType)));
}

function writeValue(out: ByteWriter, v: unknown, type: DataType, path: string): void {
  switch (type.kind) {
    case 'struct':
      return writeStruct(out, v as Row, type, path);
    case 'array': {
      const items = v as unknown[];
      out.varint(items.length);
      out.bitmap(items.length, (i) => items[i] === null || items[i] === undefined);
      for (const item of items)
        if (item !== null && item !== undefined) writeValue(out, item, type.elementType, path);
      return;
    }
    case 'map': {
      const entries = [...(v as Map<unknown, unknown>)];
      out.varint(entries.length);
      for (const [key, value] of entries) {
        writeValue(out, key, type.keyType, `${path} key`);
        const isNull = value === null || value === undefined;
        out.byte(isNull ? 1 : 0);
        if (!isNull) writeValue(out, value, type.valueType, `${path} value`);
      }
      return;
    }
    case 'int':
    case 'long':
    case 'timestamp':
    case 'date':
      return out.varint(integer(v, type.kind, path));
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
      out.varint(integer(i.months, 'interval months', path));
      out.varint(integer(i.days, 'interval days', path));
      return out.varint(integer(i.micros, 'interval micros', path));
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
      return UTF8_DECODER.decode(input.blob());
    case 'binary':
      return input.blob().slice();
    case 'interval':
      return { months: input.varint(), days: input.varint(), micros: input.varint() };
    case 'null':
      return null;
  }
}

function integer(v: unknown, kind: string, path: string): number {
  if (typeof v === 'number' && Number.isSafeInteger(v)) return v;
  throw new RowEncodingError(
    `${path} holds ${String(v)}, which is no safe integer, but its type is ${kind}; the engine keeps ${kind} values as integers within ±(2^53 - 1).`,
  );
}

const UTF8_ENCODER = new TextEncoder();
const UTF8_DECODER = new TextDecoder();

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

  bitmap(n: number, isSet: (i: number) => boolean): void {
    for (let start = 0; start < n; start += 8) {
      let b = 0;
      for (let i = start; i < Math.min(n, start + 8); i++) if (isSet(i)) b |= 1 << (i - start);
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
