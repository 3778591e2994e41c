/**
 * Rows and batches at the edges of the columnar engine. A leaf's rows become one batch of `values`
 * columns (a transposition, no work per value: no dictionary for raw text, no typed copy), and a
 * batch becomes rows for the operators that are not columnar yet and at the root of the plan.
 *
 * A batch made from rows remembers them, so turning it back into rows costs nothing: a chain of
 * row operators pays one transposition per operator, not two, and an expression evaluated row by
 * row over a scanned batch reads the source's own rows. Rows are never modified once made, so
 * handing out the remembered ones is safe.
 */
import type { StructType } from '../types/data-types.js';
import type { Row } from '../types/row.js';
import { batchToRows, type Column, type ColumnBatch } from './column-batch.js';

const rowsOfBatch = new WeakMap<ColumnBatch, readonly Row[]>();

/** A batch of `rows` (engine rows of `schema`), every column a `values` column. */
export function rowsToValuesBatch(schema: StructType, rows: readonly Row[]): ColumnBatch {
  const n = rows.length;
  const columns: Column[] = schema.fields.map((_, c) => {
    const values = new Array<unknown>(n);
    for (let i = 0; i < n; i++) values[i] = rows[i][c] ?? null;
    return { kind: 'values', length: n, values };
  });
  const batch: ColumnBatch = { schema, numRows: n, columns };
  rowsOfBatch.set(batch, rows);
  return batch;
}

/** The rows of `batch`, in order: the rows it was made from, or built once from its columns. */
export function rowsOf(batch: ColumnBatch): readonly Row[] {
  let rows = rowsOfBatch.get(batch);
  if (rows === undefined) {
    rows = batchToRows(batch);
    rowsOfBatch.set(batch, rows);
  }
  return rows;
}
