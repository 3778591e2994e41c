import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { S3ObjectStore } from '../../core/aws/s3-object-store.js';
import { s3ObjectStores } from '../../core/aws/s3-object-stores.js';
import {
  CheckpointError,
  ExecutionError,
  InvalidOptionError,
  MemorySink,
  type RowObject,
  SluiceSession,
  SourceError,
  type StreamingQuery,
} from '../../core/index.js';
import { writeParquet } from '../../core/io/parquet.js';
import { FileStreamSource } from '../../core/sources/file-stream-source.js';
import type { FileSourceOffset } from '../../core/sources/file-source-offset.js';
import { ObjectStoreListing, type StoredObject } from '../../core/sources/object-store-listing.js';
import type { StructType } from '../../core/types/data-types.js';
import { parseSchema } from '../../core/types/type-names.js';
import { awsBackend } from '../aws/aws-backend.js';
import { createBucket, s3Client } from '../support/aws-clients.js';
import { tempDir } from '../support/temp-dir.js';
import { uniqueName } from '../support/unique-name.js';

const schema = parseSchema('file STRING, n INT');
const text = (s: string): Uint8Array => new TextEncoder().encode(s);

/** JSON lines of `rows` rows, each tagged with the object's key. */
function jsonLines(key: string, rows: number): Uint8Array {
  return text(
    Array.from({ length: rows }, (_, n) => JSON.stringify({ file: key, n }) + '\n').join(''),
  );
}

/** A fresh prefix of the test bucket, the store over it, and a session resolving s3:// URLs. */
async function landing() {
  const bucket = await createBucket(uniqueName('landing'));
  const prefix = 'clicks/';
  const store = new S3ObjectStore({ client: s3Client(), bucket, prefix });
  const session = () =>
    new SluiceSession({ objectStores: { s3: s3ObjectStores({ client: s3Client() }) } });
  const put = (key: string, bytes: Uint8Array) => store.put(key, bytes);
  const addJson = (key: string, rows: number) =>
    put(key, key.endsWith('.gz') ? gzipSync(jsonLines(key, rows)) : jsonLines(key, rows));
  return { bucket, url: `s3://${bucket}/${prefix}`, store, session, put, addJson };
}

/** Starts a JSON stream over `url` into `sink` on a local checkpoint. */
function start(
  session: SluiceSession,
  url: string,
  checkpoint: string,
  sink: MemorySink,
  options: Record<string, string | number | boolean> = {},
): Promise<StreamingQuery> {
  return session.readStream
    .schema(schema)
    .optionsFrom(options)
    .json(url)
    .writeStream.sink(sink)
    .option('checkpointLocation', checkpoint)
    .start();
}

/** How many rows of each object a sink holds. */
function rowsPerFile(rows: readonly RowObject[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const row of rows) counts[row.file as string] = (counts[row.file as string] ?? 0) + 1;
  return counts;
}

class Crash extends Error {}

describe('S3ObjectStore.listObjects on s3rver', () => {
  it('lists objects with size and time across pages, and after a key with StartAfter', async () => {
    const { bucket, put } = await landing();
    const before = Date.now() - 5_000;
    for (const key of ['a.json', 'b.json', 'c/d.json', 'e.json']) await put(key, text(key));
    const paged = new S3ObjectStore({
      client: s3Client(),
      bucket,
      prefix: 'clicks',
      listPageSize: 2,
    });
    const all = await paged.listObjects('');
    expect(all.map((o) => [o.key, o.size])).toEqual([
      ['a.json', 6],
      ['b.json', 6],
      ['c/d.json', 8],
      ['e.json', 6],
    ]);
    for (const o of all) expect(o.lastModifiedMs).toBeGreaterThan(before);
    expect((await paged.listObjects('', 'b.json')).map((o) => o.key)).toEqual([
      'c/d.json',
      'e.json',
    ]);
    expect((await paged.listObjects('c/')).map((o) => o.key)).toEqual(['c/d.json']);
  });
});

