import { statSync } from 'node:fs';
import path from 'node:path';
import * as zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  AnalysisError,
  type DeltaAction,
  DeltaLog,
  DeltaSink,
  DeltaTableError,
  InvalidOptionError,
  LocalDirectoryStore,
  MemoryObjectStore,
  SinkError,
  SluiceSession,
} from '../../core/index.js';
import { toDeltaSchemaString } from '../../core/delta/delta-schema.js';
import type { StructType } from '../../core/types/data-types.js';
import type { Row } from '../../core/types/row.js';
import { parseSchema } from '../../core/types/type-names.js';
import { tempDir } from '../support/temp-dir.js';
import { clickStream, startStream } from './window-counts.js';

const zstdAvailable = 'zstdCompressSync' in zlib;

const SCHEMA = parseSchema('id LONG, category STRING');
const rows = (...ids: number[]): Row[] => ids.map((id) => [id, id % 2 === 0 ? 'even' : 'odd']);

/** The table's rows through read.delta, sorted by id. */
async function tableRows(table: string | MemoryObjectStore) {
  const df = await new SluiceSession().read.delta(table);
  return (await df.collect()).sort((a, b) => (a.id as number) - (b.id as number));
}

/** A table whose log holds one hand-written version 0. */
async function tableWith(
  protocol: { minReaderVersion: number; minWriterVersion: number },
  schema: StructType | string,
  configuration: Record<string, string> = {},
  partitionColumns: string[] = [],
): Promise<string> {
  const table = tempDir('sluice-delta-');
  const actions: DeltaAction[] = [
    { protocol },
    {
      metaData: {
        id: 't',
        format: { provider: 'parquet', options: {} },
        schemaString: typeof schema === 'string' ? schema : toDeltaSchemaString(schema),
        partitionColumns,
        configuration,
      },
    },
  ];
  await DeltaLog.at(table).commit(0, actions);
  return table;
}

const open = (sink: DeltaSink, schema = SCHEMA, outputMode: 'append' | 'complete' = 'append') =>
  sink.open({ queryId: 'query-1', outputMode, schema });

describe('DeltaSink options', () => {
  it('are checked when the sink is made, naming the option', () => {
    const table = tempDir('sluice-delta-');
    expect(() => new DeltaSink(table, { targetFileSize: 0 })).toThrow(
      /DeltaSink option 'targetFileSize' must be a positive integer, got 0/,
    );
    expect(() => new DeltaSink(table, { maxCommitAttempts: 1.5 })).toThrow(
      /option 'maxCommitAttempts'/,
    );
    expect(() => new DeltaSink(table, { compression: 'lz4' })).toThrow(InvalidOptionError);
    expect(() => new DeltaSink(table, { appId: '' })).toThrow(/option 'appId'/);
    expect(() => new DeltaSink(table, { partitionBy: 'category' as unknown as string[] })).toThrow(
      /option 'partitionBy' must be an array/,
    );
    expect(
      () =>
        new DeltaSink(table, { configuration: { 'delta.appendOnly': true as unknown as string } }),
    ).toThrow(/table property 'delta.appendOnly' must be a string/);
  });

  it('compression ZSTD works where Node.js has zstd, and is refused at once where it has not', async () => {
    const table = tempDir('sluice-delta-');
    if (!zstdAvailable) {
      expect(() => new DeltaSink(table, { compression: 'zstd' })).toThrow(/Node\.js 22\.15/);
      return;
    }
    const sink = new DeltaSink(table, { compression: 'zstd' });
    await open(sink);
    await sink.addBatch(0, rows(1, 2), SCHEMA, 'append');
    const snapshot = (await DeltaLog.at(table).snapshot())!;
    expect([...snapshot.files.keys()][0]).toMatch(/\.zstd\.parquet$/);
    expect(await tableRows(table)).toHaveLength(2);
  });
});

