import { describe, expect, it } from 'vitest';
import { DeltaLog, DeltaSink, SluiceSession } from '../../core/index.js';
import { S3ObjectStore } from '../../core/aws/index.js';
import { createBucket, s3Client } from '../support/aws-clients.js';
import { tempDir } from '../support/temp-dir.js';
import { uniqueName } from '../support/unique-name.js';
import {
  batchResult,
  canonical,
  clickBatches,
  clickStream,
  FLUSH,
  startStream,
} from './window-counts.js';

class Crash extends Error {}

/** A Delta table under a prefix of a new bucket on s3rver. */
async function s3Table(): Promise<S3ObjectStore> {
  const bucket = await createBucket(uniqueName('delta'));
  return new S3ObjectStore({ client: s3Client(), bucket, prefix: 'tables/clicks' });
}

describe('the canonical windowed count streamed into a Delta table on S3 (s3rver)', () => {
  it('reads back with read.delta as the batch query computes it', async () => {
    const store = await s3Table();
    const chunks = clickBatches();
    const events = clickStream();
    const query = await startStream({
      sink: new DeltaSink(store, { partitionBy: ['category'] }),
      checkpoint: tempDir(),
      events,
    });
    for (const chunk of [...chunks, [FLUSH]]) {
      events.addData(chunk);
      await query.processAllAvailable();
    }
    await query.stop();

    const rows = await (await new SluiceSession().read.delta(store)).collect();
    expect(canonical(rows)).toEqual(await batchResult(chunks.flat()));
    const keys = await store.list('');
    // a log version per batch that had rows for the sink (and the one that created the table)
    const logVersions = keys.filter((k) => /^_delta_log\/\d{20}\.json$/.test(k)).length;
    const withRows = query.recentProgress.filter((p) => p.sink.numOutputRows > 0).length;
    expect(logVersions).toBeGreaterThanOrEqual(withRows);
    expect(logVersions).toBeLessThanOrEqual(withRows + 1);
    expect(logVersions).toBeLessThan(query.recentProgress.length);
    expect(keys.some((k) => k.startsWith('category=books/part-'))).toBe(true);
  });

  it('writes a batch re-run after a crash between sink and commit once: the txn decides, not the conditional write', async () => {
    const store = await s3Table();
    const checkpoint = tempDir();
    const chunks = clickBatches(3);
    const events = clickStream();
    let armed = false;
    let crashed = -1;
    const first = await startStream({
      sink: new DeltaSink(store),
      checkpoint,
      events,
      afterStep: (step, batchId) => {
        if (armed && step === 'sink') {
          armed = false;
          crashed = batchId;
          throw new Crash(`after the sink of batch ${batchId}`);
        }
      },
    });
    events.addData(chunks[0]);
    await first.processAllAvailable();
    armed = true;
    events.addData(chunks[1]);
    await expect(first.processAllAvailable()).rejects.toBeInstanceOf(Crash);

    const second = await startStream({ sink: new DeltaSink(store), checkpoint, events });
    for (const chunk of [chunks[2], [FLUSH]]) {
      events.addData(chunk);
      await second.processAllAvailable();
    }
    await second.stop();
    expect(second.recentProgress[0].batchId).toBe(crashed);

    const rows = await (await new SluiceSession().read.delta(store)).collect();
    expect(canonical(rows)).toEqual(await batchResult(chunks.flat()));
    const log = new DeltaLog(store);
    const versions = await log.versions();
    const txns = await Promise.all(
      versions.map(async (v) =>
        (await log.readCommit(v)).flatMap((a) => ('txn' in a ? [a.txn.version] : [])),
      ),
    );
    // each batch with rows once, in batch order, the re-run one included
    const batchIds = txns.flat();
    expect(batchIds).toHaveLength(versions.length);
    expect(batchIds).toEqual([...new Set(batchIds)].sort((a, b) => a - b));
  });
});
