/**
 * Column batches: a micro-batch held as one array per column instead of one array per row, so an
 * operator runs a tight loop over typed arrays and the engine makes a few large allocations per
 * batch instead of one per row and value.
 *
 * The layout follows Apache Arrow's, so a batch could be handed to Arrow without reshaping:
 * - a validity bitmap per column, bit i (least significant first) set when row i is not null;
 *   `null` when every row is valid;
 * - int and date values in an Int32Array; long, double and timestamp values (microseconds) in a
 *   Float64Array (the engine's numbers; a long stays within the safe integer range);
 * - booleans bit-packed in a Uint8Array, as Arrow does;
 * - strings dictionary-encoded: an Int32Array of indices into a dictionary of distinct values;
 * - structs as child columns of the same length.
 * Two deliberate differences: dictionary values are JS strings (Arrow keeps UTF-8 bytes and
 * offsets), and binary, array and map columns, and the null type, fall back to a plain array of
 * engine values (`values` columns), which an operator reads as it reads a row's value.
 *
 * `columnKindOf` is the kind a column of a type is built as; a column of any type may also be a
 * `values` column (raw text read from a source, say, where a dictionary of a million distinct lines
 * would not pay off), so every operator reads `values` columns of every type.
 *
 * Values of null rows are unspecified (zero in typed arrays); readers test validity first.
 */
import type { DataType, StructType } from '../types/data-types.js';
import type { Row } from '../types/row.js';

/** Bit i set when row i holds a value; null when no row is null. */
export type Validity = Uint8Array | null;

/** int and date values. */
export interface Int32Column {
  readonly kind: 'int32';
  readonly length: number;
  readonly values: Int32Array;
  readonly validity: Validity;
}

/** long, double and timestamp (microseconds since the epoch) values. */
export interface Float64Column {
  readonly kind: 'float64';
  readonly length: number;
  readonly values: Float64Array;
  readonly validity: Validity;
}

/** Booleans, bit-packed: bit i of `values` is row i's value. */
export interface BooleanColumn {
  readonly kind: 'boolean';
  readonly length: number;
  readonly values: Uint8Array;
  readonly validity: Validity;
}

/** Strings, as indices into a dictionary of distinct values. */
export interface DictionaryColumn {
  readonly kind: 'dictionary';
  readonly length: number;
  readonly indices: Int32Array;
  readonly dictionary: readonly string[];
  readonly validity: Validity;
}

/** A struct: one child column per field, each of the struct column's length. */
export interface StructColumn {
  readonly kind: 'struct';
  readonly length: number;
  readonly children: readonly Column[];
  readonly validity: Validity;
}

/** Engine values, null for SQL NULL: the kind of binary, array, map and null columns, and a fallback for any type. */
export interface ValuesColumn {
  readonly kind: 'values';
  readonly length: number;
  readonly values: readonly unknown[];
}

/** One column of a batch. */
export type Column =
  Int32Column | Float64Column | BooleanColumn | DictionaryColumn | StructColumn | ValuesColumn;

/** Rows of one schema, held by column. */
export interface ColumnBatch {
  readonly schema: StructType;
  readonly numRows: number;
  /** One column per schema field, in schema order. */
  readonly columns: readonly Column[];
}

/** The column kind a column of type `t` is built as. */
export function columnKindOf(t: DataType): Column['kind'] {
  switch (t.kind) {
    case 'int':
    case 'date':
      return 'int32';
    case 'long':
    case 'double':
    case 'timestamp':
      return 'float64';
    case 'boolean':
      return 'boolean';
    case 'string':
      return 'dictionary';
    case 'struct':
      return 'struct';
    case 'binary':
    case 'interval':
    case 'array':
    case 'map':
    case 'null':
      return 'values';
  }
}

/** True when row `i` is not null under `validity`. */
export function isValid(validity: Validity, i: number): boolean {
  return validity === null || (validity[i >> 3] & (1 << (i & 7))) !== 0;
}

/** Row `i` of `column` as an engine value (structs as positional arrays), null when null. */
export function valueAt(column: Column, i: number): unknown {
  if (column.kind === 'values') return column.values[i] ?? null;
  if (!isValid(column.validity, i)) return null;
  switch (column.kind) {
    case 'int32':
    case 'float64':
      return column.values[i];
    case 'boolean':
      return (column.values[i >> 3] & (1 << (i & 7))) !== 0;
    case 'dictionary':
      return column.dictionary[column.indices[i]];
    case 'struct':
      return column.children.map((child) => valueAt(child, i));
  }
}

/** The rows of a batch, in order: the row adapter for operators that are not columnar yet. */
export function batchToRows(batch: ColumnBatch): Row[] {
  const rows: Row[] = new Array<Row>(batch.numRows);
  const columns = batch.columns;
  for (let i = 0; i < batch.numRows; i++) {
    const row: Row = new Array<unknown>(columns.length);
    for (let c = 0; c < columns.length; c++) row[c] = valueAt(columns[c], i);
    rows[i] = row;
  }
  return rows;
}
