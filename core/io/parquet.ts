/**
 * Parquet files, read with `hyparquet` and written with `hyparquet-writer`, with the types Spark reads
 * and writes.
 *
 * Reading maps Parquet types to Sluice types:
 * - BOOLEAN -> boolean; INT32 (also INT_8/16/32, UINT_8/16) -> int; UINT_32 -> long;
 *   INT64 (also UINT_64) -> long, an error when a value is outside the safe integer range;
 *   FLOAT, DOUBLE, FLOAT16 and DECIMAL -> double (Sluice has no decimal type).
 * - BYTE_ARRAY annotated UTF8/STRING, ENUM or JSON, and UUID -> string; other BYTE_ARRAY and
 *   FIXED_LEN_BYTE_ARRAY -> binary.
 * - TIMESTAMP in millis, micros or nanos (UTC-adjusted or not) and legacy INT96 -> timestamp
 *   (microseconds, nanoseconds floored); DATE -> date.
 * - LIST -> array, MAP -> map (keys of an atomic type other than binary), other groups -> struct.
 * - TIME, INTERVAL, BSON, VARIANT, geospatial types and repeated fields outside a LIST are refused,
 *   naming the column; a schema that leaves the column out reads the rest of the file.
 * Like Spark, every column read is nullable, whatever the file or the given schema says.
 *
 * Writing produces what Spark writes: int as INT32, long as INT64, double as DOUBLE, string as UTF8
 * BYTE_ARRAY, binary as plain BYTE_ARRAY, timestamp as INT64 TIMESTAMP(MICROS, isAdjustedToUTC=true),
 * date as INT32 DATE, arrays as 3-level LISTs (`list`/`element`), maps as MAPs (`key_value`), structs
 * as groups; non-nullable fields are REQUIRED. Rows are shredded into leaf columns here
 * (parquet-leaf-columns.ts, which also picks each chunk's encoding) and hyparquet-writer's column
 * writer encodes them; SNAPPY is snappy-compress.ts. That path, its internal modules (exported by the
 * package, version pinned to 0.17.x), wrote the sink benchmark's rows 1.5 to 2.5 times faster than its
 * `parquetWriteBuffer`.
 */
import * as zlib from 'node:zlib';
import {
  type Compressors,
  type FileMetaData,
  parquetMetadata,
  type ParquetParsers,
  parquetSchema,
  parquetScan,
  type SchemaElement,
  type SchemaTree,
} from 'hyparquet';
import { isListLike, isMapLike } from 'hyparquet/src/schema.js';
import { ByteWriter, type SchemaElement as WriterElement } from 'hyparquet-writer';
import { writeColumn } from 'hyparquet-writer/src/column.js';
import { writeIndexes } from 'hyparquet-writer/src/indexes.js';
import { writeMetadata } from 'hyparquet-writer/src/metadata.js';
import { AnalysisError, ExecutionError, InvalidOptionError } from '../errors.js';
import {
  ArrayOf,
  type ArrayType,
  BinaryType,
  BooleanType,
  type DataType,
  DateType,
  DoubleType,
  field,
  IntegerType,
  LongType,
  MapOf,
  type MapType,
  StringType,
  struct,
  type StructField,
  type StructType,
  TimestampType,
  typeName,
} from '../types/data-types.js';
import type { Row } from '../types/row.js';
import type { ChunkEncoding } from './parquet-chunk-values.js';
import { type ColumnShredder, columnShredders } from './parquet-leaf-columns.js';
import { snappyCompress } from './snappy-compress.js';

/** Options of {@link readParquet}. */
export interface ParquetReadOptions {
  /**
   * The columns to read, matched to the file's columns by name (exactly, else ignoring case), also
   * inside structs. A column the file lacks reads as NULL; int widens to long or double and long to
   * double; any other difference is an error. @default the file's schema
   */
  readonly schema?: StructType;
  /** The file's name (a path or URL), for error messages. @default 'Parquet input' */
  readonly source?: string;
}

/** The result of {@link readParquet}. */
export interface ParquetReadResult {
  /** The schema of `rows`, every field nullable. */
  readonly schema: StructType;
  /** Engine rows in schema order. */
  readonly rows: Row[];
}

