/**
 * Engine rows written by hyparquet-writer's own entry point, `parquetWriteBuffer`, as Sluice wrote
 * Parquet before the sink benchmark's speed work: whole columns in the writer's form (longs as
 * BigInt, structs as objects keyed by name), its Dremel encoder on every column, its snappyjs port.
 * The schema is the one Sluice writes for the same rows, read from the footer of an empty file, so
 * the two writers produce the same logical file and differ only in how they get there.
 */
import { parquetMetadata } from 'hyparquet';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { writeParquet } from '../core/io/parquet.js';
import type { DataType, StructType } from '../core/types/data-types.js';
import type { Row } from '../core/types/row.js';

/** Rows per row group, as Sluice's writer uses. */
const ROW_GROUP_ROWS = 100_000;

/** `rows` of `schema` (atomic columns and structs of them) as a SNAPPY Parquet file. */
export function writeWithStockHyparquet(rows: readonly Row[], schema: StructType): Uint8Array {
  const elements = parquetMetadata(writeParquet([], schema)).schema;
  const columnData = schema.fields.map((f, i) => {
    const convert = writerForm(f.dataType);
    return { name: f.name, data: rows.map((row) => convert(row[i])) };
  });
  return new Uint8Array(
    parquetWriteBuffer({
      columnData,
      schema: elements as Parameters<typeof parquetWriteBuffer>[0]['schema'],
      codec: 'SNAPPY',
      rowGroupSize: ROW_GROUP_ROWS,
    }),
  );
}

function writerForm(t: DataType): (value: unknown) => unknown {
  switch (t.kind) {
    case 'long':
      return (v) => (v === null || v === undefined ? null : BigInt(v as number));
    case 'struct': {
      const fields = t.fields.map((f) => ({ name: f.name, convert: writerForm(f.dataType) }));
      return (v) =>
        v === null || v === undefined
          ? null
          : Object.fromEntries(
              fields.map(({ name, convert }, i) => [name, convert((v as Row)[i])]),
            );
    }
    default:
      return (v) => v ?? null;
  }
}
