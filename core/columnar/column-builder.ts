/**
 * Column builders: append engine values (or typed values, on the fast paths decoders use) to a
 * growing column, then take the column once. Typed arrays double as they fill, so appending is
 * amortized constant time; `finish` trims them to the rows appended.
 */
import { ExecutionError } from '../errors.js';
import type { DataType, StructType } from '../types/data-types.js';
import type { Row } from '../types/row.js';
import type {
  BooleanColumn,
  Column,
  ColumnBatch,
  DictionaryColumn,
  Float64Column,
  Int32Column,
  StructColumn,
  Validity,
  ValuesColumn,
} from './column-batch.js';

/** A batch of `rows` (engine rows of `schema`). */
export function rowsToBatch(schema: StructType, rows: readonly Row[]): ColumnBatch {
  const columns = schema.fields.map((field, c) => {
    const builder = columnBuilder(field.dataType, rows.length);
    for (const row of rows) builder.append(row[c]);
    return builder.finish();
  });
  return { schema, numRows: rows.length, columns };
}

/** Appends values to a column of one type, then hands it over once. */
export interface ColumnBuilder {
  /** The number of values appended so far. */
  readonly length: number;
  /** Appends an engine value of the builder's type, or null. */
  append(value: unknown): void;
  /** Appends SQL NULL. */
  appendNull(): void;
  /** The column built; the builder must not be used afterwards. */
  finish(): Column;
}

/** A builder for a column of type `t`; `capacity` is a hint for the number of rows. */
export function columnBuilder(t: DataType, capacity = 1024): ColumnBuilder {
  switch (t.kind) {
    case 'int':
    case 'date':
      return new Int32Builder(capacity);
    case 'long':
    case 'double':
    case 'timestamp':
      return new Float64Builder(capacity);
    case 'boolean':
      return new BooleanBuilder(capacity);
    case 'string':
      return new DictionaryBuilder(capacity);
    case 'struct':
      return new StructBuilder(t, capacity);
    case 'binary':
    case 'interval':
    case 'array':
    case 'map':
    case 'null':
      return new ValuesBuilder();
  }
}

/** A validity bitmap that grows as rows are appended; null until the first null row. */
class ValidityBuilder {
  private bits: Uint8Array | null = null;

  /** Records that row `i` is null (rows before it that were not marked stay valid). */
  markNull(i: number, capacity: number): void {
    if (this.bits === null) this.bits = new Uint8Array(byteLength(capacity)).fill(0xff);
    if (i >> 3 >= this.bits.length) this.bits = grown(this.bits, byteLength(i + 1) * 2, 0xff);
    this.bits[i >> 3] &= ~(1 << (i & 7));
  }

  finish(length: number): Validity {
    if (this.bits === null) return null;
    const size = byteLength(length);
    // rows appended after the last null row are valid, whether or not their bytes exist yet
    const bits = this.bits.length >= size ? this.bits.slice(0, size) : grown(this.bits, size, 0xff);
    const tail = length & 7;
    // bits past the last row are unset, as Arrow requires of padding
    if (tail !== 0) bits[bits.length - 1] &= (1 << tail) - 1;
    return bits;
  }
}

function byteLength(bits: number): number {
  return (bits + 7) >> 3;
}

function grown<T extends Uint8Array | Int32Array | Float64Array>(
  array: T,
  size: number,
  fill = 0,
): T {
  const next = new (array.constructor as new (n: number) => T)(size);
  next.set(array);
  if (fill !== 0) next.fill(fill, array.length);
  return next;
}

/** Builds int and date columns. */
export class Int32Builder implements ColumnBuilder {
  length = 0;
  private values: Int32Array;
  private readonly validity = new ValidityBuilder();

  constructor(capacity = 1024) {
    this.values = new Int32Array(Math.max(capacity, 16));
  }

  /** Appends an int32 value. */
  appendInt(value: number): void {
    if (this.length === this.values.length) this.values = grown(this.values, this.length * 2);
    this.values[this.length++] = value;
  }

  append(value: unknown): void {
    if (value === null || value === undefined) this.appendNull();
    else this.appendInt(value as number);
  }

  appendNull(): void {
    this.validity.markNull(this.length, this.values.length);
    this.appendInt(0);
  }

  finish(): Int32Column {
    const length = this.length;
    return {
      kind: 'int32',
      length,
      values: this.values.slice(0, length),
      validity: this.validity.finish(length),
    };
  }
}

/** Builds long, double and timestamp columns. */
export class Float64Builder implements ColumnBuilder {
  length = 0;
  private values: Float64Array;
  private readonly validity = new ValidityBuilder();

  constructor(capacity = 1024) {
    this.values = new Float64Array(Math.max(capacity, 16));
  }