/** A Parquet compression codec the writer can use. */
export type ParquetCompression = 'SNAPPY' | 'GZIP' | 'ZSTD' | 'UNCOMPRESSED';

/** Options of {@link writeParquet}. */
export interface ParquetWriteOptions {
  /** The codec; ZSTD needs Node.js 22.15 or later. @default 'SNAPPY' (Spark's default) */
  readonly compression?: ParquetCompression;
}

/** Node's zstd functions exist from Node.js 22.15; the engine also supports Node.js 20. */
const zstd = zlib as unknown as {
  zstdCompressSync?: (input: Uint8Array) => Uint8Array;
  zstdDecompressSync?: (input: Uint8Array) => Uint8Array;
};

/** Codecs hyparquet lacks, from node:zlib (it has SNAPPY itself). */
const DECOMPRESSORS: Compressors = {
  GZIP: (input) => zlib.gunzipSync(input),
  BROTLI: (input) => zlib.brotliDecompressSync(input),
  ...(zstd.zstdDecompressSync ? { ZSTD: zstd.zstdDecompressSync } : {}),
};

const READABLE_CODECS = ['UNCOMPRESSED', 'SNAPPY', ...Object.keys(DECOMPRESSORS)].join(', ');
const ZSTD_NOTE = zstd.zstdDecompressSync ? '' : ' (ZSTD needs Node.js 22.15 or later)';

const COMPRESSORS = {
  SNAPPY: snappyCompress,
  GZIP: (input: Uint8Array) => zlib.gzipSync(input),
  ...(zstd.zstdCompressSync ? { ZSTD: zstd.zstdCompressSync } : {}),
};

const CODECS: readonly ParquetCompression[] = ['SNAPPY', 'GZIP', 'ZSTD', 'UNCOMPRESSED'];

/** Rows per row group: large enough to compress well, small enough to bound the writer's buffers. */
const ROW_GROUP_ROWS = 100_000;

/** The uncompressed size a data page should not grow beyond (hyparquet-writer's default). */
const PAGE_SIZE = 1024 * 1024;

/** A row group of the footer, in hyparquet-writer's types (it bundles its own hyparquet). */
type RowGroup = Parameters<typeof writeMetadata>[1]['row_groups'][number];
type ColumnChunk = RowGroup['columns'][number];

/** `PAR1`, which starts and ends every Parquet file. */
const PARQUET_MAGIC = 0x31524150;

const utf8 = new TextDecoder();

/** hyparquet's value parsers, replaced so that values arrive in engine form (numbers, not Dates). */
const PARSERS: Partial<ParquetParsers> = {
  timestampFromMilliseconds: (millis) => Number(millis) * 1000,
  timestampFromMicroseconds: (micros) => Number(micros),
  timestampFromNanoseconds: (nanos) => Number(floorDiv(nanos, 1000n)),
  dateFromDays: (days) => days,
  // Spark reads the JSON logical type as its text.
  jsonFromBytes: (bytes) => utf8.decode(bytes),
};

/**
 * Reads a whole Parquet file into engine rows (see the module doc for the type mapping).
 * Throws ExecutionError naming the source when the bytes are not a readable Parquet file or a long is
 * outside the safe integer range, and AnalysisError naming the column when its type is not supported.
 */
export async function readParquet(
  bytes: Uint8Array,
  options: ParquetReadOptions = {},
): Promise<ParquetReadResult> {
  const source = options.source ?? 'Parquet input';
  const metadata = readMetadata(bytes, source);
  const columns = planColumns(parquetSchema(metadata).children, options.schema, source);
  const rows = await readRows(bytes, metadata, columns, source);
  return { schema: struct(columns.map((c) => c.field)), rows };
}

/**
 * Writes engine rows of `schema` as one Parquet file, column by column (see the module doc for the
 * types). Throws InvalidOptionError for a schema Parquet cannot hold (void columns, empty structs,
 * duplicate names, complex map keys) or an unavailable codec, and ExecutionError for a NULL in a
 * non-nullable column.
 */
