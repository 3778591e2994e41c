/**
 * Columns whose every row is null, made at once rather than appended row by row: the columnar JSON
 * decoder gives one for each field the query does not read.
 */
import type { DataType } from '../types/data-types.js';
import { type Column, columnKindOf } from './column-batch.js';

/** A column of `length` nulls, of the kind a column of type `t` is built as. */
export function nullColumn(t: DataType, length: number): Column {
  // A bitmap of zeros: no row is valid.
  const validity = new Uint8Array((length + 7) >> 3);
  switch (columnKindOf(t)) {
    case 'int32':
      return { kind: 'int32', length, values: new Int32Array(length), validity };
    case 'float64':
      return { kind: 'float64', length, values: new Float64Array(length), validity };
    case 'boolean':
      return { kind: 'boolean', length, values: new Uint8Array(validity.length), validity };
    case 'dictionary':
      return {
        kind: 'dictionary',
        length,
        indices: new Int32Array(length),
        dictionary: [],
        validity,
      };
    case 'struct': {
      const fields = t.kind === 'struct' ? t.fields : [];
      const children = fields.map((f) => nullColumn(f.dataType, length));
      return { kind: 'struct', length, children, validity };
    }
    case 'values':
      return { kind: 'values', length, values: new Array<unknown>(length).fill(null) };
  }
}