  /** Appends a number. */
  appendNumber(value: number): void {
    if (this.length === this.values.length) this.values = grown(this.values, this.length * 2);
    this.values[this.length++] = value;
  }

  append(value: unknown): void {
    if (value === null || value === undefined) this.appendNull();
    else this.appendNumber(value as number);
  }

  appendNull(): void {
    this.validity.markNull(this.length, this.values.length);
    this.appendNumber(0);
  }

  finish(): Float64Column {
    const length = this.length;
    return {
      kind: 'float64',
      length,
      values: this.values.slice(0, length),
      validity: this.validity.finish(length),
    };
  }
}

/** Builds bit-packed boolean columns. */
export class BooleanBuilder implements ColumnBuilder {
  length = 0;
  private values: Uint8Array;
  private readonly validity = new ValidityBuilder();

  constructor(capacity = 1024) {
    this.values = new Uint8Array(byteLength(Math.max(capacity, 16)));
  }

  /** Appends a boolean. */
  appendBoolean(value: boolean): void {
    const i = this.length++;
    if (i >> 3 >= this.values.length) this.values = grown(this.values, this.values.length * 2);
    if (value) this.values[i >> 3] |= 1 << (i & 7);
  }

  append(value: unknown): void {
    if (value === null || value === undefined) this.appendNull();
    else this.appendBoolean(value as boolean);
  }

  appendNull(): void {
    this.validity.markNull(this.length, this.values.length * 8);
    this.appendBoolean(false);
  }

  finish(): BooleanColumn {
    const length = this.length;
    return {
      kind: 'boolean',
      length,
      values: this.values.slice(0, byteLength(length)),
      validity: this.validity.finish(length),
    };
  }
}

/** Builds dictionary-encoded string columns: each distinct string is stored once. */
export class DictionaryBuilder implements ColumnBuilder {
  length = 0;
  private indices: Int32Array;
  private readonly dictionary: string[] = [];
  private readonly ids = new Map<string, number>();
  private readonly validity = new ValidityBuilder();

  constructor(capacity = 1024) {
    this.indices = new Int32Array(Math.max(capacity, 16));
  }

  /** How many distinct strings have been appended. */
  get distinctCount(): number {
    return this.dictionary.length;
  }

  /** Appends a string. */
  appendString(value: string): void {
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.dictionary.length;
      this.dictionary.push(value);
      this.ids.set(value, id);
    }
    this.appendIndex(id);
  }

  append(value: unknown): void {
    if (value === null || value === undefined) this.appendNull();
    else this.appendString(value as string);
  }

  appendNull(): void {
    this.validity.markNull(this.length, this.indices.length);
    this.appendIndex(0);
  }

  finish(): DictionaryColumn {
    const length = this.length;
    return {
      kind: 'dictionary',
      length,
      indices: this.indices.slice(0, length),
      dictionary: this.dictionary,
      validity: this.validity.finish(length),
    };
  }

  private appendIndex(id: number): void {
    if (this.length === this.indices.length) this.indices = grown(this.indices, this.length * 2);
    this.indices[this.length++] = id;
  }
}

/** Builds struct columns from positional struct values (or null). */
export class StructBuilder implements ColumnBuilder {
  length = 0;
  /** One builder per field; a caller filling fields directly appends to each, then calls `appendValid`. */
  readonly children: readonly ColumnBuilder[];
  private readonly validity = new ValidityBuilder();

  constructor(type: StructType, capacity = 1024) {
    this.children = type.fields.map((f) => columnBuilder(f.dataType, capacity));
  }

  append(value: unknown): void {
    if (value === null || value === undefined) {
      this.appendNull();
      return;
    }
    const struct = value as Row;
    this.children.forEach((child, c) => child.append(struct[c]));
    this.length++;
  }

  appendNull(): void {
    this.validity.markNull(this.length, this.length + 1);
    for (const child of this.children) child.appendNull();
    this.length++;
  }

  /** Records one non-null struct whose fields were appended to the children directly. */
  appendValid(): void {
    this.length++;
  }

  finish(): StructColumn {
    const length = this.length;
    const children = this.children.map((child) => child.finish());
    if (children.some((child) => child.length !== length)) {
      throw new ExecutionError(
        `Internal error: a struct column of ${length} rows has a field column of another length.`,
      );
    }
    return { kind: 'struct', length, children, validity: this.validity.finish(length) };
  }
}

/** Builds the fallback column of engine values. */
export class ValuesBuilder implements ColumnBuilder {
  private readonly values: unknown[] = [];

  get length(): number {
    return this.values.length;
  }

  append(value: unknown): void {
    this.values.push(value ?? null);
  }

  appendNull(): void {
    this.values.push(null);
  }

  finish(): ValuesColumn {
    return { kind: 'values', length: this.values.length, values: this.values };
  }
}