describe('a streaming query over an S3 prefix', () => {
  it('reads new objects in several batches, each exactly once, across a restart, and nothing outside the prefix', async () => {
    const { url, bucket, session, addJson } = await landing();
    const checkpoint = tempDir('sluice-checkpoint-');
    const sibling = new S3ObjectStore({ client: s3Client(), bucket, prefix: 'clicks-archive' });
    await sibling.put('old.json', jsonLines('old.json', 1));
    const firstSink = new MemorySink(schema, 'first');
    const first = await start(session(), url, checkpoint, firstSink);
    await addJson('a.json', 3);
    await addJson('_SUCCESS', 1);
    await first.processAllAvailable();
    await addJson('b.json', 2);
    await addJson('2026/01/c.json', 4);
    await first.processAllAvailable();
    await first.processAllAvailable(); // nothing new: no batch
    await first.stop();
    expect(rowsPerFile(firstSink.rows())).toEqual({
      'a.json': 3,
      'b.json': 2,
      '2026/01/c.json': 4,
    });
    // the query runs in the background, so b.json and c.json may land in one batch or two
    expect(first.recentProgress.map((p) => p.numInputRows).reduce((a, b) => a + b)).toBe(9);
    expect(first.recentProgress[0].sources[0].description).toBe(`FileSource[${url}]`);

    const secondSink = new MemorySink(schema, 'second');
    const second = await start(session(), url, checkpoint, secondSink);
    await second.processAllAvailable();
    await addJson('d.json', 1);
    await second.processAllAvailable();
    await second.stop();
    expect(rowsPerFile(secondSink.rows())).toEqual({ 'd.json': 1 });
  });

  it('reads gzip-compressed objects transparently', async () => {
    const { url, session, addJson } = await landing();
    const sink = new MemorySink(schema, 'gzip');
    const query = await start(session(), url, tempDir(), sink);
    await addJson('plain.json', 1);
    await addJson('packed.json.gz', 3);
    await query.processAllAvailable();
    await query.stop();
    expect(rowsPerFile(sink.rows())).toEqual({ 'plain.json': 1, 'packed.json.gz': 3 });
    expect(sink.rows().filter((r) => r.file === 'packed.json.gz')).toEqual([
      { file: 'packed.json.gz', n: 0 },
      { file: 'packed.json.gz', n: 1 },
      { file: 'packed.json.gz', n: 2 },
    ]);
  });

  const formats: {
    format: string;
    schema?: StructType;
    options?: Record<string, string>;
    objects: Record<string, Uint8Array>;
    expected: RowObject[];
  }[] = [
    {
      format: 'csv',
      schema,
      options: { header: 'true' },
      objects: {
        '1.csv': text('file,n\none,1\ntwo,2\n'),
        '2.csv.gz': gzipSync(text('file,n\nthree,3\n')),
      },
      expected: [
        { file: 'one', n: 1 },
        { file: 'two', n: 2 },
        { file: 'three', n: 3 },
      ],
    },
    {
      format: 'parquet',
      schema,
      objects: {
        'year=2026/': new Uint8Array(), // a console's folder marker: not a (broken) Parquet file
        'year=2026/part-0.parquet': writeParquet(
          [
            ['p', 1],
            ['q', 2],
          ],
          schema,
        ),
      },
      expected: [
        { file: 'p', n: 1 },
        { file: 'q', n: 2 },
      ],
    },
    {
      format: 'text',
      objects: {
        'log-1.txt': text('first line\nsecond line\n'),
        'log-2.txt.gz': gzipSync(text('third\n')),
      },
      expected: [{ value: 'first line' }, { value: 'second line' }, { value: 'third' }],
    },
    {
      format: 'json',
      schema,
      objects: { 'x.json': text('{"file":"x","n":7}\n') },
      expected: [{ file: 'x', n: 7 }],
    },
  ];
  for (const { format, schema: s, options, objects, expected } of formats) {
    it(`reads ${format} objects`, async () => {
      const { url, session, put } = await landing();
      for (const [key, bytes] of Object.entries(objects)) await put(key, bytes);
      const reader = session()
        .readStream.format(format)
        .optionsFrom(options ?? {});
      const df = (s ? reader.schema(s) : reader).load(url);
      const sink = new MemorySink(df.schema, format);
      const query = await df.writeStream.sink(sink).option('checkpointLocation', tempDir()).start();
      await query.processAllAvailable();
      await query.stop();
      expect(sink.rows()).toEqual(expected);
    });
  }

  it('admits at most maxFilesPerTrigger objects per batch', async () => {
    const { url, session, addJson } = await landing();
    for (const key of ['a.json', 'b.json', 'c.json', 'd.json', 'e.json']) await addJson(key, 2);
    const sink = new MemorySink(schema, 'files');
    const query = await start(session(), url, tempDir(), sink, { maxFilesPerTrigger: 2 });
    await query.processAllAvailable();
    await query.stop();
    expect(query.recentProgress.map((p) => p.numInputRows)).toEqual([4, 4, 2]);
    expect(Object.keys(rowsPerFile(sink.rows())).sort()).toEqual([
      'a.json',
      'b.json',
      'c.json',
      'd.json',
      'e.json',
    ]);
  });

  it('admits objects up to maxBytesPerTrigger per batch, and a larger object alone', async () => {
    const { url, session, addJson } = await landing();
    await addJson('a.json', 2); // 2 lines of 23 bytes
    await addJson('b.json', 2);
    await addJson('c.json', 20);
    await addJson('d.json', 2);
    const sink = new MemorySink(schema, 'bytes');
    const query = await start(session(), url, tempDir(), sink, { maxBytesPerTrigger: 100 });
    await query.processAllAvailable();
    await query.stop();
    expect(query.recentProgress.map((p) => p.numInputRows)).toEqual([4, 20, 2]);
  });

  it('counts a .gz object at the size it inflates to against maxBytesPerTrigger, read from its last 4 bytes', async () => {
    const { url, session, store, addJson } = await landing();
    const keys = ['a.json.gz', 'b.json.gz', 'c.json.gz'];
    for (const key of keys) await addJson(key, 2_700); // about 80 KB each when inflated
    const objects = await store.listObjects('');
    expect(objects.reduce((sum, o) => sum + o.size, 0)).toBeLessThan(100_000);
    const a = objects.find((o) => o.key === 'a.json.gz')!;
    const tail = await store.getRange('a.json.gz', a.size - 4, 4);
    expect(Buffer.from(tail!).readUInt32LE(0)).toBe(jsonLines('a.json.gz', 2_700).byteLength);
    const sink = new MemorySink(schema, 'gzip-bytes');
    const query = await start(session(), url, tempDir(), sink, { maxBytesPerTrigger: 100_000 });
    await query.processAllAvailable();
    await query.stop();
    expect(query.recentProgress.map((p) => p.numInputRows)).toEqual([2_700, 2_700, 2_700]);
  });

  it('re-runs a crashed batch of .gz objects with the objects its intent admitted within maxBytesPerTrigger', async () => {
    const { url, session, addJson } = await landing();
    const checkpoint = tempDir('sluice-checkpoint-');
    const delivered: Record<string, number>[] = [];
    const run = (crash: boolean) =>
      session()
        .readStream.schema(schema)
        .option('maxBytesPerTrigger', 100_000)
        .json(url)
        .writeStream.foreachBatch(async (batch) => {
          delivered.push(rowsPerFile(await batch.collect()));
        })
        .option('checkpointLocation', checkpoint)
        .afterStep((step) => {
          if (crash && step === 'plan') throw new Crash('killed after the intent');
        })
        .start();
    await addJson('a.json.gz', 2_700);
    await addJson('b.json.gz', 2_700);
    const first = await run(true);
    await expect(first.processAllAvailable()).rejects.toBeInstanceOf(Crash);
    const second = await run(false);
    await second.processAllAvailable();
    await second.stop();
    expect(delivered).toEqual([{ 'a.json.gz': 2_700 }, { 'b.json.gz': 2_700 }]);
  });

  it('re-runs a batch that crashed after its intent with exactly the objects the intent lists, then reads the rest once', async () => {
    const { url, session, addJson } = await landing();
    const checkpoint = tempDir('sluice-checkpoint-');
    const delivered: { batchId: number; files: Record<string, number> }[] = [];
    const run = (crash: boolean) =>
      session()
        .readStream.schema(schema)
        .json(url)
        .writeStream.foreachBatch(async (batch, batchId) => {
          delivered.push({ batchId, files: rowsPerFile(await batch.collect()) });
        })
        .option('checkpointLocation', checkpoint)
        .afterStep((step) => {
          if (crash && step === 'plan') throw new Crash('killed after the intent');
        })
        .start();
    await addJson('a.json', 1);
    await addJson('b.json', 2);
    const first = await run(true);
    await expect(first.processAllAvailable()).rejects.toBeInstanceOf(Crash);
    expect(delivered).toEqual([]);
    await addJson('c.json', 3); // arrives before the restart: not part of batch 0

    const second = await run(false);
    await second.processAllAvailable();
    await second.stop();
    expect(delivered).toEqual([
      { batchId: 0, files: { 'a.json': 1, 'b.json': 2 } },
      { batchId: 1, files: { 'c.json': 3 } },
    ]);
  });

  it('reads an object whose key sorts before the last one read, and with incrementalListing, as documented, does not', async () => {
    const { url, session, addJson } = await landing();
    await addJson('2026-05-02.json', 1);
    const sink = new MemorySink(schema, 'late');
    const query = await start(session(), url, tempDir(), sink);
    await query.processAllAvailable();
    await addJson('2026-05-01.json', 1); // late: sorts before the key already read
    await query.processAllAvailable();
    await query.stop();
    expect(Object.keys(rowsPerFile(sink.rows()))).toEqual(['2026-05-02.json', '2026-05-01.json']);

    const other = await landing();
    await other.addJson('2026-05-02.json', 1);
    const incremental = new MemorySink(schema, 'incremental');
    const q = await start(other.session(), other.url, tempDir(), incremental, {
      incrementalListing: true,
    });
    await q.processAllAvailable();
    await other.addJson('2026-05-01.json', 1);
    await other.addJson('2026-05-03.json', 1);
    await q.processAllAvailable();
    await q.stop();
    expect(Object.keys(rowsPerFile(incremental.rows()))).toEqual([
      '2026-05-02.json',
      '2026-05-03.json',
    ]);
  });

  it('lists only keys after the last one admitted with incrementalListing', async () => {
    const { bucket, addJson } = await landing();
    const listings: { startAfter: string | undefined; keys: string[] }[] = [];
    class RecordingStore extends S3ObjectStore {
      override async listObjects(prefix: string, startAfter?: string): Promise<StoredObject[]> {
        const objects = await super.listObjects(prefix, startAfter);
        listings.push({ startAfter, keys: objects.map((o) => o.key) });
        return objects;
      }
    }
    const store = new RecordingStore({ client: s3Client(), bucket, prefix: 'clicks' });
    for (const key of ['a.json', 'b.json', 'c.json']) await addJson(key, 1);
    const sink = new MemorySink(schema, 'listing');
    const query = await new SluiceSession().readStream
      .schema(schema)
      .format('json')
      .option('incrementalListing', true)
      .load(store)
      .writeStream.sink(sink)
      .option('checkpointLocation', tempDir())
      .start();
    await query.processAllAvailable();
    await addJson('d.json', 1);
    await query.processAllAvailable();
    await query.stop();
    expect(rowsPerFile(sink.rows())).toEqual({
      'a.json': 1,
      'b.json': 1,
      'c.json': 1,
      'd.json': 1,
    });
    expect(listings[0]).toEqual({ startAfter: undefined, keys: ['a.json', 'b.json', 'c.json'] });
    expect(listings.slice(1)).toContainEqual({ startAfter: 'c.json', keys: ['d.json'] });
    expect(listings.at(-1)).toEqual({ startAfter: 'd.json', keys: [] });
  });

  it('fails naming the object key when an object is malformed or not valid gzip', async () => {
    const cases: [string, Uint8Array, object][] = [
      ['bad.json', text('{"file":"x","n":1}\n{"file": oops\n'), ExecutionError],
      ['bad.json.gz', text('plain, not gzip'), ExecutionError],
    ];
    for (const [key, bytes, errorClass] of cases) {
      const { url, session, put } = await landing();
      await put(key, bytes);
      const query = await session()
        .readStream.schema(schema)
        .option('mode', 'FAILFAST')
        .json(url)
        .writeStream.format('memory')
        .queryName(uniqueName('bad'))
        .start();
      const error = await query.processAllAvailable().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(errorClass);
      expect((error as Error).message).toContain(`${url}${key}`);
    }
  });

  it('fails with a SourceError naming the object when a planned object was deleted', async () => {
    const { bucket, store, addJson } = await landing();
    await addJson('gone.json', 1);
    const metadataStore = new S3ObjectStore({ client: s3Client(), bucket, prefix: 'checkpoint' });
    const source = new FileStreamSource(
      { files: new ObjectStoreListing(store), format: 'json', read: { schema } },
      { metadataStore },
    );
    const end = await source.latestOffset(undefined);
    await store.delete('gone.json');
    await expect(source.getBatch(undefined, end!)).rejects.toThrow(SourceError);
    await expect(source.getBatch(undefined, end!)).rejects.toThrow(`${store.location}gone.json`);
  });

  it('refuses s3:// locations on a session without an S3 resolver, saying how to register one', () => {
    expect(() => new SluiceSession().readStream.schema(schema).json('s3://bucket/prefix')).toThrow(
      InvalidOptionError,
    );
    expect(() => new SluiceSession().readStream.schema(schema).json('s3://bucket/prefix')).toThrow(
      /new SluiceSession\(\{ objectStores: \{ s3: .*s3ObjectStores/,
    );
    expect(() => new SluiceSession({ objectStores: { S3: s3ObjectStores() } })).toThrow(
      /objectStores\.S3 must map a lower-case URL scheme/,
    );
    expect(() => s3ObjectStores({ client: s3Client(), region: 'eu-west-1' })).toThrow(
      /either a client or region\/maxAttempts/,
    );
  });
});

describe('the file lists of an S3 file source', () => {
  it('keeps a long list out of the intent in an S3 object of its checkpoint, which a restarted source reads back', async () => {
    const { bucket, store, addJson } = await landing();
    const keys = Array.from({ length: 8 }, (_, i) => `events/2026/05/01/part-${i}.json`);
    for (const key of keys) await addJson(key, 1);
    const metadataStore = new S3ObjectStore({
      client: s3Client(),
      bucket,
      prefix: 'checkpoint/sources/0',
    });
    const source = () =>
      new FileStreamSource(
        {
          files: new ObjectStoreListing(store),
          format: 'json',
          read: { schema },
          maxInlineFileListBytes: 256,
        },
        { metadataStore },
      );
    const end = (await source().latestOffset(undefined)) as FileSourceOffset;
    expect(end.files).toBeUndefined();
    expect(JSON.stringify(end).length).toBeLessThan(256);
    expect(await metadataStore.list('files/')).toEqual([end.filesKey]);
    const rows = await source().getBatch(undefined, end);
    expect(rows.map((r) => r[0])).toEqual(keys);

    await metadataStore.delete(end.filesKey!);
    await expect(source().getBatch(undefined, end)).rejects.toThrow(CheckpointError);
  });

  it('runs on the AWS checkpoint: intents in DynamoDB, its seen-files log in S3', async () => {
    const { url, session, addJson } = await landing();
    const backend = await awsBackend(uniqueName('s3-source'));
    const sink = new MemorySink(schema, 'aws');
    const query = () =>
      session()
        .readStream.schema(schema)
        .json(url)
        .writeStream.sink(sink)
        .checkpoint(backend)
        .start();
    const first = await query();
    await addJson('a.json', 2);
    await first.processAllAvailable();
    await addJson('b.json', 1);
    await first.processAllAvailable();
    await first.stop();
    const second = await query();
    await second.processAllAvailable();
    await second.stop();
    expect(rowsPerFile(sink.rows())).toEqual({ 'a.json': 2, 'b.json': 1 });
    expect(await backend.stateObjects.list('sources/0/seen/')).toEqual([
      `sources/0/seen/${'0'.padStart(20, '0')}.json`,
      `sources/0/seen/${'1'.padStart(20, '0')}.json`,
    ]);
    const intent = await backend.checkpoint.getIntent(1);
    expect((intent!.end[0] as FileSourceOffset).files!.map((f) => f.path)).toEqual(['b.json']);
  });
});

describe('a file stream over S3 in bounded memory', () => {
  it('streams an object body, reading an object far larger than maxRecordBytes line by line', async () => {
    const { url, addJson, session, store } = await landing();
    await addJson('many.json', 5_000);
    const chunks: number[] = [];
    for await (const chunk of (await store.getStream('many.json'))!) chunks.push(chunk.byteLength);
    expect(chunks.reduce((a, b) => a + b, 0)).toBe(jsonLines('many.json', 5_000).byteLength);
    expect(await store.getStream('absent.json')).toBeUndefined();

    const sink = new MemorySink(schema, 's3-many-lines');
    const query = await start(session(), url, tempDir(), sink, { maxRecordBytes: 100 });
    await query.processAllAvailable();
    await query.stop();
    expect(rowsPerFile(sink.rows())).toEqual({ 'many.json': 5_000 });
  });

  it('fails the batch on a gzip bomb beyond maxDecompressedBytes, naming the object and the limit', async () => {
    const { url, put, session, bucket } = await landing();
    await put('bomb.json.gz', gzipSync(Buffer.alloc(4 * 1024 ** 2, ' ')));
    const query = await start(session(), url, tempDir(), new MemorySink(schema, 's3-bomb'), {
      maxDecompressedBytes: '1m',
    });
    await expect(query.processAllAvailable()).rejects.toThrow(
      `s3://${bucket}/clicks/bomb.json.gz inflates to more than maxDecompressedBytes (1048576 bytes)`,
    );
    await query.stop();
  });
});
