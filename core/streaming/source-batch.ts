/**
 * What a micro-batch reads from one source: the range its intent names, as the column batch its
 * scan emits. A source that holds its data by column hands it over as is; the rows of any other
 * become `values` columns.
 */
import { rowsToValuesBatch } from '../columnar/batch-rows.js';
import type { ColumnBatch } from '../columnar/column-batch.js';
import { type Offset, sameOffset, type Source } from '../sources/source.js';
import type { StructType } from '../types/data-types.js';

/**
 * The rows of `source` in (start, end], of `schema` (the relation's), as an intent records them:
 * null is a source that has had no data yet. None when the range is empty.
 */
export async function readSourceBatch(
  source: Source,
  start: Offset | null,
  end: Offset | null,
  schema: StructType,
): Promise<ColumnBatch> {
  if (end === null || sameOffset(start ?? undefined, end)) return rowsToValuesBatch(schema, []);
  if (source.getColumnBatch === undefined) {
    return rowsToValuesBatch(schema, await source.getBatch(start ?? undefined, end));
  }
  const batch = await source.getColumnBatch(start ?? undefined, end);
  return { schema, numRows: batch.numRows, columns: batch.columns };
}
