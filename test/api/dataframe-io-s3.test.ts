/**
 * `read` and `write` with URLs: `s3://bucket/prefix` resolves through the session's object stores
 * (here s3rver), for every file format; a URL whose scheme has no store is refused, never taken for
 * a local folder named `s3:`.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { S3ObjectStore } from '../../core/aws/s3-object-store.js';
import { s3ObjectStores } from '../../core/aws/s3-object-stores.js';
import { AnalysisError, InvalidOptionError, SluiceSession } from '../../core/index.js';
import { createBucket, s3Client } from '../support/aws-clients.js';
import { tempDir } from '../support/temp-dir.js';
import { uniqueName } from '../support/unique-name.js';

const rows = [
  { id: 1, name: 'ada', score: 1.5, ts: new Date('2026-01-01T10:00:00Z') },
  { id: 2, name: null, score: null, ts: null },
];
const SCHEMA = 'id INT, name STRING, score DOUBLE, ts TIMESTAMP';

/** A session resolving s3:// URLs, a fresh bucket, and a store to look into its `prefix`. */
async function bucket(prefix = 'out/') {
  const name = await createBucket(uniqueName('dataframe-io'));
  const session = new SluiceSession({
    objectStores: { s3: s3ObjectStores({ client: s3Client() }) },
  });
  const store = new S3ObjectStore({ client: s3Client(), bucket: name, prefix });
  return { session, url: `s3://${name}/${prefix}`, store };
}

describe('df.write and read with an s3:// URL', () => {
  for (const format of ['json', 'csv', 'parquet'] as const) {
    it(`writes ${format} files to the bucket and reads them back, with no local folder`, async () => {
      const { session, url, store } = await bucket();
      await session.createDataFrame(rows, SCHEMA).write.format(format).save(url);
      const keys = await store.list('');
      expect(keys).toContain('_SUCCESS');
      expect(
        keys.filter((k) => k.startsWith('part-00000-') && k.endsWith(`.${format}`)),
      ).toHaveLength(1);
      expect(existsSync('s3:')).toBe(false);
      const back = session.read.format(format).schema(SCHEMA).load(url);
      expect(await back.orderBy('id').collect()).toEqual(rows);
    });
  }

  it('writes to an ObjectStore given instead of a URL', async () => {
    const { session, url, store } = await bucket();
    await session.createDataFrame([{ value: 'a' }], 'value STRING').write.json(store);
    expect(await session.read.schema('value STRING').json(url).collect()).toEqual([{ value: 'a' }]);
  });

  it('reads text without a schema, and json, csv and parquet only with one', async () => {
    const { session, url } = await bucket();
    await session.createDataFrame([{ value: 'a' }, { value: 'b' }], 'value STRING').write.text(url);
    expect(await session.read.text(url).collect()).toEqual([{ value: 'a' }, { value: 'b' }]);
    for (const read of [() => session.read.json(url), () => session.read.parquet(url)]) {
      expect(read).toThrow(InvalidOptionError);
      expect(read).toThrow(`files from ${url} needs a schema: call read.schema(...) before load()`);
    }
  });

  it('honours save modes on the bucket', async () => {
    const { session, url } = await bucket();
    const df = session.createDataFrame([{ value: 'a' }], 'value STRING');
    const count = () => session.read.schema('value STRING').json(url).count();
    await df.write.json(url);
    await expect(df.write.json(url)).rejects.toThrow(AnalysisError);
    await expect(df.write.json(url)).rejects.toThrow(`Path ${url} already exists`);
    await df.write.mode('append').json(url);
    expect(await count()).toBe(2);
    await df.write.mode('overwrite').json(url);
    expect(await count()).toBe(1);
    await df.write.mode('ignore').json(url);
    expect(await count()).toBe(1);
  });

  it('refuses to overwrite the prefix the query reads, leaving its objects', async () => {
    const { session, url, store } = await bucket();
    await session.createDataFrame([{ value: 'a' }], 'value STRING').write.json(url);
    const before = await store.list('');
    const input = session.read.schema('value STRING').json(url);
    const written = input.write.mode('overwrite').json(url.replace(/\/$/, ''));
    await expect(written).rejects.toThrow(AnalysisError);
    await expect(written).rejects.toThrow(
      /Cannot overwrite s3:\/\/.*\/out: the query reads s3:\/\/.*\/out,/,
    );
    expect(await store.list('')).toEqual(before);
  });

  it('reads only the files a file sink committed under the prefix', async () => {
    const { session, url, store } = await bucket('stream-out/');
    const stream = session.memoryStream('value STRING');
    const query = await session.readStream
      .memory(stream)
      .writeStream.format('json')
      .option('checkpointLocation', tempDir())
      .start(url);
    stream.addData([{ value: 'a' }]);
    await query.processAllAvailable();
    await query.stop();
    await store.put('part-orphan.json', new TextEncoder().encode('{"value":"orphan"}\n'));
    expect(await session.read.schema('value STRING').json(url).collect()).toEqual([{ value: 'a' }]);
  });
});

describe('a URL whose scheme has no object store', () => {
  it('is refused by every reader and writer, naming the URL and how to register a store', async () => {
    const session = new SluiceSession();
    const url = 's3://landing/clicks/';
    const message =
      /No object store is registered for s3:\/\/ URLs such as 's3:\/\/landing\/clicks\/'.*objectStores: \{ s3: /;
    const df = session.createDataFrame([{ value: 'a' }], 'value STRING');
    for (const format of ['json', 'csv', 'parquet', 'text'] as const) {
      expect(() => session.read.format(format).schema('value STRING').load(url)).toThrow(message);
      await expect(df.write.format(format).save(url)).rejects.toThrow(message);
    }
    await expect(session.read.delta(url)).rejects.toThrow(message);
    await expect(df.write.format('delta').save(url)).rejects.toThrow(message);
    expect(() => session.readStream.schema('value STRING').json(url)).toThrow(message);
    const stream = session.readStream.memory(session.memoryStream('value STRING'));
    await expect(stream.writeStream.format('json').start(url)).rejects.toThrow(message);
    expect(existsSync('s3:')).toBe(false);
  });
});