export function writeParquet(
  rows: readonly Row[],
  schema: StructType,
  options: ParquetWriteOptions = {},
): Uint8Array {
  const codec = writeCodec(options.compression ?? 'SNAPPY');
  const elements = [rootElement(schema), ...schema.fields.flatMap((f) => fieldElements(f, f.name))];
  const columns = columnShredders(schema, elements);
  try {
    return writeRowGroups(rows, columns, elements, codec);
  } catch (cause) {
    if (cause instanceof ExecutionError) throw cause;
    throw new ExecutionError(
      `Cannot write Parquet with schema ${typeName(schema)}: ${errorText(cause)}. Check that the rows match the schema.`,
      { cause },
    );
  }
}

/**
 * The schema of a Parquet file, from its footer alone: what {@link readParquet} returns without a
 * schema. Throws as readParquet does.
 */
export function parquetFileSchema(bytes: Uint8Array, source = 'Parquet input'): StructType {
  const metadata = readMetadata(bytes, source);
  return struct(
    planColumns(parquetSchema(metadata).children, undefined, source).map((c) => c.field),
  );
}

// ---------------------------------------------------------------------------------------------
// Reading

/** Converts one non-null hyparquet value to its engine form; null means the value is already in it. */
type Converter = ((value: unknown) => unknown) | null;

/** One output column: the file column it comes from (null when the file lacks it) and its conversion. */
interface ColumnPlan {
  readonly field: StructField;
  readonly fileName: string | null;
  readonly convert: Converter;
}

function readMetadata(bytes: Uint8Array, source: string): FileMetaData {
  try {
    return parquetMetadata(bytes, { geoparquet: false });
  } catch (cause) {
    throw unreadable(source, cause);
  }
}

function planColumns(
  fileColumns: readonly SchemaTree[],
  wanted: StructType | undefined,
  source: string,
): ColumnPlan[] {
  if (!wanted) {
    return fileColumns.map((node) => {
      const dataType = nullable(columnType(node, node.element.name, source));
      const { name } = node.element;
      return {
        field: field(name, dataType),
        fileName: name,
        convert: converter(dataType, dataType, name, source),
      };
    });
  }
  return wanted.fields.map((f) => {
    const out = field(f.name, nullable(f.dataType), true, f.metadata);
    const index = findByName(fileColumns, (node) => node.element.name, f.name);
    if (index < 0) return { field: out, fileName: null, convert: null };
    const node = fileColumns[index];
    const fileType = columnType(node, f.name, source);
    return {
      field: out,
      fileName: node.element.name,
      convert: converter(fileType, f.dataType, f.name, source),
    };
  });
}

/** The Sluice type of a Parquet column, following how hyparquet assembles nested values. */
function columnType(node: SchemaTree, path: string, source: string): DataType {
  const { element } = node;
  if (isListLike(node)) return listType(node, path, source);
  if (isMapLike(node)) return mapType(node, path, source);
  if (element.repetition_type === 'REPEATED') {
    return unsupported(source, path, 'a repeated field outside a LIST');
  }
  if (node.children.length > 0) {
    if (element.converted_type || element.logical_type) {
      return unsupported(source, path, describe(element));
    }
    return struct(
      node.children.map((child) =>
        field(child.element.name, columnType(child, `${path}.${child.element.name}`, source)),
      ),
    );
  }
  return atomicType(element) ?? unsupported(source, path, describe(element));
}

function listType(node: SchemaTree, path: string, source: string): DataType {
  const repeated = node.children[0];
  // A 2-level list repeats the element itself; a 3-level list wraps it in a repeated group.
  if (repeated.children.length === 0) {
    return ArrayOf(
      atomicType(repeated.element) ?? unsupported(source, path, describe(repeated.element)),
    );
  }
  return ArrayOf(columnType(repeated.children[0], `${path}.element`, source));
}

function mapType(node: SchemaTree, path: string, source: string): DataType {
  const entries = node.children[0].children;
  const keyNode = entries.find((c) => c.element.name === 'key');
  const valueNode = entries.find((c) => c.element.name === 'value');
  if (!keyNode || !valueNode) {
    return unsupported(source, path, "a MAP whose entries are not named 'key' and 'value'");
  }
  const keyType = columnType(keyNode, `${path}.key`, source);
  if (!isMapKeyType(keyType)) {
    return unsupported(source, path, `a map with ${typeName(keyType)} keys`);
  }
  return MapOf(keyType, columnType(valueNode, `${path}.value`, source));
}

