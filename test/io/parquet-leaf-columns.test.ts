import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { parquetMetadata } from 'hyparquet';
import type { SchemaElement } from 'hyparquet-writer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExecutionError } from '../../core/errors.js';
import { columnShredders } from '../../core/io/parquet-leaf-columns.js';
import { readParquet, writeParquet } from '../../core/io/parquet.js';
import type { StructType } from '../../core/types/data-types.js';
import type { Row } from '../../core/types/row.js';
import { parseSchema } from '../../core/types/type-names.js';

/** The Parquet schema elements Sluice writes for `schema`, from an empty file's footer. */
function elements(schema: StructType): SchemaElement[] {
  return parquetMetadata(writeParquet([], schema)).schema as SchemaElement[];
}

/** Each leaf's dotted name with its values and definition levels for rows [start, end). */
function shred(schema: StructType, rows: readonly Row[], start = 0, end = rows.length) {
  return columnShredders(schema, elements(schema)).flatMap((shredder) =>
    shredder(rows, start, end).map(({ schemaPath, pageData, encoding }) => ({
      leaf: schemaPath
        .slice(1)
        .map((e) => e.name)
        .join('.'),
      values: Array.from(pageData.values),
      definitionLevels: pageData.definitionLevels,
      repetitionLevels: pageData.repetitionLevels,
      maxDefinitionLevel: pageData.maxDefinitionLevel,
      encoding,
    })),
  );
}

const WINDOWS = parseSchema('w STRUCT<a: INT, b: STRUCT<c: LONG NOT NULL>>, n LONG NOT NULL');

describe('shredding rows into leaf columns', () => {
  it('counts, per row, the levels of a struct path that are not NULL as its definition level', () => {
    const rows: Row[] = [
      [[1, [5]], 10],
      [[null, null], 11],
      [null, 12],
      [[2, [6]], 13],
    ];
    expect(shred(WINDOWS, rows)).toEqual([
      {
        leaf: 'w.a',
        values: [1, null, null, 2],
        definitionLevels: [2, 1, 0, 2],
        repetitionLevels: [],
        maxDefinitionLevel: 2,
        encoding: 'PLAIN',
      },
      {
        // c is NOT NULL, so only w and b add a level
        leaf: 'w.b.c',
        values: [5n, null, null, 6n],
        definitionLevels: [2, 1, 0, 2],
        repetitionLevels: [],
        maxDefinitionLevel: 2,
        encoding: 'PLAIN',
      },
      {
        leaf: 'n',
        values: [10n, 11n, 12n, 13n],
        definitionLevels: [],
        repetitionLevels: [],
        maxDefinitionLevel: 0,
        encoding: 'PLAIN',
      },
    ]);
  });

  it('shreds only the rows of the range asked for, as a row group needs', () => {
    const rows: Row[] = [0, 1, 2, 3, 4].map((n) => [[n, [n]], n]);
    const [a] = shred(WINDOWS, rows, 2, 4);
    expect(a.values).toEqual([2, 3]);
  });

  it('refuses NULL in a NOT NULL field of a present struct, naming the dotted column and the row', () => {
    const rows: Row[] = [
      [[1, [5]], 1],
      [[1, [null]], 2],
    ];
    expect(() => shred(WINDOWS, rows)).toThrow(ExecutionError);
    expect(() => shred(WINDOWS, rows)).toThrow(
      /non-nullable Parquet column 'w\.b\.c' \(row 1\); make the column nullable/,
    );
    expect(() => shred(WINDOWS, [[null, null]])).toThrow(
      /non-nullable Parquet column 'n' \(row 0\)/,
    );
  });

  it('hands strings over as UTF-8 bytes, with the encoding their repeats call for', () => {
    const rows: Row[] = [...Array.from({ length: 8 }, () => ['héllo']), [null]];
    const [{ values, encoding }] = shred(parseSchema('s STRING'), rows);
    const bytes = new TextEncoder().encode('héllo');
    expect(values).toEqual([...Array.from({ length: 8 }, () => bytes), null]);
    expect(encoding).toBe('RLE_DICTIONARY');
  });

  it('hands a column with a list or a map to the Dremel encoder, which chooses its encoding', () => {
    const schema = parseSchema('tags ARRAY<STRING>');
    const [{ values, definitionLevels, repetitionLevels, encoding }] = shred(schema, [
      [['a', 'b']],
      [[]],
    ]);
    expect(encoding).toBe(undefined);
    expect(values).toEqual(['a', 'b', undefined]);
    expect(definitionLevels).toEqual([3, 3, 1]);
    expect(repetitionLevels).toEqual([0, 1, 0]);
  });
});

describe('files written from shredded leaves', () => {
  let dir: string;
  let duck: DuckDBConnection;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sluice-leaves-'));
    duck = await (await DuckDBInstance.create(':memory:')).connect();
  });

  afterAll(() => {
    duck.closeSync();
    rmSync(dir, { recursive: true, force: true });
  });

  const schema = parseSchema(
    'w STRUCT<start: TIMESTAMP, end: TIMESTAMP>, category STRING, n LONG NOT NULL, ' +
      'deep STRUCT<x: STRUCT<y: DOUBLE, z: STRING>>, tags ARRAY<STRING>, ' +
      'mixed STRUCT<k: INT, m: MAP<STRING, LONG>>',
  );
  const rows: Row[] = Array.from({ length: 300 }, (_, i) => [
    i % 7 === 0 ? null : [i * 1_000_000, i % 5 === 0 ? null : (i + 1) * 1_000_000],
    i % 11 === 0 ? null : ['books', 'spiel & spaß', '\u{1f600} emoji'][i % 3],
    i,
    i % 4 === 0 ? null : [i % 3 === 0 ? null : [i / 4, i % 2 === 0 ? null : `z${i}`]],
    i % 6 === 0 ? null : [`t${i % 3}`, 't'],
    [i, new Map([[`k${i % 2}`, i]])],
  ]);

  it('read back as the rows written', async () => {
    const { rows: read } = await readParquet(writeParquet(rows, schema));
    expect(read).toEqual(rows);
  });

  it('read back in DuckDB with the same values', async () => {
    const path = join(dir, 'leaves.parquet');
    writeFileSync(path, writeParquet(rows, schema));
    const result = await duck.runAndReadAll(
      `SELECT epoch_us(w.start) AS s, epoch_us(w."end") AS e, category, n, deep.x.y AS y, deep.x.z AS z
       FROM '${path}' ORDER BY n`,
    );
    expect(result.getRowsJson()).toEqual(
      rows.map((r) => {
        const w = r[0] as number[] | null;
        const x = (r[3] as unknown[] | null)?.[0] as [number, string | null] | null | undefined;
        const text = (v: number | null | undefined) =>
          v === null || v === undefined ? null : String(v);
        return [
          text(w?.[0]),
          text(w?.[1]),
          r[1],
          String(r[2]),
          x === null || x === undefined ? null : x[0],
          x === null || x === undefined ? null : x[1],
        ];
      }),
    );
  });
});
