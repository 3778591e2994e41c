/**
 * Feeds engine rows into a DuckDB table through DuckDB's appender, in data chunks of 2,048 rows (its
 * vector size), the fastest way DuckDB's Node API takes rows from JavaScript. Values are converted on
 * the way as DuckDB's API requires: longs to BigInt, timestamps (microseconds) to TIMESTAMPTZ values,
 * structs to struct values. This is the JavaScript-to-DuckDB cost the sink benchmark charges DuckDB,
 * as the Delta sink pays its own conversions (BigInt for INT64, UTF-8 bytes for strings).
 *
 * Timestamps are TIMESTAMPTZ, the instant type, so DuckDB writes them to Parquet as Sluice does
 * (isAdjustedToUTC) and both files read back as the same type.
 */
import {
  BIGINT,
  BOOLEAN,
  DOUBLE,
  type DuckDBConnection,
  DuckDBDataChunk,
  type DuckDBType,
  type DuckDBValue,
  INTEGER,
  STRUCT,
  structValue,
  TIMESTAMPTZ,
  timestampTZValue,
  VARCHAR,
} from '@duckdb/node-api';
import type { DataType, StructType } from '../core/types/data-types.js';
import type { Row } from '../core/types/row.js';

/** Rows per data chunk: DuckDB's vector size, the most a chunk holds. */
const CHUNK_ROWS = 2048;

/** A column's DuckDB type and how a non-null engine value becomes a DuckDB value. */
interface DuckDBColumn {
  readonly type: DuckDBType;
  readonly convert: (value: unknown) => DuckDBValue;
}

/** The `CREATE TABLE` column list for `schema`, names quoted. */
export function duckDbColumnList(schema: StructType): string {
  return schema.fields.map((f) => `"${f.name}" ${duckDbColumn(f.dataType).type}`).join(', ');
}

/** Appends `rows` of `schema` to the existing DuckDB table `table`. */
export async function appendRows(
  connection: DuckDBConnection,
  table: string,
  rows: readonly Row[],
  schema: StructType,
): Promise<void> {
  const columns = schema.fields.map((f) => duckDbColumn(f.dataType));
  const types = columns.map((c) => c.type);
  const appender = await connection.createAppender(table);
  for (let start = 0; start < rows.length; start += CHUNK_ROWS) {
    const end = Math.min(start + CHUNK_ROWS, rows.length);
    const chunk = DuckDBDataChunk.create(types, end - start);
    chunk.setColumns(
      columns.map(({ convert }, j) => {
        const values = new Array<DuckDBValue>(end - start);
        for (let r = start; r < end; r++) {
          const v = rows[r][j];
          values[r - start] = v === null || v === undefined ? null : convert(v);
        }
        return values;
      }),
    );
    appender.appendDataChunk(chunk);
  }
  appender.closeSync();
}

function duckDbColumn(t: DataType): DuckDBColumn {
  switch (t.kind) {
    case 'long':
      return { type: BIGINT, convert: (v) => BigInt(v as number) };
    case 'int':
      return { type: INTEGER, convert: (v) => v as number };
    case 'double':
      return { type: DOUBLE, convert: (v) => v as number };
    case 'boolean':
      return { type: BOOLEAN, convert: (v) => v as boolean };
    case 'string':
      return { type: VARCHAR, convert: (v) => v as string };
    case 'timestamp':
      return { type: TIMESTAMPTZ, convert: (v) => timestampTZValue(BigInt(v as number)) };
    case 'struct': {
      const fields = t.fields.map((f) => ({ name: f.name, column: duckDbColumn(f.dataType) }));
      return {
        type: STRUCT(Object.fromEntries(fields.map(({ name, column }) => [name, column.type]))),
        convert: (v) =>
          structValue(
            Object.fromEntries(
              fields.map(({ name, column }, i) => {
                const x = (v as Row)[i];
                return [name, x === null || x === undefined ? null : column.convert(x)];
              }),
            ),
          ),
      };
    }
    default:
      throw new Error(`The sink benchmark feeds DuckDB no ${t.kind} columns; add a conversion.`);
  }
}