/** Map keys must be atomic and not binary: hyparquet turns map keys into object property names. */
function isMapKeyType(t: DataType): boolean {
  return !['binary', 'array', 'map', 'struct', 'null'].includes(t.kind);
}

function atomicType(e: SchemaElement): DataType | undefined {
  const converted = e.converted_type;
  const logical = e.logical_type;
  if (converted === 'DECIMAL' || logical?.type === 'DECIMAL') return DoubleType;
  const isTime =
    converted === 'TIME_MILLIS' || converted === 'TIME_MICROS' || logical?.type === 'TIME';
  switch (e.type) {
    case 'BOOLEAN':
      return BooleanType;
    case 'INT32':
      if (converted === 'DATE' || logical?.type === 'DATE') return DateType;
      if (isTime) return undefined;
      return isUnsigned(e) ? LongType : IntegerType;
    case 'INT64':
      if (isTime) return undefined;
      return isTimestamp(e) ? TimestampType : LongType;
    case 'INT96':
      return TimestampType;
    case 'FLOAT':
    case 'DOUBLE':
      return DoubleType;
    case 'BYTE_ARRAY':
      return byteArrayType(e);
    case 'FIXED_LEN_BYTE_ARRAY':
      if (logical?.type === 'UUID') return StringType;
      if (logical?.type === 'FLOAT16') return DoubleType;
      return converted === 'INTERVAL' ? undefined : BinaryType;
    default:
      return undefined;
  }
}

function isTimestamp(e: SchemaElement): boolean {
  const converted = e.converted_type;
  return (
    converted === 'TIMESTAMP_MILLIS' ||
    converted === 'TIMESTAMP_MICROS' ||
    e.logical_type?.type === 'TIMESTAMP'
  );
}

function isUnsigned(e: SchemaElement): boolean {
  return (
    e.converted_type === 'UINT_32' ||
    (e.logical_type?.type === 'INTEGER' &&
      e.logical_type.bitWidth === 32 &&
      !e.logical_type.isSigned)
  );
}

function byteArrayType(e: SchemaElement): DataType | undefined {
  const converted = e.converted_type;
  const logical = e.logical_type?.type;
  if (converted === 'UTF8' || converted === 'ENUM' || converted === 'JSON') return StringType;
  if (logical === 'STRING' || logical === 'ENUM' || logical === 'JSON') return StringType;
  if (converted || logical) return undefined;
  return BinaryType;
}

function describe(e: SchemaElement): string {
  const annotation = e.logical_type?.type ?? e.converted_type;
  return annotation ? `${e.type ?? 'group'} (${annotation})` : (e.type ?? 'group');
}

function unsupported(source: string, path: string, what: string): never {
  throw new AnalysisError(
    `Parquet file ${source}: column '${path}' is ${what}, which Sluice cannot read; pass a schema that leaves the column out.`,
  );
}

/** Spark reads every file column as nullable, so a file cannot break a NOT NULL promise. */
function nullable(t: DataType): DataType {
  switch (t.kind) {
    case 'array':
      return ArrayOf(nullable(t.elementType), true);
    case 'map':
      return MapOf(t.keyType, nullable(t.valueType), true);
    case 'struct':
      return struct(t.fields.map((f) => field(f.name, nullable(f.dataType), true, f.metadata)));
    default:
      return t;
  }
}

/** The index of the item named `name`, matched exactly first and then ignoring case, as Spark does. */
function findByName<T>(items: readonly T[], nameOf: (item: T) => string, name: string): number {
  const exact = items.findIndex((item) => nameOf(item) === name);
  if (exact >= 0) return exact;
  const lower = name.toLowerCase();
  return items.findIndex((item) => nameOf(item).toLowerCase() === lower);
}