describe('DeltaSink batches', () => {
  it('create the table with protocol 1/2, metaData and the txn in version 0', async () => {
    const table = tempDir('sluice-delta-');
    const sink = new DeltaSink(table, { configuration: { 'delta.appendOnly': 'true' } });
    await open(sink);
    await sink.addBatch(0, rows(1, 2, 3), SCHEMA, 'append');
    const actions = await DeltaLog.at(table).readCommit(0);
    expect(actions.map((a) => Object.keys(a)[0])).toEqual([
      'commitInfo',
      'protocol',
      'metaData',
      'txn',
      'add',
    ]);
    expect(actions[0]).toMatchObject({
      commitInfo: {
        operation: 'STREAMING UPDATE',
        operationParameters: { outputMode: 'Append', queryId: 'query-1', epochId: '0' },
        isBlindAppend: true,
      },
    });
    expect(actions[1]).toEqual({ protocol: { minReaderVersion: 1, minWriterVersion: 2 } });
    expect(actions[2]).toMatchObject({
      metaData: {
        format: { provider: 'parquet', options: {} },
        schemaString: toDeltaSchemaString(SCHEMA),
        partitionColumns: [],
        configuration: { 'delta.appendOnly': 'true' },
      },
    });
    expect(actions[3]).toMatchObject({ txn: { appId: 'query-1', version: 0 } });
    const { add } = actions[4] as Extract<DeltaAction, { add: unknown }>;
    expect(add.path).toMatch(/^part-00000-[0-9a-f-]{36}\.c000\.snappy\.parquet$/);
    expect(add.size).toBe(statSync(path.join(table, add.path)).size);
    expect(add.dataChange).toBe(true);
    expect(Math.abs(add.modificationTime - Date.now())).toBeLessThan(60_000);
    expect(JSON.parse(add.stats!)).toEqual({
      numRecords: 3,
      minValues: { id: 1, category: 'even' },
      maxValues: { id: 3, category: 'odd' },
      nullCount: { id: 0, category: 0 },
    });
  });

  it('write nothing for a batch whose txn version is already in the table, or an older one', async () => {
    const store = new MemoryObjectStore('mem://table');
    const sink = new DeltaSink(store, { appId: 'app' });
    await sink.addBatch(0, rows(1), SCHEMA, 'append');
    await sink.addBatch(1, rows(2), SCHEMA, 'append');
    const objects = (await store.list('')).length;
    // a new sink (a restarted process) with the same appId
    const again = new DeltaSink(store, { appId: 'app' });
    await again.addBatch(1, rows(2), SCHEMA, 'append');
    await again.addBatch(0, rows(1), SCHEMA, 'append');
    expect((await store.list('')).length).toBe(objects);
    await again.addBatch(2, rows(3), SCHEMA, 'append');
    expect((await tableRows(store)).map((r) => r.id)).toEqual([1, 2, 3]);
  });

  it('in complete mode remove every current file and add the new ones in one version', async () => {
    const store = new MemoryObjectStore('mem://table');
    const sink = new DeltaSink(store, { appId: 'app' });
    await sink.addBatch(0, rows(1, 2), SCHEMA, 'complete');
    await sink.addBatch(1, rows(7), SCHEMA, 'complete');
    await sink.addBatch(2, [], SCHEMA, 'complete');
    const log = new DeltaLog(store);
    const version = (v: number) => log.readCommit(v);
    const kinds = (actions: DeltaAction[]) => actions.map((a) => Object.keys(a)[0]);
    expect(kinds(await version(1))).toEqual(['commitInfo', 'txn', 'remove', 'add']);
    expect(kinds(await version(2))).toEqual(['commitInfo', 'txn', 'remove']);
    expect((await version(1))[0]).toMatchObject({
      commitInfo: { operationParameters: { outputMode: 'Complete' }, isBlindAppend: false },
    });
    expect(await tableRows(store)).toEqual([]);
  });

  it('an empty batch in append mode still commits its txn', async () => {
    const table = tempDir('sluice-delta-');
    const sink = new DeltaSink(table, { appId: 'app' });
    await sink.addBatch(0, [], SCHEMA, 'append');
    const snapshot = (await DeltaLog.at(table).snapshot())!;
    expect(snapshot.transactionVersion('app')).toBe(0);
    expect(snapshot.files.size).toBe(0);
    expect(await tableRows(table)).toEqual([]);
  });

  it('fails with SinkError naming the table and batch when no query opened it and no appId was given', async () => {
    const table = tempDir('sluice-delta-');
    await expect(new DeltaSink(table).addBatch(3, rows(1), SCHEMA, 'append')).rejects.toThrow(
      SinkError,
    );
    await expect(new DeltaSink(table).addBatch(3, rows(1), SCHEMA, 'append')).rejects.toThrow(
      /DeltaSink for table .* got batch 3 before a query opened it/,
    );
  });
});

