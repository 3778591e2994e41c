/**
 * Column readers: row `i` of a column as an engine value, through a function chosen once per column
 * by its kind, so a loop over a batch reads any column kind without a switch per value.
 */
import { type Column, isValid, valueAt } from './column-batch.js';

/** Reads row `i` of one column: an engine value, null for SQL NULL. */
export type ColumnReader = (i: number) => unknown;

/** The reader of `column`. */
export function readerOf(column: Column): ColumnReader {
  switch (column.kind) {
    case 'values': {
      const values = column.values;
      return (i) => values[i] ?? null;
    }
    case 'int32':
    case 'float64': {
      const { values, validity } = column;
      return validity === null
        ? (i) => values[i]
        : (i) => (isValid(validity, i) ? values[i] : null);
    }
    case 'boolean': {
      const { values, validity } = column;
      return (i) => (isValid(validity, i) ? (values[i >> 3] & (1 << (i & 7))) !== 0 : null);
    }
    case 'dictionary': {
      const { indices, dictionary, validity } = column;
      return (i) => (isValid(validity, i) ? dictionary[indices[i]] : null);
    }
    case 'struct':
      return (i) => valueAt(column, i);
  }
}