/** How to turn hyparquet's values of file type `from` into engine values of type `to`. */
function converter(from: DataType, to: DataType, path: string, source: string): Converter {
  if (from.kind === 'long' && (to.kind === 'long' || to.kind === 'double')) {
    return to.kind === 'long' ? safeLong(path, source) : (v) => Number(v);
  }
  if (from.kind === 'int' && (to.kind === 'long' || to.kind === 'double')) return null;
  if (from.kind === 'string' && to.kind === 'string') {
    // hyparquet leaves ENUM and unannotated-JSON text as bytes.
    return (v) => (v instanceof Uint8Array ? utf8.decode(v) : v);
  }
  if (from.kind !== to.kind) return incompatible(from, to, path, source);
  switch (to.kind) {
    case 'struct':
      return structConverter(from as StructType, to, path, source);
    case 'array':
      return arrayConverter((from as ArrayType).elementType, to.elementType, path, source);
    case 'map':
      return mapConverter(from as MapType, to, path, source);
    default:
      return null;
  }
}

function safeLong(path: string, source: string): Converter {
  return (v) => {
    if (typeof v !== 'bigint') return v;
    if (v > BigInt(Number.MAX_SAFE_INTEGER) || v < BigInt(Number.MIN_SAFE_INTEGER)) {
      throw new ExecutionError(
        `Parquet file ${source}: column '${path}' holds ${v}, outside the range of Sluice's long (±(2^53 - 1)); read the column as double by passing a schema with '${path}' DOUBLE.`,
      );
    }
    return Number(v);
  };
}

function incompatible(from: DataType, to: DataType, path: string, source: string): never {
  throw new ExecutionError(
    `Parquet file ${source}: column '${path}' is ${typeName(from)} in the file but the schema asks for ${typeName(to)}; change the schema to ${typeName(from)} for that column.`,
  );
}

function structConverter(
  from: StructType,
  to: StructType,
  path: string,
  source: string,
): Converter {
  const parts = to.fields.map((f) => {
    const index = findByName(from.fields, (g) => g.name, f.name);
    if (index < 0) return { name: null, convert: null };
    const fileField = from.fields[index];
    const convert = converter(fileField.dataType, f.dataType, `${path}.${f.name}`, source);
    return { name: fileField.name, convert };
  });
  return (v) => {
    const object = v as Record<string, unknown>;
    return parts.map(({ name, convert }) => {
      const x = name === null ? null : object[name];
      return x === null || x === undefined ? null : convert === null ? x : convert(x);
    });
  };
}

function arrayConverter(from: DataType, to: DataType, path: string, source: string): Converter {
  const element = converter(from, to, `${path}.element`, source);
  if (element === null) return null;
  return (v) => (v as unknown[]).map((x) => (x === null || x === undefined ? null : element(x)));
}

/** hyparquet returns a map as an object, so its keys come back as property names. */
function mapConverter(from: MapType, to: MapType, path: string, source: string): Converter {
  const key = keyParser(from.keyType, to.keyType, path, source);
  const value = converter(from.valueType, to.valueType, `${path}.value`, source);
  return (v) => {
    const map = new Map<unknown, unknown>();
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      map.set(key(k), x === null || x === undefined ? null : value === null ? x : value(x));
    }
    return map;
  };
}

/** Parses a property name back into a key: its text form is that of hyparquet's value for `from`. */
function keyParser(
  from: DataType,
  to: DataType,
  path: string,
  source: string,
): (key: string) => unknown {
  const convert = converter(from, to, `${path}.key`, source) ?? ((x: unknown) => x);
  switch (from.kind) {
    case 'string':
      return (k) => k;
    case 'boolean':
      return (k) => k === 'true';
    case 'long':
      return (k) => convert(BigInt(k));
    default:
      return (k) => convert(Number(k));
  }
}

async function readRows(
  bytes: Uint8Array,
  metadata: FileMetaData,
  columns: readonly ColumnPlan[],
  source: string,
): Promise<Row[]> {
  const width = columns.length;
  const rows: Row[] = Array.from({ length: Number(metadata.num_rows) }, () =>
    new Array<unknown>(width).fill(null),
  );
  const names = [...new Set(columns.flatMap((c) => (c.fileName === null ? [] : [c.fileName])))];
  if (names.length === 0 || rows.length === 0) return rows;
  const file = {
    byteLength: bytes.byteLength,
    // A copy, not `bytes.slice`: on a Node Buffer that is a view whose `.buffer` is the whole pool.
    slice: (start: number, end?: number) => new Uint8Array(bytes.subarray(start, end)).buffer,
  };
  const scan = await guarded(source, () =>
    parquetScan({
      file,
      metadata,
      columns: names,
      utf8: false,
      parsers: PARSERS,
      compressors: DECOMPRESSORS,
    }),
  );
  for (const range of scan.ranges) {
    for (let c = 0; c < width; c++) {
      const { fileName, convert } = columns[c];
      if (fileName === null) continue;
      const data = await guarded(source, () => scan.readColumn({ column: fileName, ...range }));
      fillColumn(rows, range.rowStart, c, data, convert);
    }
  }
  return rows;
}

