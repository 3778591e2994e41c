import { describe, expect, it } from 'vitest';
import {
  type DeltaAction,
  DeltaLog,
  DeltaSink,
  LocalDirectoryStore,
  MemorySink,
  type ObjectStore,
  SluiceSession,
  UnsafePathError,
} from '../../core/index.js';
import { S3ObjectStore } from '../../core/aws/index.js';
import { encodeCheckpoint } from '../../core/delta/checkpoint-file.js';
import { checkpointKey } from '../../core/delta/log-segment.js';
import { parseSchema } from '../../core/types/type-names.js';
import { createBucket, s3Client } from '../support/aws-clients.js';
import { tempDir } from '../support/temp-dir.js';
import { uniqueName } from '../support/unique-name.js';

const SCHEMA = parseSchema('id LONG, category STRING');

/**
 * A table and, beside it, a store over a directory or prefix above it that holds a copy of one of
 * the table's data files as `outside.parquet`: what a path that climbs out would reach.
 */
interface Layout {
  readonly table: ObjectStore;
  /** The path from the table root to the outside file, plain (before URI encoding). */
  readonly outside: string;
}

/** A local table two directories below the outside file (`<tmp>/outside.parquet`, `<tmp>/a/table`). */
function localLayout(): { table: ObjectStore; above: ObjectStore; outside: string } {
  const root = tempDir('sluice-delta-paths-');
  return {
    table: new LocalDirectoryStore(`${root}/a/table`),
    above: new LocalDirectoryStore(root),
    outside: '../../outside.parquet',
  };
}

/** A table on s3rver under `tables/clicks`, the outside file one prefix over (`tables/outside.parquet`). */
async function s3Layout(): Promise<{ table: ObjectStore; above: ObjectStore; outside: string }> {
  const bucket = await createBucket(uniqueName('delta-paths'));
  const client = s3Client();
  return {
    table: new S3ObjectStore({ client, bucket, prefix: 'tables/clicks' }),
    above: new S3ObjectStore({ client, bucket, prefix: 'tables' }),
    outside: '../outside.parquet',
  };
}

/** Writes version 0 of a table holding ids 1 and 2, and copies its data file to the outside file. */
async function tableBeside(
  layout:
    | Promise<{ table: ObjectStore; above: ObjectStore; outside: string }>
    | ReturnType<typeof localLayout>,
): Promise<Layout> {
  const { table, above, outside } = await layout;
  await new DeltaSink(table, { appId: 'writer' }).addBatch(
    0,
    [
      [1, 'a'],
      [2, 'b'],
    ],
    SCHEMA,
    'append',
  );
  const dataFile = (await table.list('')).find((k) => k.endsWith('.parquet'))!;
  const outsideKey = outside.replace(/^(\.\.\/)+/, '');
  await above.put(outsideKey, (await table.get(dataFile))!);
  return { table, outside };
}

const addOf = (path: string): DeltaAction => ({
  add: { path, partitionValues: {}, size: 100, modificationTime: 1, dataChange: true },
});
const removeOf = (path: string, dataChange = true): DeltaAction => ({
  remove: { path, deletionTimestamp: 1, dataChange },
});

/** The ways a log can spell a path that climbs out: plain, percent-encoded, through a subdirectory. */
const spellings = (outside: string): string[] => [
  outside,
  outside.replaceAll('..', '%2E%2E'),
  `sub/../${outside}`,
];

const readDelta = async (table: ObjectStore) =>
  (await new SluiceSession().read.delta(table)).collect();

/** Streams `table` from its start into a memory sink; the query, after its first batches. */
async function streamOf(table: ObjectStore) {
  const df = await new SluiceSession().readStream.delta(table);
  const sink = new MemorySink(df.schema);
  const query = await df.writeStream.sink(sink).option('checkpointLocation', tempDir()).start();
  await query.processAllAvailable();
  return { query, sink };
}

const layouts = [
  ['a local directory table', () => localLayout()],
  ['a table on S3', () => s3Layout()],
] as const;

describe.each(layouts)('read.delta of %s', (_, layout) => {
  it('refuses an add path that climbs out of the table, plain, percent-encoded or through a subdirectory', async () => {
    const { table, outside } = await tableBeside(layout());
    for (const path of spellings(outside)) {
      await new DeltaLog(table).commit(1, [addOf(path)]);
      const read = readDelta(table);
      await expect(read).rejects.toBeInstanceOf(UnsafePathError);
      await expect(read).rejects.toThrow(
        `Delta table ${table.location}: log version 1, add action holds the path ${JSON.stringify(path)}`,
      );
      await table.delete('_delta_log/00000000000000000001.json');
    }
  });

  it('refuses a remove path that climbs out of the table', async () => {
    const { table, outside } = await tableBeside(layout());
    await new DeltaLog(table).commit(1, [removeOf(outside.replaceAll('..', '%2E%2E'))]);
    await expect(readDelta(table)).rejects.toThrow(
      /log version 1, remove action holds the path ".*%2E%2E.*" \(decoded "\.\.\/.*outside\.parquet"\), which climbs out/,
    );
  });

  it('refuses absolute paths and other schemes', async () => {
    const { table } = await tableBeside(layout());
    for (const path of ['/etc/passwd', 'file:/etc/passwd', 's3://other-bucket/x.parquet']) {
      await new DeltaLog(table).commit(1, [addOf(path)]);
      await expect(readDelta(table)).rejects.toBeInstanceOf(UnsafePathError);
      await table.delete('_delta_log/00000000000000000001.json');
    }
  });

  it('refuses such a path in a Parquet checkpoint, naming the checkpoint', async () => {
    const { table, outside } = await tableBeside(layout());
    const log = new DeltaLog(table);
    const version0 = await log.readCommit(0);
    await log.commit(1, []);
    const kept = version0.filter((a) => 'protocol' in a || 'metaData' in a);
    await table.put(checkpointKey(1), encodeCheckpoint([...kept, addOf(outside)]));
    await expect(readDelta(table)).rejects.toThrow(
      `the checkpoint of version 1, add action holds the path "${outside}"`,
    );
  });
});

describe.each(layouts)('readStream.delta of %s', (_, layout) => {
  it('refuses a table whose snapshot at start holds a path out of it', async () => {
    const { table, outside } = await tableBeside(layout());
    await new DeltaLog(table).commit(1, [addOf(outside)]);
    await expect(streamOf(table)).rejects.toBeInstanceOf(UnsafePathError);
  });

  it('fails the stream at a new version whose add path climbs out, and reads nothing of it', async () => {
    const { table, outside } = await tableBeside(layout());
    const { query, sink } = await streamOf(table);
    await new DeltaLog(table).commit(1, [addOf(outside.replaceAll('..', '%2E%2E'))]);
    await expect(query.processAllAvailable()).rejects.toThrow(
      /log version 1, add action holds the path .*which climbs out of the root/,
    );
    expect(sink.rows().map((r) => r.id)).toEqual([1, 2]);
  });

  it('fails the stream at a new version whose remove path climbs out, even one it passes over', async () => {
    const { table, outside } = await tableBeside(layout());
    const { query } = await streamOf(table);
    await new DeltaLog(table).commit(1, [removeOf(`sub/../${outside}`, false)]);
    await expect(query.processAllAvailable()).rejects.toThrow(
      /log version 1, remove action holds the path "sub\/\.\.\/.*outside\.parquet", which climbs out/,
    );
  });
});
