import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  AnalysisError,
  type DeltaAction,
  DeltaLog,
  DeltaSnapshot,
  DeltaTableError,
  LocalDirectoryStore,
  MemoryObjectStore,
  SluiceSession,
  UnsafePathError,
} from '../../core/index.js';
import { decodeCommit, encodeCommit } from '../../core/delta/delta-actions.js';
import { commitKey } from '../../core/delta/delta-log.js';
import { parseDeltaSchema, toDeltaSchemaString } from '../../core/delta/delta-schema.js';
import { parseSchema } from '../../core/types/type-names.js';
import { tempDir } from '../support/temp-dir.js';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

const SCHEMA = parseSchema('id LONG, name STRING, day DATE');

const protocol: DeltaAction = { protocol: { minReaderVersion: 1, minWriterVersion: 2 } };
const metaData: DeltaAction = {
  metaData: {
    id: 'table-1',
    format: { provider: 'parquet', options: {} },
    schemaString: toDeltaSchemaString(SCHEMA),
    partitionColumns: ['day'],
    configuration: { 'delta.appendOnly': 'false' },
    createdTime: 1,
  },
};
const add = (p: string, day = '2026-01-01'): DeltaAction => ({
  add: {
    path: p,
    partitionValues: { day },
    size: 100,
    modificationTime: 2,
    dataChange: true,
    stats: '{"numRecords":1}',
  },
});
const remove = (p: string): DeltaAction => ({
  remove: { path: p, deletionTimestamp: 3, dataChange: true },
});
const txn = (appId: string, version: number): DeltaAction => ({ txn: { appId, version } });

describe('commit files', () => {
  it('round-trip every action, one JSON line each', () => {
    const actions: DeltaAction[] = [
      { commitInfo: { timestamp: 5, operation: 'STREAMING UPDATE' } },
      protocol,
      metaData,
      txn('query-1', 0),
      add('day=2026-01-01/part-00000-a.c000.snappy.parquet'),
      {
        remove: {
          path: 'day=2026-01-01/part-00000-b.c000.snappy.parquet',
          deletionTimestamp: 3,
          dataChange: true,
          extendedFileMetadata: true,
          partitionValues: { day: '2026-01-01' },
          size: 7,
        },
      },
    ];
    const encoded = encodeCommit(actions);
    const text = new TextDecoder().decode(encoded);
    expect(text.split('\n')).toHaveLength(actions.length + 1);
    expect(text.split('\n')[0]).toBe(
      '{"commitInfo":{"timestamp":5,"operation":"STREAMING UPDATE"}}',
    );
    expect(decodeCommit(encoded, 'test')).toEqual(actions);
  });

  it('read a commit as Spark writes it: unknown actions and fields skipped, configuration defaulted', () => {
    const spark = [
      '{"commitInfo":{"timestamp":1700000000000,"operation":"WRITE","operationParameters":{"mode":"Append","partitionBy":"[]"},"isolationLevel":"Serializable","isBlindAppend":true,"operationMetrics":{"numFiles":"1"},"engineInfo":"Apache-Spark/3.5.0 Delta-Lake/3.1.0","txnId":"8c0e"}}',
      '{"protocol":{"minReaderVersion":1,"minWriterVersion":2}}',
      '{"metaData":{"id":"5b8e","format":{"provider":"parquet","options":{}},"schemaString":"{\\"type\\":\\"struct\\",\\"fields\\":[{\\"name\\":\\"a\\",\\"type\\":\\"short\\",\\"nullable\\":true,\\"metadata\\":{}}]}","partitionColumns":[],"createdTime":1700000000000}}',
      '{"add":{"path":"part-00000-1f.c000.snappy.parquet","partitionValues":{},"size":452,"modificationTime":1700000000000,"dataChange":true,"stats":"{\\"numRecords\\":1}","tags":{"INSERTION_TIME":"1"},"deletionVector":null}}',
      '{"cdc":{"path":"_change_data/cdc-1.parquet","partitionValues":{},"size":1,"dataChange":false}}',
      '{"domainMetadata":{"domain":"x","configuration":"{}","removed":false}}',
    ].join('\n');
    const actions = decodeCommit(bytes(spark), 'spark/_delta_log/00000000000000000000.json');
    expect(actions.map((a) => Object.keys(a)[0])).toEqual([
      'commitInfo',
      'protocol',
      'metaData',
      'add',
    ]);
    const snapshot = DeltaSnapshot.replay('spark', undefined, [{ version: 0, actions }]);
    expect(snapshot.metadata.configuration).toEqual({});
    expect(snapshot.schema).toEqual(parseSchema('a INT'));
    expect([...snapshot.files.keys()]).toEqual(['part-00000-1f.c000.snappy.parquet']);
  });

  it('fail naming the file and line when a line is not JSON or lacks a required field', () => {
    expect(() =>
      decodeCommit(bytes('{"txn":{"appId":"q","version":1}}\n{oops'), 'log/1.json'),
    ).toThrow(/Delta log file log\/1\.json: line 2 is not JSON/);
    expect(() =>
      decodeCommit(
        bytes('{"add":{"path":"p","partitionValues":{},"modificationTime":1,"dataChange":true}}'),
        'log/2.json',
      ),
    ).toThrow(/line 1 has a 'add' action without a valid 'size' \(number\)/);
    expect(() => decodeCommit(bytes('[1]'), 'log/3.json')).toThrow(DeltaTableError);
  });
});

