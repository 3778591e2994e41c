import { describe, expect, it } from 'vitest';
import { FileSink, FileSinkLog, SluiceSession } from '../../core/index.js';
import { S3ObjectStore, s3ObjectStores } from '../../core/aws/index.js';
import { createBucket, s3Client } from '../support/aws-clients.js';
import { tempDir } from '../support/temp-dir.js';
import { uniqueName } from '../support/unique-name.js';
import {
  batchResult,
  clickBatches,
  clickStream,
  CrashBeforeManifest,
  feed,
  FLUSH,
  readStore,
  startQuery,
  STEPS,
  streamThroughCrash,
} from './file-sink-query.js';

/** A sink root under a prefix of a new bucket on s3rver. */
async function s3Output(): Promise<S3ObjectStore> {
  const bucket = await createBucket(uniqueName('files'));
  return new S3ObjectStore({ client: s3Client(), bucket, prefix: 'out/clicks' });
}

/** The data objects under the root, whether listed or not. */
async function dataObjects(store: S3ObjectStore): Promise<string[]> {
  return (await store.list('')).filter((k) => k.startsWith('part-')).sort();
}

/** The data objects the manifest log lists. */
async function listedObjects(store: S3ObjectStore): Promise<string[]> {
  return (await new FileSinkLog(store).allFiles()).map((f) => f.path).sort();
}

describe('the file sink on S3 (s3rver)', () => {
  it.each(STEPS)('writes every batch exactly once through a crash after %s', async (step) => {
    const store = await s3Output();
    const chunks = clickBatches(3);
    const { crashed, resumedAt } = await streamThroughCrash(step, chunks, (spec) =>
      startQuery({ ...spec, sink: new FileSink(store, { format: 'parquet' }) }),
    );

    expect(resumedAt).toBe(step === 'commit' ? crashed + 1 : crashed);
    expect(await readStore(store, 'parquet')).toEqual(await batchResult(chunks.flat()));
    // s3rver ignores If-None-Match: the re-run is skipped because it reads the manifest first
    expect(await dataObjects(store)).toEqual(await listedObjects(store));
  });

  it('leaves the objects of an attempt that crashed before its manifest unlisted, and unread', async () => {
    const store = await s3Output();
    const checkpoint = tempDir();
    const chunks = clickBatches(3);
    const events = clickStream();
    const crashing = new CrashBeforeManifest(store);
    const first = await startQuery({
      events,
      checkpoint,
      sink: new FileSink(crashing, { format: 'json' }),
    });
    events.addData(chunks[0]);
    await expect(first.processAllAvailable()).rejects.toThrow(/crash before creating/);
    const orphans = await dataObjects(store);
    expect(orphans).toHaveLength(1);

    const second = await startQuery({
      events,
      checkpoint,
      sink: new FileSink(store, { format: 'json' }),
    });
    await feed(second, events, [...chunks.slice(1), [FLUSH]]);
    await second.stop();

    expect(await readStore(store, 'json')).toEqual(await batchResult(chunks.flat()));
    expect(await listedObjects(store)).not.toContain(orphans[0]);
    expect(await dataObjects(store)).toContain(orphans[0]);
  });

  it('is what writeStream.format(...).start(s3 URL) writes when the session resolves s3://', async () => {
    const bucket = await createBucket(uniqueName('files'));
    const session = new SluiceSession({
      objectStores: { s3: s3ObjectStores({ client: s3Client() }) },
    });
    const chunks = clickBatches(2);
    const events = clickStream();
    const query = await startQuery({
      events,
      checkpoint: tempDir(),
      session,
      format: 'csv',
      path: `s3://${bucket}/out/csv`,
      options: { compactInterval: 2 },
    });
    await feed(query, events, [...chunks, [FLUSH]]);
    await query.stop();

    const store = new S3ObjectStore({ client: s3Client(), bucket, prefix: 'out/csv' });
    expect(await readStore(store, 'csv')).toEqual(await batchResult(chunks.flat()));
    expect(await store.list('_sluice_metadata/1.compact')).toEqual(['_sluice_metadata/1.compact']);
  });
});