/** Column-major fill: one column of one row range at a time. */
function fillColumn(
  rows: Row[],
  start: number,
  column: number,
  data: ArrayLike<unknown>,
  convert: Converter,
): void {
  for (let i = 0; i < data.length; i++) {
    const v = data[i];
    rows[start + i][column] =
      v === null || v === undefined ? null : convert === null ? v : convert(v);
  }
}

async function guarded<T>(source: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (cause) {
    throw unreadable(source, cause);
  }
}

function unreadable(source: string, cause: unknown): ExecutionError {
  return new ExecutionError(
    `Cannot read Parquet file ${source}: ${errorText(cause)}. Check that the file is complete and is Parquet compressed with ${READABLE_CODECS}${ZSTD_NOTE}.`,
    { cause },
  );
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Division rounding down, so that an instant before 1970 maps to the microsecond at or before it. */
function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n ? q - 1n : q;
}

// ---------------------------------------------------------------------------------------------
// Writing

/**
 * Checks that this process can write Parquet with `compression` (ZSTD needs Node.js 22.15), so that
 * writers can validate their options when configured; throws InvalidOptionError otherwise.
 */
export function writeCodec(compression: ParquetCompression): ParquetCompression {
  if (!CODECS.includes(compression)) {
    throw new InvalidOptionError(
      `Invalid Parquet option compression '${String(compression)}': use one of ${CODECS.join(', ')}.`,
    );
  }
  if (compression === 'ZSTD' && !zstd.zstdCompressSync) {
    throw new InvalidOptionError(
      `Parquet compression 'ZSTD' needs Node.js 22.15 or later (this is ${process.version}); use 'SNAPPY' (Spark's default) or 'GZIP'.`,
    );
  }
  return compression;
}

function rootElement(schema: StructType): WriterElement {
  requireFields(schema.fields, 'the schema');
  return { name: 'schema', num_children: schema.fields.length };
}

/** Spark rejects empty structs and duplicate names; the writer would also resolve a duplicate wrongly. */
function requireFields(fields: readonly StructField[], where: string): void {
  if (fields.length === 0) {
    throw new InvalidOptionError(
      `Cannot write ${where} to Parquet: a struct needs at least one field; drop the column or add a field.`,
    );
  }
  const seen = new Set<string>();
  for (const f of fields) {
    const key = f.name.toLowerCase();
    if (seen.has(key)) {
      throw new InvalidOptionError(
        `Cannot write ${where} to Parquet: the name '${f.name}' appears twice (ignoring case); rename one of the columns.`,
      );
    }
    seen.add(key);
  }
}

const ATOMIC_ELEMENTS: Partial<Record<DataType['kind'], Omit<WriterElement, 'name'>>> = {
  string: { type: 'BYTE_ARRAY', converted_type: 'UTF8', logical_type: { type: 'STRING' } },
  boolean: { type: 'BOOLEAN' },
  int: { type: 'INT32' },
  long: { type: 'INT64' },
  double: { type: 'DOUBLE' },
  timestamp: {
    type: 'INT64',
    converted_type: 'TIMESTAMP_MICROS',
    logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' },
  },
  date: { type: 'INT32', converted_type: 'DATE', logical_type: { type: 'DATE' } },
  binary: { type: 'BYTE_ARRAY' },
};