describe('table schemas in the log', () => {
  it('round-trip every Sluice type, nested ones included', () => {
    const schema = parseSchema(
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
        'm MAP<STRING,LONG>',
        'st STRUCT<a:INT, tags:ARRAY<STRING>, inner:STRUCT<x:BINARY, y:LONG>>',
      ].join(', '),
    );
    expect(parseDeltaSchema(toDeltaSchemaString(schema), 't')).toEqual(schema);
  });

  it("are written in Spark's JSON form", () => {
    expect(
      JSON.parse(
        toDeltaSchemaString(
          parseSchema('a INT NOT NULL, w STRUCT<start: TIMESTAMP>, c ARRAY<STRING>'),
        ),
      ),
    ).toEqual({
      type: 'struct',
      fields: [
        { name: 'a', type: 'integer', nullable: false, metadata: {} },
        {
          name: 'w',
          type: {
            type: 'struct',
            fields: [{ name: 'start', type: 'timestamp', nullable: true, metadata: {} }],
          },
          nullable: true,
          metadata: {},
        },
        {
          name: 'c',
          type: { type: 'array', elementType: 'string', containsNull: true },
          nullable: true,
          metadata: {},
        },
      ],
    });
  });

  it("map Delta's other types as the Parquet reader does and refuse unknown ones, naming the column", () => {
    const delta = (type: string) =>
      JSON.stringify({
        type: 'struct',
        fields: [{ name: 'x', type, nullable: true, metadata: {} }],
      });
    expect(parseDeltaSchema(delta('decimal(10,2)'), 't')).toEqual(parseSchema('x DOUBLE'));
    expect(parseDeltaSchema(delta('float'), 't')).toEqual(parseSchema('x DOUBLE'));
    expect(parseDeltaSchema(delta('byte'), 't')).toEqual(parseSchema('x INT'));
    expect(parseDeltaSchema(delta('timestamp_ntz'), 't')).toEqual(parseSchema('x TIMESTAMP'));
    expect(() => parseDeltaSchema(delta('variant'), 'tbl')).toThrow(
      /Delta table tbl: column 'x' has type 'variant', which Sluice cannot read/,
    );
    expect(() => parseDeltaSchema('{"type":"struct"', 'tbl')).toThrow(/schemaString is not JSON/);
  });
});

describe('snapshots', () => {
  it('replay adds, removes (a removed path may come back) and the latest txn of each appId', () => {
    const snapshot = DeltaSnapshot.replay('t', undefined, [
      { version: 0, actions: [protocol, metaData, add('a.parquet'), txn('q1', 0)] },
      { version: 1, actions: [add('b.parquet'), add('c.parquet'), txn('q1', 1), txn('q2', 7)] },
      { version: 2, actions: [remove('a.parquet'), remove('b.parquet'), txn('q1', 2)] },
      { version: 3, actions: [add('b.parquet', '2026-01-02')] },
    ]);
    expect(snapshot.version).toBe(3);
    expect([...snapshot.files.keys()].sort()).toEqual(['b.parquet', 'c.parquet']);
    expect(snapshot.files.get('b.parquet')!.partitionValues).toEqual({ day: '2026-01-02' });
    expect(snapshot.transactionVersion('q1')).toBe(2);
    expect(snapshot.transactionVersion('q2')).toBe(7);
    expect(snapshot.transactionVersion('q3')).toBeUndefined();
    expect(snapshot.schema).toEqual(SCHEMA);
    expect(snapshot.partitionColumns).toEqual(['day']);
    expect(snapshot.dataSchema).toEqual(parseSchema('id LONG, name STRING'));
  });

  it('continue from a previous snapshot without changing it', () => {
    const first = DeltaSnapshot.replay('t', undefined, [
      { version: 0, actions: [protocol, metaData, add('a.parquet')] },
    ]);
    const second = DeltaSnapshot.replay('t', first, [
      { version: 1, actions: [remove('a.parquet'), add('b.parquet')] },
    ]);
    expect([...first.files.keys()]).toEqual(['a.parquet']);
    expect([...second.files.keys()]).toEqual(['b.parquet']);
    expect(second.schema).toBe(first.schema);
  });

  it('key files by the decoded URI path', () => {
    const snapshot = DeltaSnapshot.replay('t', undefined, [
      { version: 0, actions: [protocol, metaData, add('day=a%253Ab/x%20y.parquet')] },
      { version: 1, actions: [add('day=c/z.parquet'), remove('day=c/z.parquet')] },
    ]);
    expect([...snapshot.files.keys()]).toEqual(['day=a%3Ab/x y.parquet']);
  });

  it('refuse a log that skips a version, lacks protocol or metadata, needs a newer reader, or points outside the table', () => {
    expect(() =>
      DeltaSnapshot.replay('tbl', undefined, [
        { version: 0, actions: [protocol, metaData] },
        { version: 2, actions: [] },
      ]),
    ).toThrow(/Delta table tbl: the log jumps from version 0 to 2; version 1 is missing/);
    expect(() =>
      DeltaSnapshot.replay('tbl', undefined, [{ version: 0, actions: [metaData] }]),
    ).toThrow(/has no protocol action/);
    expect(() =>
      DeltaSnapshot.replay('tbl', undefined, [
        {
          version: 0,
          actions: [{ protocol: { minReaderVersion: 3, minWriterVersion: 7 } }, metaData],
        },
      ]),
    ).toThrow(/Delta table tbl needs a Delta reader of version 3 .*Sluice reads version 1/);
    expect(() =>
      DeltaSnapshot.replay('tbl', undefined, [
        { version: 0, actions: [protocol, metaData, add('s3://other-bucket/x.parquet')] },
      ]),
    ).toThrow(UnsafePathError);
  });
});

