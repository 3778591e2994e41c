import path from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkpointActions,
  CHECKPOINT_WARNING_CODE,
  type DeltaAction,
  DeltaLog,
  DeltaSink,
  type DeltaSinkOptions,
  DeltaSnapshot,
  DeltaTableError,
  InvalidOptionError,
  LocalDirectoryStore,
  MemoryObjectStore,
  type ObjectStore,
  SluiceSession,
} from '../../core/index.js';
import { decodeCheckpoint, encodeCheckpoint } from '../../core/delta/checkpoint-file.js';
import { toDeltaSchemaString } from '../../core/delta/delta-schema.js';
import type { Row } from '../../core/types/row.js';
import { parseSchema } from '../../core/types/type-names.js';
import { tempDir } from '../support/temp-dir.js';

const SCHEMA = parseSchema('id LONG, category STRING');
const rows = (...ids: number[]): Row[] => ids.map((id) => [id, id % 3 === 0 ? 'fizz' : 'other']);

const LOG = '_delta_log/';
const checkpointFile = (v: number) => `${LOG}${String(v).padStart(20, '0')}.checkpoint.parquet`;
const commitFile = (v: number) => `${LOG}${String(v).padStart(20, '0')}.json`;

/** A store that records the keys it was asked for and the keys its listings returned. */
class CountingStore implements ObjectStore {
  readonly gets: string[] = [];
  readonly listed: string[] = [];
  failPutsOf: RegExp | undefined;

  constructor(private readonly inner: ObjectStore) {}

  get location(): string {
    return this.inner.location;
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    if (this.failPutsOf?.test(key)) throw new Error(`injected failure writing ${key}`);
    await this.inner.put(key, bytes);
  }

  putIfAbsent(key: string, bytes: Uint8Array) {
    return this.inner.putIfAbsent(key, bytes);
  }

  get(key: string): Promise<Uint8Array | undefined> {
    this.gets.push(key);
    return this.inner.get(key);
  }

  async list(prefix: string): Promise<string[]> {
    const keys = await this.inner.list(prefix);
    this.listed.push(...keys);
    return keys;
  }

  delete(key: string): Promise<void> {
    return this.inner.delete(key);
  }

  reset(): void {
    this.gets.length = 0;
    this.listed.length = 0;
  }
}

/**
 * Writes `versions` versions through a DeltaSink (batch i is version i): appends of two rows, and
 * every `completeEvery`-th batch in complete mode, which removes every file (tombstones).
 */
async function writeVersions(
  store: ObjectStore,
  versions: number,
  options: DeltaSinkOptions & { completeEvery?: number } = {},
): Promise<DeltaSink> {
  const { completeEvery, ...sinkOptions } = options;
  const sink = new DeltaSink(store, { appId: 'app', ...sinkOptions });
  for (let b = 0; b < versions; b++) {
    const complete = completeEvery !== undefined && b > 0 && b % completeEvery === 0;
    await sink.addBatch(b, rows(2 * b, 2 * b + 1), SCHEMA, complete ? 'complete' : 'append');
  }
  return sink;
}

/** The snapshot replayed from every commit file, without checkpoints. */
async function fullReplay(log: DeltaLog): Promise<DeltaSnapshot> {
  const versions = await log.versions();
  const commits = await Promise.all(
    versions.map(async (version) => ({ version, actions: await log.readCommit(version) })),
  );
  return DeltaSnapshot.replay(log.table, undefined, commits);
}

/** A snapshot's reconciled state, comparable across checkpoint and replay (dataChange aside). */
function state(snapshot: DeltaSnapshot) {
  const withoutDataChange = <T extends { dataChange: boolean }>(a: T) => ({
    ...a,
    dataChange: null,
  });
  return {
    version: snapshot.version,
    protocol: snapshot.protocol,
    metadata: snapshot.metadata,
    files: [...snapshot.files].map(([k, a]) => [k, withoutDataChange(a)]).sort(),
    tombstones: [...snapshot.tombstones].map(([k, r]) => [k, withoutDataChange(r)]).sort(),
    transactions: [...snapshot.transactions].sort(),
  };
}