/** The schema elements of one field, depth first, as parquet-mr lays out Spark's types. */
function fieldElements(f: StructField, path: string): WriterElement[] {
  const t = f.dataType;
  const repetition_type = f.nullable ? 'OPTIONAL' : 'REQUIRED';
  switch (t.kind) {
    case 'array':
      return [
        {
          name: f.name,
          repetition_type,
          converted_type: 'LIST',
          logical_type: { type: 'LIST' },
          num_children: 1,
        },
        { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
        ...fieldElements(field('element', t.elementType, t.containsNull), `${path}.element`),
      ];
    case 'map':
      if (!isMapKeyType(t.keyType)) {
        throw new InvalidOptionError(
          `Cannot write column '${path}' to Parquet: map keys of type ${typeName(t.keyType)} cannot be read back; use string or numeric keys.`,
        );
      }
      return [
        {
          name: f.name,
          repetition_type,
          converted_type: 'MAP',
          logical_type: { type: 'MAP' },
          num_children: 1,
        },
        { name: 'key_value', repetition_type: 'REPEATED', num_children: 2 },
        ...fieldElements(field('key', t.keyType, false), `${path}.key`),
        ...fieldElements(field('value', t.valueType, t.valueContainsNull), `${path}.value`),
      ];
    case 'struct':
      requireFields(t.fields, `column '${path}'`);
      return [
        { name: f.name, repetition_type, num_children: t.fields.length },
        ...t.fields.flatMap((g) => fieldElements(g, `${path}.${g.name}`)),
      ];
    default: {
      const element = ATOMIC_ELEMENTS[t.kind];
      if (!element) {
        throw new InvalidOptionError(
          `Cannot write column '${path}' of type ${typeName(t)} to Parquet; cast it to a concrete type, for example string.`,
        );
      }
      return [{ name: f.name, repetition_type, ...element }];
    }
  }
}

/**
 * The file: row groups of ROW_GROUP_ROWS rows, each a column chunk per leaf written by
 * hyparquet-writer's column writer (encodings, dictionary, statistics, pages, compression), then the
 * page indexes and the footer, as hyparquet-writer's ParquetWriter lays them out. Leaves are shredded
 * here (parquet-leaf-columns.ts), not by ParquetWriter, which runs its Dremel encoder on every column.
 */
function writeRowGroups(
  rows: readonly Row[],
  columns: readonly ColumnShredder[],
  schema: WriterElement[],
  codec: ParquetCompression,
): Uint8Array {
  const writer = new ByteWriter();
  writer.appendUint32(PARQUET_MAGIC);
  const row_groups: RowGroup[] = [];
  const pageIndexes: ReturnType<typeof writeColumn>[] = [];
  for (let start = 0; start < rows.length; start += ROW_GROUP_ROWS) {
    const end = Math.min(start + ROW_GROUP_ROWS, rows.length);
    const groupOffset = writer.offset;
    const chunks: ColumnChunk[] = [];
    for (const shred of columns) {
      for (const { schemaPath, pageData, encoding } of shred(rows, start, end)) {
        const column = columnEncoder(schemaPath, codec, encoding);
        const result = writeColumn({ writer, column, pageData });
        chunks.push(result.chunk);
        pageIndexes.push(result);
      }
    }
    row_groups.push({
      columns: chunks,
      total_byte_size: chunks.reduce(
        (n, c) => n + (c.meta_data?.total_uncompressed_size ?? 0n),
        0n,
      ),
      num_rows: BigInt(end - start),
      total_compressed_size: BigInt(writer.offset - groupOffset),
    });
  }
  writeIndexes(writer, pageIndexes);
  writeMetadata(writer, {
    version: 2,
    created_by: 'hyparquet',
    schema,
    num_rows: BigInt(rows.length),
    row_groups,
    metadata_length: 0,
  });
  writer.appendUint32(PARQUET_MAGIC);
  return new Uint8Array(writer.getBuffer());
}

/** The column writer's settings for one leaf chunk: hyparquet-writer's defaults, with statistics. */
function columnEncoder(
  schemaPath: WriterElement[],
  codec: ParquetCompression,
  encoding: ChunkEncoding | undefined,
): Parameters<typeof writeColumn>[0]['column'] {
  return {
    columnName: schemaPath
      .slice(1)
      .map((e) => e.name)
      .join('.'),
    element: schemaPath[schemaPath.length - 1],
    schemaPath,
    codec,
    compressors: COMPRESSORS,
    stats: true,
    pageSize: PAGE_SIZE,
    columnIndex: false,
    offsetIndex: true,
    encoding,
  };
}