describe('DeltaLog', () => {
  it('names commit files by the version in 20 digits', () => {
    expect(commitKey(0)).toBe('_delta_log/00000000000000000000.json');
    expect(commitKey(1234)).toBe('_delta_log/00000000000000001234.json');
  });

  it('reads the snapshot of the commits in the store, and only new ones after a previous snapshot', async () => {
    const store = new MemoryObjectStore();
    const log = new DeltaLog(store);
    expect(await log.snapshot()).toBeUndefined();
    expect(await log.commit(0, [protocol, metaData, add('a.parquet')])).toEqual({
      kind: 'created',
    });
    await store.put('_delta_log/_last_checkpoint', bytes('{}'));
    await store.put('_delta_log/00000000000000000000.crc', bytes('{}'));
    const first = (await log.snapshot())!;
    expect(first.version).toBe(0);
    expect(await log.snapshot(first)).toBe(first);
    expect(await log.commit(1, [add('b.parquet')])).toEqual({ kind: 'created' });
    const second = await log.snapshot(first);
    expect(second.version).toBe(1);
    expect([...second.files.keys()]).toEqual(['a.parquet', 'b.parquet']);
    expect(await log.versions()).toEqual([0, 1]);
  });

  it('refuses a log whose first commits were cleaned up without a checkpoint to cover them', async () => {
    const store = new MemoryObjectStore('mem://t');
    const log = new DeltaLog(store);
    await log.commit(5, [protocol, metaData]);
    await expect(log.snapshot()).rejects.toThrow(
      /Delta table mem:\/\/t: the log starts at version 5 and no complete checkpoint covers the versions before it/,
    );
  });

  it('lets exactly one of two writers racing on the local filesystem create a version', async () => {
    const table = tempDir('sluice-delta-');
    const a = new DeltaLog(new LocalDirectoryStore(table));
    const b = new DeltaLog(new LocalDirectoryStore(table));
    const results = await Promise.all([
      a.commit(0, [protocol, metaData, txn('a', 0)]),
      b.commit(0, [protocol, metaData, txn('b', 0)]),
    ]);
    const winner = results[0].kind === 'created' ? 'a' : 'b';
    expect(results.map((r) => r.kind).sort()).toEqual(['created', 'exists']);
    expect((await a.snapshot())!.transactionVersion(winner)).toBe(0);
    // the loser is told the winner's commit, as the version holds it
    const lost = results.find((r) => r.kind === 'exists');
    expect(lost).toEqual({
      kind: 'exists',
      winner: { version: 0, actions: [protocol, metaData, txn(winner, 0)] },
    });
  });

  it('read.delta on a directory without a log fails with AnalysisError', async () => {
    const dir = tempDir('sluice-delta-');
    mkdirSync(path.join(dir, '_delta_log'));
    writeFileSync(path.join(dir, 'part-0.parquet'), '');
    await expect(new SluiceSession().read.delta(dir)).rejects.toThrow(AnalysisError);
    await expect(new SluiceSession().read.delta(dir)).rejects.toThrow(/is not a Delta table/);
  });
});