describe('DeltaSink checks when a query starts', () => {
  it('refuses a query whose output does not match the existing table schema', async () => {
    const table = await tableWith(
      { minReaderVersion: 1, minWriterVersion: 2 },
      parseSchema('id LONG, other STRING'),
    );
    await expect(open(new DeltaSink(table))).rejects.toThrow(AnalysisError);
    await expect(open(new DeltaSink(table))).rejects.toThrow(
      /has the schema struct<id:long,other:string>, but the query writes struct<id:long,category:string>/,
    );
  });

  it('refuses other partition columns than the existing table has, and keeps its own without partitionBy', async () => {
    const table = await tableWith({ minReaderVersion: 1, minWriterVersion: 2 }, SCHEMA, {}, [
      'category',
    ]);
    await expect(open(new DeltaSink(table, { partitionBy: ['id'] }))).rejects.toThrow(
      /is partitioned by \[category\], but the sink was given partitionBy \[id\]/,
    );
    const sink = new DeltaSink(table);
    await open(sink);
    await sink.addBatch(0, rows(1, 2), SCHEMA, 'append');
    const snapshot = (await DeltaLog.at(table).snapshot())!;
    expect([...snapshot.files.keys()].map((k) => k.split('/')[0]).sort()).toEqual([
      'category=even',
      'category=odd',
    ]);
  });

  it('refuses partition columns that are missing, complex, repeated or all the columns', async () => {
    const start = (partitionBy: string[]) =>
      startStream({
        sink: new DeltaSink(tempDir('sluice-delta-'), { partitionBy }),
        checkpoint: tempDir(),
        events: clickStream(),
      });
    await expect(start(['nope'])).rejects.toThrow(
      /partition column 'nope' is not a column of the query's output \[window, category, n\]/,
    );
    await expect(start(['window'])).rejects.toThrow(/cannot partition by 'window' of type struct/);
    await expect(start(['n', 'n'])).rejects.toThrow(/names a column twice/);
    await expect(
      open(new DeltaSink(tempDir('sluice-delta-'), { partitionBy: ['id', 'category'] })),
    ).rejects.toThrow(/cannot partition by every column/);
  });

  it('refuses complete mode on an append-only table', async () => {
    const table = await tableWith({ minReaderVersion: 1, minWriterVersion: 2 }, SCHEMA, {
      'delta.appendOnly': 'true',
    });
    await expect(open(new DeltaSink(table), SCHEMA, 'complete')).rejects.toThrow(
      /is append-only \(delta\.appendOnly=true\), but complete mode replaces its content/,
    );
    await expect(open(new DeltaSink(table), SCHEMA, 'append')).resolves.toBeUndefined();
  });

  it('refuses tables that need a newer writer, have invariants or types it would write wrongly', async () => {
    const newer = await tableWith({ minReaderVersion: 1, minWriterVersion: 3 }, SCHEMA);
    await expect(open(new DeltaSink(newer))).rejects.toThrow(DeltaTableError);
    await expect(open(new DeltaSink(newer))).rejects.toThrow(
      /needs a Delta writer of version 3; Sluice writes version 2 tables/,
    );
    const invariants = await tableWith(
      { minReaderVersion: 1, minWriterVersion: 2 },
      JSON.stringify({
        type: 'struct',
        fields: [
          {
            name: 'id',
            type: 'long',
            nullable: true,
            metadata: { 'delta.invariants': '{"expression":{"expression":"id > 0"}}' },
          },
          { name: 'category', type: 'string', nullable: true, metadata: {} },
        ],
      }),
    );
    await expect(open(new DeltaSink(invariants))).rejects.toThrow(
      /column 'id' has an invariant \(delta\.invariants\) Sluice cannot check/,
    );
    const decimal = await tableWith(
      { minReaderVersion: 1, minWriterVersion: 2 },
      JSON.stringify({
        type: 'struct',
        fields: [{ name: 'price', type: 'decimal(10,2)', nullable: true, metadata: {} }],
      }),
    );
    await expect(open(new DeltaSink(decimal), parseSchema('price DOUBLE'))).rejects.toThrow(
      /column 'price' is decimal\(10,2\), which Sluice reads and writes as double/,
    );
  });

  it('enforces NOT NULL columns of an existing table', async () => {
    const table = await tableWith(
      { minReaderVersion: 1, minWriterVersion: 2 },
      parseSchema('id LONG NOT NULL, category STRING'),
    );
    const sink = new DeltaSink(new LocalDirectoryStore(table), { appId: 'app' });
    await expect(sink.addBatch(0, [[null, 'x']], SCHEMA, 'append')).rejects.toThrow(
      /Cannot write NULL to the non-nullable Parquet column 'id'/,
    );
  });
});