const ids = async (table: string | ObjectStore) =>
  (await (await new SluiceSession().read.delta(table)).collect())
    .map((r) => r.id as number)
    .sort((a, b) => a - b);

let duck: DuckDBConnection;

beforeAll(async () => {
  duck = await (await DuckDBInstance.create(':memory:')).connect();
});

afterAll(() => duck.closeSync());

async function query(sql: string): Promise<Record<string, unknown>[]> {
  return (await duck.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[];
}

describe('checkpoints written by the Delta sink', () => {
  it('come every 10 versions (never at 0), each followed by _last_checkpoint', async () => {
    const table = tempDir('sluice-delta-');
    const sink = await writeVersions(new LocalDirectoryStore(table), 26);
    const keys = await new LocalDirectoryStore(table).list(LOG);
    expect(keys.filter((k) => k.includes('.checkpoint.'))).toEqual([
      checkpointFile(10),
      checkpointFile(20),
    ]);
    const last = JSON.parse(
      new TextDecoder().decode(await new LocalDirectoryStore(table).get(`${LOG}_last_checkpoint`)),
    ) as Record<string, number>;
    // protocol, metaData, one txn and the 21 files of versions 0 to 20
    expect(last).toMatchObject({ version: 20, size: 24, numOfAddFiles: 21 });
    expect(last.sizeInBytes).toBeGreaterThan(0);
    expect(sink.lastCheckpoint).toMatchObject({ kind: 'written', version: 20, size: 24 });
  });

  it('follow delta.checkpointInterval', async () => {
    const store = new MemoryObjectStore('mem://interval');
    await writeVersions(store, 12, { configuration: { 'delta.checkpointInterval': '4' } });
    const keys = await store.list(LOG);
    expect(keys.filter((k) => k.includes('.checkpoint.'))).toEqual([
      checkpointFile(4),
      checkpointFile(8),
    ]);
  });

  it('are Parquet files DuckDB reads: one action a row in nested structs, partition values as a map', async () => {
    const table = tempDir('sluice-delta-');
    await writeVersions(new LocalDirectoryStore(table), 11, {
      partitionBy: ['category'],
      completeEvery: 7,
    });
    const file = path.join(table, checkpointFile(10));
    const columns = Object.fromEntries(
      (await query(`DESCRIBE SELECT * FROM read_parquet('${file}')`)).map((c) => [
        c.column_name,
        c.column_type,
      ]),
    );
    expect(columns).toMatchObject({
      txn: 'STRUCT(appId VARCHAR, "version" BIGINT, lastUpdated BIGINT)',
      protocol: 'STRUCT(minReaderVersion INTEGER, minWriterVersion INTEGER)',
    });
    expect(columns.add).toMatch(/^STRUCT\(path VARCHAR, partitionValues MAP\(VARCHAR, VARCHAR\),/);
    expect(columns.add).toMatch(/stats VARCHAR/);
    expect(columns.remove).toMatch(/^STRUCT\(path VARCHAR, deletionTimestamp BIGINT,/);
    expect(columns.metaData).toMatch(/"configuration" MAP\(VARCHAR, VARCHAR\)/);

    // every row holds exactly one action
    const kinds = await query(
      `SELECT (txn IS NOT NULL)::INT + (add IS NOT NULL)::INT + (remove IS NOT NULL)::INT
            + ("metaData" IS NOT NULL)::INT + (protocol IS NOT NULL)::INT AS n
       FROM read_parquet('${file}')`,
    );
    expect(kinds.every((k) => Number(k.n) === 1)).toBe(true);

    const snapshot = await fullReplay(DeltaLog.at(table));
    const [counts] = await query(
      `SELECT count(add) AS adds, count(remove) AS removes, count(txn) AS txns,
              count("metaData") AS metadata, count(protocol) AS protocols,
              max(txn.version) AS txn_version, max(protocol.minWriterVersion) AS writer
       FROM read_parquet('${file}')`,
    );
    expect(counts).toEqual({
      adds: String(snapshot.files.size),
      removes: String(snapshot.tombstones.size),
      txns: '1',
      metadata: '1',
      protocols: '1',
      txn_version: '10',
      writer: 2,
    });
    expect(snapshot.tombstones.size).toBeGreaterThan(0);

    // each add carries the path, the partition value as a map entry and the stats JSON of the log
    const adds = await query(
      `SELECT add.path AS path, add.partitionValues['category'] AS category,
              json_extract(add.stats, '$.numRecords')::INT AS records, add.dataChange AS change
       FROM read_parquet('${file}') WHERE add IS NOT NULL ORDER BY path`,
    );
    const expected = [...snapshot.files.values()]
      .map((a) => ({
        path: a.path,
        category: a.partitionValues.category,
        records: (JSON.parse(a.stats!) as { numRecords: number }).numRecords,
        change: false,
      }))
      .sort((a, b) => (a.path < b.path ? -1 : 1));
    expect(adds).toEqual(expected);
  });
});

describe('loading a snapshot from a checkpoint', () => {
  it('after 27 versions equals the replay of every commit, and reads the same rows', async () => {
    const store = new MemoryObjectStore('mem://replay');
    await writeVersions(store, 27, { completeEvery: 8, partitionBy: ['category'] });
    const log = new DeltaLog(store);
    const loaded = (await log.snapshot())!;
    expect(state(loaded)).toEqual(state(await fullReplay(log)));
    expect(loaded.version).toBe(26);
    // the complete batch 24 replaced everything: ids of batches 24, 25 and 26 remain
    expect(await ids(store)).toEqual([48, 49, 50, 51, 52, 53]);
  });

  it('reads the latest checkpoint and only the commits after it', async () => {
    const store = new CountingStore(new MemoryObjectStore('mem://reads'));
    await writeVersions(store, 25);
    store.reset();
    const snapshot = (await DeltaLog.at(store).snapshot())!;
    expect(snapshot.version).toBe(24);
    expect(store.gets.filter((k) => k.endsWith('.json'))).toEqual([21, 22, 23, 24].map(commitFile));
    expect(store.gets).toContain(checkpointFile(20));
    expect(store.gets).not.toContain(checkpointFile(10));
    // the listing starts from the checkpoint _last_checkpoint names, not from version 0
    expect(store.listed.some((k) => k === commitFile(5))).toBe(false);
  });

  it('still loads when the commits the checkpoint covers are deleted (metadata cleanup)', async () => {
    const store = new MemoryObjectStore('mem://cleanup');
    await writeVersions(store, 23);
    const before = state((await DeltaLog.at(store).snapshot())!);
    for (let v = 0; v < 20; v++) await store.delete(commitFile(v));
    await store.delete(checkpointFile(10));
    expect(state((await DeltaLog.at(store).snapshot())!)).toEqual(before);
    expect(await ids(store)).toHaveLength(46);
  });

  it('finds the latest checkpoint by listing when _last_checkpoint is missing, unreadable or stale', async () => {
    const store = new CountingStore(new MemoryObjectStore('mem://stale'));
    await writeVersions(store, 23);
    const expected = state(await fullReplay(DeltaLog.at(store)));
    const loadedFrom = async () => {
      store.reset();
      const snapshot = (await DeltaLog.at(store).snapshot())!;
      expect(state(snapshot)).toEqual(expected);
      return store.gets.filter((k) => k.includes('.checkpoint.'));
    };
    const lastCheckpoint = (text: string) =>
      store.put(`${LOG}_last_checkpoint`, new TextEncoder().encode(text));

    await store.delete(`${LOG}_last_checkpoint`);
    expect(await loadedFrom()).toEqual([checkpointFile(20)]);
    await lastCheckpoint('{"version": 2');
    expect(await loadedFrom()).toEqual([checkpointFile(20)]);
    // an older hint: listing from it finds the newer checkpoint (a writer stopped before the hint)
    await lastCheckpoint('{"version":10,"size":13}');
    expect(await loadedFrom()).toEqual([checkpointFile(20)]);
    // a hint naming a checkpoint that is gone: the listing of the whole log decides
    await store.delete(checkpointFile(20));
    await lastCheckpoint('{"version":20,"size":24}');
    expect(await loadedFrom()).toEqual([checkpointFile(10)]);
  });

  it('reads a multi-part checkpoint when every part is there, and ignores an incomplete one', async () => {
    const store = new MemoryObjectStore('mem://parts');
    await writeVersions(store, 13);
    const log = new DeltaLog(store);
    const expected = state(await fullReplay(log));
    const actions = await decodeCheckpoint((await store.get(checkpointFile(10)))!, 'cp');
    await store.delete(checkpointFile(10));
    await store.delete(`${LOG}_last_checkpoint`);
    const part = (i: number, n: number) =>
      `${LOG}${String(10).padStart(20, '0')}.checkpoint.${String(i).padStart(10, '0')}.${String(n).padStart(10, '0')}.parquet`;
    await store.put(part(1, 2), encodeCheckpoint(actions.slice(0, 5)));
    await store.put(part(2, 2), encodeCheckpoint(actions.slice(5)));
    for (let v = 0; v < 10; v++) await store.delete(commitFile(v));
    expect(state((await log.snapshot())!)).toEqual(expected);

    await store.delete(part(2, 2));
    await expect(log.snapshot()).rejects.toThrow(
      /the log starts at version 10 and no complete checkpoint covers the versions before it/,
    );
  });

  it('fails naming the file when a checkpoint is not Parquet', async () => {
    const store = new MemoryObjectStore('mem://broken');
    await writeVersions(store, 11);
    await store.put(checkpointFile(10), new TextEncoder().encode('not parquet'));
    const failure = await DeltaLog.at(store)
      .snapshot()
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(DeltaTableError);
    expect((failure as Error).message).toMatch(
      /Delta checkpoint mem:\/\/broken\/_delta_log\/00000000000000000010\.checkpoint\.parquet cannot be read .* delete it and _delta_log\/_last_checkpoint/,
    );
  });

  it('of exactly one version, for time travel, from the checkpoint at or before it', async () => {
    const store = new MemoryObjectStore('mem://travel');
    await writeVersions(store, 25, { completeEvery: 6 });
    const log = new DeltaLog(store);
    for (const version of [3, 10, 17, 24]) {
      const commits = await Promise.all(
        Array.from({ length: version + 1 }, async (_, v) => ({
          version: v,
          actions: await log.readCommit(v),
        })),
      );
      expect(state(await log.snapshotAt(version))).toEqual(
        state(DeltaSnapshot.replay(log.table, undefined, commits)),
      );
    }
    await expect(log.snapshotAt(25)).rejects.toThrow(/has no version 25: its latest version is 24/);
  });
});

describe('what a checkpoint holds', () => {
  const table = 'mem://t';
  const base: DeltaAction[] = [
    { protocol: { minReaderVersion: 1, minWriterVersion: 2 } },
    {
      metaData: {
        id: 't',
        format: { provider: 'parquet', options: {} },
        schemaString: toDeltaSchemaString(SCHEMA),
        partitionColumns: [],
        configuration: { 'delta.deletedFileRetentionDuration': 'interval 2 days' },
      },
    },
  ];
  const add = (p: string): DeltaAction => ({
    add: { path: p, partitionValues: {}, size: 1, modificationTime: 1, dataChange: true },
  });
  const remove = (p: string, at: number): DeltaAction => ({
    remove: { path: p, deletionTimestamp: at, dataChange: true },
  });
  const DAY = 86_400_000;

  it('keeps tombstones younger than delta.deletedFileRetentionDuration, and a re-added file only as a file', () => {
    const snapshot = DeltaSnapshot.replay(table, undefined, [
      { version: 0, actions: [...base, add('a'), add('b'), add('c')] },
      {
        version: 1,
        actions: [remove('a', 10 * DAY), remove('b', 12 * DAY), remove('c', 12 * DAY)],
      },
      { version: 2, actions: [add('c'), { txn: { appId: 'q', version: 7 } }] },
    ]);
    const kinds = (now: number) =>
      checkpointActions(snapshot, now).map((a) => {
        const [kind, body] = Object.entries(a)[0] as [string, { path?: string }];
        return body.path ? `${kind}:${body.path}` : kind;
      });
    // retention 2 days: a tombstone deleted at t is kept while now < t + 2 days
    expect(kinds(11 * DAY)).toEqual([
      'protocol',
      'metaData',
      'txn',
      'add:c',
      'remove:a',
      'remove:b',
    ]);
    expect(kinds(13 * DAY)).toEqual(['protocol', 'metaData', 'txn', 'add:c', 'remove:b']);
    expect(kinds(14 * DAY)).toEqual(['protocol', 'metaData', 'txn', 'add:c']);
    const written = checkpointActions(snapshot, 11 * DAY);
    expect(written.flatMap((a) => ('add' in a ? [a.add.dataChange] : []))).toEqual([false]);
  });

  it('round-trips through its Parquet form', async () => {
    const actions: DeltaAction[] = [
      ...base,
      { txn: { appId: 'q', version: 3, lastUpdated: 5 } },
      {
        add: {
          path: 'day=x/a%20b.parquet',
          partitionValues: { day: 'x', other: null },
          size: 12,
          modificationTime: 34,
          dataChange: false,
          stats: '{"numRecords":2}',
          tags: { origin: 'test' },
        },
      },
      {
        remove: {
          path: 'old.parquet',
          deletionTimestamp: 9,
          dataChange: false,
          extendedFileMetadata: true,
          partitionValues: {},
          size: 3,
        },
      },
    ];
    expect(await decodeCheckpoint(encodeCheckpoint(actions), 'cp')).toEqual(actions);
  });
});

describe('a checkpoint that cannot be written', () => {
  it('fails neither the batch nor the next: it is recorded, warned about, and written at the next due version', async () => {
    const store = new CountingStore(new MemoryObjectStore('mem://failing'));
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      store.failPutsOf = /\.checkpoint\.parquet$/;
      const sink = await writeVersions(store, 11);
      expect(sink.lastCheckpoint).toMatchObject({ kind: 'failed', version: 10 });
      expect(await ids(store)).toHaveLength(22);
      await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on next tick
      const warning = warnings.find(
        (w) => (w as Error & { code?: string }).code === CHECKPOINT_WARNING_CODE,
      );
      expect(warning?.message).toMatch(
        /Delta table mem:\/\/failing: the checkpoint of version 10 could not be written \(injected failure/,
      );

      store.failPutsOf = undefined;
      for (let b = 11; b <= 20; b++) await sink.addBatch(b, rows(100 + b), SCHEMA, 'append');
      expect(sink.lastCheckpoint).toMatchObject({ kind: 'written', version: 20 });
      expect((await store.list(LOG)).filter((k) => k.includes('.checkpoint.'))).toEqual([
        checkpointFile(20),
      ]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('because of an invalid delta.checkpointInterval on an existing table is recorded too', async () => {
    const store = new MemoryObjectStore('mem://bad-interval');
    await new DeltaLog(store).commit(0, [
      { protocol: { minReaderVersion: 1, minWriterVersion: 2 } },
      {
        metaData: {
          id: 't',
          format: { provider: 'parquet', options: {} },
          schemaString: toDeltaSchemaString(SCHEMA),
          partitionColumns: [],
          configuration: { 'delta.checkpointInterval': 'often' },
        },
      },
    ]);
    const sink = new DeltaSink(store, { appId: 'app' });
    await sink.addBatch(0, rows(1), SCHEMA, 'append');
    expect(sink.lastCheckpoint).toMatchObject({ kind: 'failed', version: 1 });
    expect((sink.lastCheckpoint as { error: Error }).error.message).toMatch(
      /table property delta\.checkpointInterval is "often", not a positive integer/,
    );
    expect(await ids(store)).toEqual([1]);
  });

  it('is refused when a writer would create a table with invalid checkpoint properties', () => {
    expect(
      () => new DeltaSink('unused', { configuration: { 'delta.checkpointInterval': '0' } }),
    ).toThrow(InvalidOptionError);
    expect(
      () =>
        new DeltaSink('unused', {
          configuration: { 'delta.deletedFileRetentionDuration': 'interval 2 fortnights' },
        }),
    ).toThrow(/delta\.deletedFileRetentionDuration is "interval 2 fortnights", not an interval/);
  });
});
