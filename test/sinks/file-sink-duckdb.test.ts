import path from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileSink, FileSinkLog, LocalDirectoryStore } from '../../core/index.js';
import type { FileFormat } from '../../core/io/data-files.js';
import { tempDir } from '../support/temp-dir.js';
import {
  batchResult,
  clickBatches,
  clickStream,
  CrashBeforeManifest,
  feed,
  FLUSH,
  startQuery,
} from './file-sink-query.js';

let duck: DuckDBConnection;

beforeAll(async () => {
  duck = await (await DuckDBInstance.create(':memory:')).connect();
});

afterAll(() => duck.closeSync());

const sqlString = (text: string): string => `'${text.replaceAll("'", "''")}'`;

/** DuckDB's table function over a list of files of `format`. */
function duckScan(format: FileFormat, files: readonly string[]): string {
  const list = `[${files.map(sqlString).join(', ')}]`;
  switch (format) {
    case 'parquet':
      return `read_parquet(${list})`;
    case 'json':
      return `read_json(${list}, format = 'newline_delimited', columns = {start: 'TIMESTAMPTZ', "end": 'TIMESTAMPTZ', category: 'VARCHAR', n: 'BIGINT'})`;
    default:
      return `read_csv(${list}, header = true, columns = {start: 'TIMESTAMPTZ', "end": 'TIMESTAMPTZ', category: 'VARCHAR', n: 'BIGINT'})`;
  }
}

/** The query's rows as DuckDB reads them from `files`, in the tests' canonical form. */
async function duckRows(format: FileFormat, files: readonly string[]): Promise<string[]> {
  const reader = await duck.runAndReadAll(
    `SELECT epoch_us(start) AS s, epoch_us("end") AS e, category, n FROM ${duckScan(format, files)}`,
  );
  return (reader.getRowObjectsJson() as Record<string, unknown>[])
    .map((r) => JSON.stringify([Number(r.s), Number(r.e), r.category, Number(r.n)]))
    .sort();
}

/**
 * Streams the query into `format` files with an attempt that crashed before its manifest, so the
 * directory holds a file the log does not list.
 */
async function outputWithOrphan(format: FileFormat) {
  const dir = tempDir('sluice-files-');
  const checkpoint = tempDir();
  const chunks = clickBatches(3);
  const events = clickStream();
  const csv = { header: true };
  const crashing = new CrashBeforeManifest(new LocalDirectoryStore(dir));
  const first = await startQuery({
    events,
    checkpoint,
    sink: new FileSink(crashing, { format, csv }),
  });
  events.addData(chunks[0]);
  await expect(first.processAllAvailable()).rejects.toThrow(/crash before creating/);
  const second = await startQuery({
    events,
    checkpoint,
    sink: new FileSink(new LocalDirectoryStore(dir), { format, csv }),
  });
  await feed(second, events, [...chunks.slice(1), [FLUSH]]);
  await second.stop();
  const listed = await new FileSinkLog(new LocalDirectoryStore(dir)).allFiles();
  return {
    dir,
    listed: listed.map((f) => path.join(dir, f.path)),
    expected: await batchResult(chunks.flat()),
  };
}

describe('DuckDB reading the files the file sink lists', () => {
  it.each(['parquet', 'json', 'csv'] as const)(
    'reads the batch result from the listed %s files; a glob over the directory also reads the orphan',
    async (format) => {
      const { dir, listed, expected } = await outputWithOrphan(format);

      expect(await duckRows(format, listed)).toEqual(expected);
      const everything = await duckRows(format, [path.join(dir, 'part-*')]);
      expect(everything.length).toBeGreaterThan(expected.length);
    },
  );
});
