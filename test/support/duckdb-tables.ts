/**
 * DuckDB beside Sluice, for the DuckDB-checked suites: the same rows a test gives Sluice are loaded
 * into a table of an in-memory DuckDB, so a query can be asked of both engines and the answers
 * compared. Values cross as SQL literals (NaN and the infinities included), and DuckDB's answers
 * come back as rows of values in column order, its BIGINTs as numbers.
 */
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { type RowObject, Timestamp } from '../../core/index.js';
import type { DataType, StructType } from '../../core/types/data-types.js';

/** A connection to a fresh in-memory DuckDB; close it with `closeSync()` after the suite. */
export async function openDuckDB(): Promise<DuckDBConnection> {
  return (await DuckDBInstance.create(':memory:')).connect();
}

/** Creates table `name` with the columns of `schema` (as DuckDB types) and inserts `rows`. */
export async function loadDuckTable(
  duck: DuckDBConnection,
  name: string,
  schema: StructType,
  rows: readonly RowObject[],
): Promise<void> {
  const columns = schema.fields.map((f) => `"${f.name}" ${duckType(f.dataType)}`);
  await duck.run(`CREATE OR REPLACE TABLE ${name} (${columns.join(', ')})`);
  // one INSERT per thousand rows keeps each statement small for DuckDB's parser
  for (let start = 0; start < rows.length; start += 1000) {
    const values = rows
      .slice(start, start + 1000)
      .map((row) => `(${schema.fields.map((f) => sqlLiteral(row[f.name])).join(', ')})`);
    await duck.run(`INSERT INTO ${name} VALUES ${values.join(', ')}`);
  }
}

/** DuckDB's answer to `sql`: its column names, and each row's values in that order. */
export async function duckAnswer(
  duck: DuckDBConnection,
  sql: string,
): Promise<{ columns: string[]; rows: unknown[][] }> {
  const reader = await duck.runAndReadAll(sql);
  const rows = reader
    .getRowsJS()
    .map((row) => row.map((v) => (typeof v === 'bigint' ? Number(v) : v)));
  return { columns: reader.columnNames(), rows };
}

/** The DuckDB type holding values of Sluice type `type`. */
function duckType(type: DataType): string {
  switch (type.kind) {
    case 'string':
      return 'VARCHAR';
    case 'boolean':
      return 'BOOLEAN';
    case 'int':
      return 'INTEGER';
    case 'long':
      return 'BIGINT';
    case 'double':
      return 'DOUBLE';
    case 'timestamp':
      return 'TIMESTAMP';
    default:
      throw new Error(
        `loadDuckTable: no DuckDB column type for Sluice type ${type.kind}; add one here.`,
      );
  }
}

/** `v` as a DuckDB literal. */
function sqlLiteral(v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  if (v instanceof Timestamp) return `make_timestamp(${v.epochMicros})`;
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : `'${v}'::DOUBLE`;
  if (typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  return `'${String(v).replaceAll("'", "''")}'`;
}
