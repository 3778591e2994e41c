import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as zlib from 'node:zlib';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnalysisError, ExecutionError, InvalidOptionError } from '../../core/errors.js';
import { parquetFileSchema, readParquet, writeParquet } from '../../core/io/parquet.js';
import { type StructType, typeName } from '../../core/types/data-types.js';
import type { Row } from '../../core/types/row.js';
import { parseDate, parseTimestamp } from '../../core/types/timestamp-text.js';
import { parseSchema } from '../../core/types/type-names.js';

const zstdAvailable = 'zstdCompressSync' in zlib;

let dir: string;
let duck: DuckDBConnection;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sluice-parquet-'));
  duck = await (await DuckDBInstance.create(':memory:')).connect();
});

afterAll(() => {
  duck.closeSync();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs SQL in DuckDB and returns the rows as JSON-safe objects (BIGINTs as strings). */
async function query(sql: string): Promise<Record<string, unknown>[]> {
  return (await duck.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[];
}

function tempFile(name: string): string {
  return join(dir, name);
}

function ddl(schema: StructType): string {
  return schema.fields.map((f) => `${f.name} ${typeName(f.dataType)}`).join(', ');
}

const ts = (text: string): number => parseTimestamp(text)!;

/** Every Sluice type Parquet can hold, nested ones included. */
const ALL_TYPES = parseSchema(
  [
    's STRING',
    'b BOOLEAN',
    'i INT',
    'l LONG',
    'd DOUBLE',
    'ts TIMESTAMP',
    'dt DATE',
    'bin BINARY',
    'arr ARRAY<INT>',
    'names ARRAY<STRING>',
    'm MAP<STRING,LONG>',
    'mi MAP<INT,TIMESTAMP>',
    'st STRUCT<a:INT, tags:ARRAY<STRING>, inner:STRUCT<x:BINARY, y:LONG>>',
    'nested ARRAY<ARRAY<STRUCT<k:STRING>>>',
  ].join(', '),
);

const ALL_TYPES_ROWS: Row[] = [
  [
    'héllo, wörld',
    true,
    -2147483648,
    9007199254740991,
    1.5,
    ts('2024-01-01 00:00:00.123456'),
    19723,
    new Uint8Array([0, 255, 7]),
    [1, null, 3],
    ['a', null, ''],
    new Map<string, number | null>([
      ['one', 1],
      ['none', null],
    ]),
    new Map([[2, ts('1969-12-31 23:59:59.999999')]]),
    [7, ['x', null], [new Uint8Array([9]), -9007199254740991]],
    [[['k1'], null], [], null],
  ],
  [null, null, null, null, null, null, null, null, null, null, null, null, null, null],
  [
    '',
    false,
    2147483647,
    -1,
    -0.001,
    -1,
    -719162,
    new Uint8Array([]),
    [],
    [],
    new Map(),
    new Map(),
    [null, null, null],
    [[null]],
  ],
  ['x', true, 0, 0, NaN, 0, 0, new Uint8Array([1]), [0], ['z'], null, null, [1, [], null], null],
  ['y', false, 1, 1, Infinity, 1, 1, null, null, null, new Map([['k', 0]]), null, null, null],
];

describe('writeParquet then readParquet', () => {
  it('round-trips every supported type, including NULLs, empty collections and extreme values', async () => {
    const { schema, rows } = await readParquet(writeParquet(ALL_TYPES_ROWS, ALL_TYPES));
    expect(ddl(schema)).toBe(ddl(ALL_TYPES));
    expect(rows).toEqual(ALL_TYPES_ROWS);
  });

  it('reads every column as nullable, even when it was written REQUIRED', async () => {
    const strict = parseSchema(
      'a INT NOT NULL, b ARRAY<STRING> NOT NULL, c BOOLEAN NOT NULL, d LONG NOT NULL, e TIMESTAMP NOT NULL',
    );
    const strictRows = Array.from({ length: 20 }, (_, i) => [
      i,
      ['x'],
      i % 3 === 0,
      i - 10,
      i * 1000,
    ]);
    const { schema, rows } = await readParquet(writeParquet(strictRows, strict));
    expect(schema.fields.every((f) => f.nullable)).toBe(true);
    expect(rows).toEqual(strictRows);
  });

  it('writes several row groups for many rows and reads them back in order', async () => {
    const schema = parseSchema('id LONG, name STRING, price DOUBLE');
    const count = 120_000;
    const rows = Array.from({ length: count }, (_, i) => [
      i,
      `user-${i % 500}`,
      i % 7 ? i / 4 : null,
    ]);
    const bytes = writeParquet(rows, schema);
    const path = tempFile('many-rows.parquet');
    writeFileSync(path, bytes);
    const [groups] = await query(
      `SELECT count(DISTINCT row_group_id) AS n FROM parquet_metadata('${path}')`,
    );
    expect(Number(groups.n)).toBeGreaterThan(1);
    const back = (await readParquet(bytes)).rows;
    expect(back.length).toBe(count);
    // Not toEqual: a deep diff of 120,000 rows would dominate the test's time.
    expect(back.findIndex((row, i) => row.some((v, j) => v !== rows[i][j]))).toBe(-1);
  });

  it('returns an empty result for a file with no rows', async () => {
    const schema = parseSchema('a INT, b STRING');
    expect(await readParquet(writeParquet([], schema))).toEqual({ schema, rows: [] });
  });

  it.each(['UNCOMPRESSED', 'GZIP', 'SNAPPY'] as const)(
    'compresses with %s',
    async (compression) => {
      const schema = parseSchema('s STRING');
      const rows = Array.from({ length: 100 }, () => ['repeated text']);
      const bytes = writeParquet(rows, schema, { compression });
      expect((await readParquet(bytes)).rows).toEqual(rows);
    },
  );

  it('compresses with ZSTD where node:zlib has it, and otherwise refuses saying which Node.js has it', async () => {
    const write = () => writeParquet([['z']], parseSchema('s STRING'), { compression: 'ZSTD' });
    if (zstdAvailable) expect((await readParquet(write())).rows).toEqual([['z']]);
    else expect(write).toThrow(/ZSTD' needs Node\.js 22\.15/);
  });
});

describe('writeParquet refusals', () => {
  it('refuses NULL in a non-nullable column, naming the column', () => {
    const schema = parseSchema('id INT NOT NULL');
    expect(() => writeParquet([[1], [null]], schema)).toThrow(ExecutionError);
    expect(() => writeParquet([[1], [null]], schema)).toThrow(/non-nullable Parquet column 'id'/);
  });

  it('refuses schemas Parquet cannot hold, naming the column', () => {
    const voidColumn: StructType = {
      kind: 'struct',
      fields: [{ name: 'nothing', dataType: { kind: 'null' }, nullable: true }],
    };
    expect(() => writeParquet([], voidColumn)).toThrow(InvalidOptionError);
    expect(() => writeParquet([], voidColumn)).toThrow(/column 'nothing' of type void/);
    const emptyStruct: StructType = {
      kind: 'struct',
      fields: [{ name: 'e', dataType: { kind: 'struct', fields: [] }, nullable: true }],
    };
    expect(() => writeParquet([], emptyStruct)).toThrow(/column 'e'/);
    expect(() => writeParquet([], parseSchema('a INT, A STRING'))).toThrow(/'A' appears twice/);
    expect(() => writeParquet([], parseSchema('m MAP<ARRAY<INT>,INT>'))).toThrow(/column 'm'/);
    expect(() => writeParquet([], { kind: 'struct', fields: [] })).toThrow(InvalidOptionError);
  });

  it('refuses an unknown codec, listing the supported ones', () => {
    const run = () => writeParquet([], parseSchema('a INT'), { compression: 'LZO' as 'SNAPPY' });
    expect(run).toThrow(InvalidOptionError);
    expect(run).toThrow(/SNAPPY, GZIP, ZSTD, UNCOMPRESSED/);
  });
});

describe('readParquet with a schema', () => {
  const fileSchema = parseSchema('id INT, name STRING, total LONG, info STRUCT<a:INT, b:STRING>');
  const fileRows = [
    [1, 'ann', 10, [1, 'x']],
    [2, null, 20, null],
  ];
  let bytes: Uint8Array;
  beforeAll(() => {
    bytes = writeParquet(fileRows, fileSchema);
  });

  it('selects and reorders columns by name, ignoring case, and reads missing columns as NULL', async () => {
    const wanted = parseSchema('NAME STRING, missing DOUBLE, id INT');
    const { schema, rows } = await readParquet(bytes, { schema: wanted });
    expect(ddl(schema)).toBe('NAME string, missing double, id integer');
    expect(rows).toEqual([
      ['ann', null, 1],
      [null, null, 2],
    ]);
  });

  it('widens int to long and double, and long to double', async () => {
    const wanted = parseSchema('id LONG, total DOUBLE');
    expect((await readParquet(bytes, { schema: wanted })).rows).toEqual([
      [1, 10],
      [2, 20],
    ]);
  });

  it('matches struct fields by name, so a struct can be read in part', async () => {
    const wanted = parseSchema('info STRUCT<b:STRING, c:INT>');
    expect((await readParquet(bytes, { schema: wanted })).rows).toEqual([[['x', null]], [null]]);
  });

  it('converts map keys and values like columns, and refuses keys of another kind', async () => {
    const maps = writeParquet([[new Map([[7, 1]])]], parseSchema('m MAP<INT,INT>'));
    const widened = await readParquet(maps, { schema: parseSchema('m MAP<LONG,DOUBLE>') });
    expect(widened.rows).toEqual([[new Map([[7, 1]])]]);
    await expect(
      readParquet(maps, { schema: parseSchema('m MAP<STRING,INT>'), source: 'maps.parquet' }),
    ).rejects.toThrow(/column 'm.key' is integer in the file but the schema asks for string/);
  });

  it('refuses a type the file column cannot be read as, naming the file and the column', async () => {
    const wanted = parseSchema('name INT');
    const read = readParquet(bytes, { schema: wanted, source: 'lake/part-0.parquet' });
    await expect(read).rejects.toThrow(ExecutionError);
    await expect(
      readParquet(bytes, { schema: wanted, source: 'lake/part-0.parquet' }),
    ).rejects.toThrow(
      /lake\/part-0\.parquet: column 'name' is string in the file but the schema asks for integer/,
    );
  });
});

describe('parquetFileSchema', () => {
  it('returns the schema readParquet would, from the footer alone', () => {
    const bytes = writeParquet([], ALL_TYPES);
    expect(ddl(parquetFileSchema(bytes, 'x.parquet'))).toBe(ddl(ALL_TYPES));
  });
});

describe('DuckDB reads files written by writeParquet', () => {
  const schema = parseSchema(
    's STRING, b BOOLEAN, i INT, l LONG, d DOUBLE, ts TIMESTAMP, dt DATE, bin BINARY, ' +
      'arr ARRAY<INT>, m MAP<STRING,LONG>, st STRUCT<a:INT, tags:ARRAY<STRING>>',
  );
  const rows: Row[] = [
    [
      'héllo',
      true,
      -7,
      9007199254740991,
      2.25,
      ts('2024-05-06 07:08:09.123456'),
      19849,
      new Uint8Array([0xca, 0xfe]),
      [1, null],
      new Map([['k', 5]]),
      [3, ['p', null]],
    ],
    [null, null, null, null, null, null, null, null, null, null, null],
    [
      '',
      false,
      0,
      -1,
      -0.5,
      ts('1969-07-20 20:17:40'),
      -165,
      new Uint8Array(),
      [],
      new Map(),
      [null, []],
    ],
  ];
  let path: string;
  beforeAll(() => {
    path = tempFile('written-by-sluice.parquet');
    writeFileSync(path, writeParquet(rows, schema));
  });

  it('sees the logical types Spark writes', async () => {
    const columns = await query(`DESCRIBE SELECT * FROM '${path}'`);
    expect(columns.map((c) => `${String(c.column_name)} ${String(c.column_type)}`)).toEqual([
      's VARCHAR',
      'b BOOLEAN',
      'i INTEGER',
      'l BIGINT',
      'd DOUBLE',
      'ts TIMESTAMP WITH TIME ZONE',
      'dt DATE',
      'bin BLOB',
      'arr INTEGER[]',
      'm MAP(VARCHAR, BIGINT)',
      'st STRUCT(a INTEGER, tags VARCHAR[])',
    ]);
    const [tsColumn] = await query(
      `SELECT type, logical_type FROM parquet_schema('${path}') WHERE name = 'ts'`,
    );
    expect(tsColumn.type).toBe('INT64');
    expect(tsColumn.logical_type).toMatch(/isAdjustedToUTC=1.*MICROS=MicroSeconds/);
  });

  it('reads the same values', async () => {
    const values = await query(
      `SELECT s, b, i, l::VARCHAR AS l, d, epoch_us(ts)::VARCHAR AS ts, (dt - DATE '1970-01-01')::INTEGER AS dt,
              hex(bin) AS bin, to_json(arr)::VARCHAR AS arr, to_json(m)::VARCHAR AS m, to_json(st)::VARCHAR AS st
       FROM '${path}'`,
    );
    expect(values).toEqual([
      {
        s: 'héllo',
        b: true,
        i: -7,
        l: '9007199254740991',
        d: 2.25,
        ts: String(ts('2024-05-06 07:08:09.123456')),
        dt: 19849,
        bin: 'CAFE',
        arr: '[1,null]',
        m: '{"k":5}',
        st: '{"a":3,"tags":["p",null]}',
      },
      {
        s: null,
        b: null,
        i: null,
        l: null,
        d: null,
        ts: null,
        dt: null,
        bin: null,
        arr: null,
        m: null,
        st: null,
      },
      {
        s: '',
        b: false,
        i: 0,
        l: '-1',
        d: -0.5,
        ts: String(ts('1969-07-20 20:17:40')),
        dt: -165,
        bin: '',
        arr: '[]',
        m: '{}',
        st: '{"a":null,"tags":[]}',
      },
    ]);
  });
});

describe('readParquet reads files written by DuckDB', () => {
  /** Column name, DuckDB expression, Sluice type read, value read. */
  const COLUMNS: [string, string, string, unknown][] = [
    ['i', '-5::INTEGER', 'integer', -5],
    ['l', '9007199254740991::BIGINT', 'long', 9007199254740991],
    ['ti', '-3::TINYINT', 'integer', -3],
    ['si', '300::SMALLINT', 'integer', 300],
    ['ui', '4000000000::UINTEGER', 'long', 4000000000],
    ['ub', '12::UBIGINT', 'long', 12],
    ['d', '1.25::DOUBLE', 'double', 1.25],
    ['f', '2.5::FLOAT', 'double', 2.5],
    ['dec', '12.34::DECIMAL(10,2)', 'double', 12.34],
    ['bigdec', '123456789012.34::DECIMAL(20,2)', 'double', 123456789012.34],
    ['b', 'true', 'boolean', true],
    ['s', "'ünïcode'", 'string', 'ünïcode'],
    ['bl', "'\\xAB\\x00'::BLOB", 'binary', new Uint8Array([0xab, 0])],
    [
      'u',
      "'a1a2a3a4-b1b2-c1c2-d1d2-d3d4d5d6d7d8'::UUID",
      'string',
      'a1a2a3a4-b1b2-c1c2-d1d2-d3d4d5d6d7d8',
    ],
    ['j', `'{"a":1}'::JSON`, 'string', '{"a":1}'],
    ['e', "'ab'::ENUM('ab', 'cd')", 'string', 'ab'],
    ['dt', "DATE '1960-02-29'", 'date', parseDate('1960-02-29')],
    ['ts', "TIMESTAMP '2024-01-01 00:00:00.123456'", 'timestamp', ts('2024-01-01 00:00:00.123456')],
    ['tstz', "TIMESTAMPTZ '2024-01-01 01:00:00.5+01'", 'timestamp', ts('2024-01-01 00:00:00.5')],
    ['tsms', "TIMESTAMP_MS '2024-01-01 00:00:00.123'", 'timestamp', ts('2024-01-01 00:00:00.123')],
    ['tsns', "TIMESTAMP_NS '1969-12-31 23:59:59.999999999'", 'timestamp', -1],
    ['li', '[1, NULL, 3]', 'array<integer>', [1, null, 3]],
    [
      'm',
      "MAP {'k': 1.5, 'z': NULL}",
      'map<string,double>',
      new Map([
        ['k', 1.5],
        ['z', null],
      ]),
    ],
    ['mi', "MAP {7: 'seven'}", 'map<integer,string>', new Map([[7, 'seven']])],
    [
      'st',
      "{'a': 1, 'b': [{'c': 'z'}, NULL]}",
      'struct<a:integer,b:array<struct<c:string>>>',
      [1, [['z'], null]],
    ],
  ];

  it('maps every Parquet type DuckDB writes to the Sluice type and value', async () => {
    const path = tempFile('written-by-duckdb.parquet');
    const values = COLUMNS.map(([name, sql]) => `${sql} AS ${name}`).join(', ');
    const nulls = COLUMNS.map(([name]) => `NULL AS ${name}`).join(', ');
    await duck.run(
      `COPY (SELECT * FROM (SELECT 0 AS k, ${values} UNION ALL SELECT 1 AS k, ${nulls}) ORDER BY k)
       TO '${path}' (FORMAT parquet)`,
    );
    const { schema, rows } = await readParquet(readFileSync(path), { source: path });
    expect(schema.fields.slice(1).map((f) => `${f.name} ${typeName(f.dataType)}`)).toEqual(
      COLUMNS.map(([name, , type]) => `${name} ${type}`),
    );
    expect(rows).toEqual([
      [0, ...COLUMNS.map(([, , , value]) => value)],
      [1, ...COLUMNS.map(() => null)],
    ]);
  });

  it('reads many row groups in order', async () => {
    const path = tempFile('duckdb-row-groups.parquet');
    await duck.run(
      `COPY (SELECT range AS id, range % 3 = 0 AS flag FROM range(50000)) TO '${path}' (FORMAT parquet, ROW_GROUP_SIZE 10000)`,
    );
    const { rows } = await readParquet(readFileSync(path));
    expect(rows.length).toBe(50000);
    expect(rows.every((row, i) => row[0] === i && row[1] === (i % 3 === 0))).toBe(true);
  });

  it.each(['gzip', 'brotli', 'uncompressed'])('reads %s-compressed files', async (codec) => {
    const path = tempFile(`duckdb-${codec}.parquet`);
    await duck.run(
      `COPY (SELECT range AS id, 'v' || range AS v FROM range(3)) TO '${path}' (FORMAT parquet, COMPRESSION ${codec})`,
    );
    expect((await readParquet(readFileSync(path))).rows).toEqual([
      [0, 'v0'],
      [1, 'v1'],
      [2, 'v2'],
    ]);
  });

  it(`reads ZSTD files ${zstdAvailable ? '' : 'only on Node.js 22.15+, and says so'}`, async () => {
    const path = tempFile('duckdb-zstd.parquet');
    await duck.run(`COPY (SELECT 1 AS id) TO '${path}' (FORMAT parquet, COMPRESSION zstd)`);
    const read = readParquet(readFileSync(path), { source: path });
    if (zstdAvailable) await expect(read).resolves.toMatchObject({ rows: [[1]] });
    else await expect(read).rejects.toThrow(/ZSTD needs Node\.js 22\.15/);
  });

  it('refuses a long outside the safe integer range, naming the file and column; a DOUBLE schema reads it', async () => {
    const path = tempFile('duckdb-big-long.parquet');
    await duck.run(`COPY (SELECT 9007199254740993::BIGINT AS big) TO '${path}' (FORMAT parquet)`);
    const bytes = readFileSync(path);
    await expect(readParquet(bytes, { source: path })).rejects.toThrow(ExecutionError);
    await expect(readParquet(bytes, { source: path })).rejects.toThrow(
      new RegExp(`${path}: column 'big' holds 9007199254740993`),
    );
    const { rows } = await readParquet(bytes, { schema: parseSchema('big DOUBLE') });
    expect(rows).toEqual([[9007199254740992]]);
  });

  it('refuses a column type Sluice lacks, naming it, and reads the file without that column', async () => {
    const path = tempFile('duckdb-time.parquet');
    await duck.run(`COPY (SELECT TIME '12:00:00' AS t, 1 AS x) TO '${path}' (FORMAT parquet)`);
    const bytes = readFileSync(path);
    await expect(readParquet(bytes, { source: path })).rejects.toThrow(AnalysisError);
    await expect(readParquet(bytes, { source: path })).rejects.toThrow(
      /column 't' is INT64 \(TIME\)/,
    );
    expect((await readParquet(bytes, { schema: parseSchema('x INT') })).rows).toEqual([[1]]);
  });
});

describe('readParquet of unreadable input', () => {
  it('names the source when the bytes are not Parquet', async () => {
    const garbage = new TextEncoder().encode('id,name\n1,ann\n');
    await expect(readParquet(garbage, { source: 'data/oops.parquet' })).rejects.toThrow(
      ExecutionError,
    );
    await expect(readParquet(garbage, { source: 'data/oops.parquet' })).rejects.toThrow(
      /Cannot read Parquet file data\/oops\.parquet/,
    );
    await expect(readParquet(new Uint8Array(), { source: 'empty.parquet' })).rejects.toThrow(
      /empty\.parquet/,
    );
  });

  it('names the source when the file is truncated or its data is damaged', async () => {
    const bytes = writeParquet([[1, 'a']], parseSchema('a INT, b STRING'));
    await expect(
      readParquet(bytes.subarray(0, bytes.length - 10), { source: 'cut.parquet' }),
    ).rejects.toThrow(/Cannot read Parquet file cut\.parquet/);
    const damaged = bytes.slice();
    damaged.fill(0xff, 4, 40); // the first column chunk's page header
    await expect(readParquet(damaged, { source: 'damaged.parquet' })).rejects.toThrow(
      /Cannot read Parquet file damaged\.parquet/,
    );
  });
});
