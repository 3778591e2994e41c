import path from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeltaLog, DeltaSink, type DeltaSinkOptions, SluiceSession } from '../../core/index.js';
import { tempDir } from '../support/temp-dir.js';
import { batchResult, canonical, clickBatches, streamAll } from './window-counts.js';

let duck: DuckDBConnection;

beforeAll(async () => {
  duck = await (await DuckDBInstance.create(':memory:')).connect();
});

afterAll(() => duck.closeSync());

/** Runs SQL in DuckDB; rows as JSON-safe objects (BIGINTs as strings). */
async function query(sql: string): Promise<Record<string, unknown>[]> {
  return (await duck.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[];
}

const sqlString = (text: string): string => `'${text.replaceAll("'", "''")}'`;

/** Streams the canonical query into a new Delta table; returns its directory and the input. */
async function streamedTable(options: DeltaSinkOptions) {
  const table = tempDir('sluice-delta-');
  const chunks = clickBatches();
  await streamAll(new DeltaSink(table, options), chunks);
  const snapshot = (await DeltaLog.at(table).snapshot())!;
  return { table, snapshot, expected: await batchResult(chunks.flat()) };
}

/** DuckDB's reading of one data file, in `canonical` form, the category taken from `category`. */
async function duckRows(file: string, category?: string | null): Promise<string[]> {
  const categoryColumn = category === undefined ? 'category' : 'NULL::VARCHAR';
  const rows = await query(
    `SELECT epoch_us("window"."start") AS s, epoch_us("window"."end") AS e, ${categoryColumn} AS category, n
     FROM read_parquet(${sqlString(file)})`,
  );
  return rows.map((r) =>
    JSON.stringify([
      Number(r.s),
      Number(r.e),
      category === undefined ? r.category : category,
      Number(r.n),
    ]),
  );
}

describe('DuckDB reading the Parquet files the Delta sink writes', () => {
  it('sees in every file of an unpartitioned table the rows read.delta returns (gzip files)', async () => {
    const { table, snapshot, expected } = await streamedTable({ compression: 'gzip' });
    const files = [...snapshot.files.keys()];
    expect(files.every((f) => f.endsWith('.gz.parquet'))).toBe(true);
    const viaDuck = (await Promise.all(files.map((f) => duckRows(path.join(table, f))))).flat();
    expect(viaDuck.sort()).toEqual(expected);
    const viaDelta = canonical(await (await new SluiceSession().read.delta(table)).collect());
    expect(viaDelta).toEqual(expected);

    // each add action's numRecords is the file's row count in the Parquet footer
    for (const [key, add] of snapshot.files) {
      const [meta] = await query(
        `SELECT num_rows FROM parquet_file_metadata(${sqlString(path.join(table, key))})`,
      );
      expect(Number(meta.num_rows)).toBe(
        (JSON.parse(add.stats!) as { numRecords: number }).numRecords,
      );
    }
  });

  it('reads a partitioned table through its files and the log, and with hive_partitioning from the directories', async () => {
    const { table, snapshot, expected } = await streamedTable({ partitionBy: ['category'] });
    const perFile = await Promise.all(
      [...snapshot.files].map(([key, add]) =>
        duckRows(path.join(table, key), add.partitionValues.category),
      ),
    );
    expect(perFile.flat().sort()).toEqual(expected);

    // DuckDB's own reading of the Hive directories, for the categories without escaped characters
    const plain = [...snapshot.files].filter(([key]) => !key.includes('%'));
    const list = plain.map(([key]) => sqlString(path.join(table, key))).join(', ');
    const hive = await query(
      `SELECT epoch_us("window"."start") AS s, epoch_us("window"."end") AS e, category, n
       FROM read_parquet([${list}], hive_partitioning = true)`,
    );
    const viaHive = hive
      .map((r) => JSON.stringify([Number(r.s), Number(r.e), r.category, Number(r.n)]))
      .sort();
    const plainCategories = new Set(plain.map(([, add]) => add.partitionValues.category));
    expect(viaHive).toEqual(
      expected.filter((row) => plainCategories.has(JSON.parse(row)[2] as string | null)),
    );
    expect(viaHive.length).toBeGreaterThan(0);
  });
});
