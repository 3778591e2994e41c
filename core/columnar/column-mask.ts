/**
 * Masking: a column whose rows are also null wherever another validity bitmap says so. A struct's
 * field columns hold unspecified values in the rows where the struct itself is null, so reading a
 * field on its own (`e.ts`, or `e.*`) masks it with the struct's validity. Typed columns share their
 * values and get a new bitmap; only `values` columns are copied.
 */
import type { Column, Validity } from './column-batch.js';

/** `column` with the rows that `validity` marks null made null too. */
export function maskColumn(column: Column, validity: Validity): Column {
  if (validity === null) return column;
  if (column.kind === 'values') {
    const values = column.values.slice();
    for (let i = 0; i < values.length; i++) {
      if ((validity[i >> 3] & (1 << (i & 7))) === 0) values[i] = null;
    }
    return { kind: 'values', length: column.length, values };
  }
  return { ...column, validity: bothValid(column.validity, validity) };
}

/** The bitmap of rows valid under both `a` and `b`. */
export function bothValid(a: Validity, b: Validity): Validity {
  if (a === null) return b;
  if (b === null) return a;
  const out = new Uint8Array(a.length);
  for (let i = 0; i < out.length; i++) out[i] = a[i] & b[i];
  return out;
}
