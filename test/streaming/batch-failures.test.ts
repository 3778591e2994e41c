/**
 * Failed attempts in the checkpoint: a batch whose attempt throws leaves a record of it (batch, step,
 * error, run) that `checkpointStatus` (and `sluice status`) shows, newest first; the next attempt
 * re-runs the batch from its intent as before.
 */
import { describe, expect, it } from 'vitest';
import { checkpointStatus, localCheckpointBackend, SluiceSession } from '../../core/index.js';
import { tempDir } from '../support/temp-dir.js';

/** A query over `k` whose foreachBatch function throws while `failing()` says so. */
async function startQuery(checkpoint: string, failing: () => boolean) {
  const session = new SluiceSession();
  const input = session.memoryStream('k STRING');
  const query = await session.readStream
    .memory(input)
    .writeStream.foreachBatch((_batch, batchId) => {
      if (failing()) throw new RangeError(`the sink is down for batch ${batchId}`);
    })
    .option('checkpointLocation', checkpoint)
    .start();
  return { input, query };
}

describe('failed attempts', () => {
  it('are recorded with their batch, step and error, and shown by the status newest first', async () => {
    const checkpoint = tempDir();
    let failures = 0;
    const first = await startQuery(checkpoint, () => true);
    first.input.addData([{ k: 'a' }]);
    await expect(first.query.processAllAvailable()).rejects.toThrow(/sink is down for batch 0/);
    failures++;
    const second = await startQuery(checkpoint, () => failures++ < 2);
    second.input.addData([{ k: 'a' }]);
    await expect(second.query.processAllAvailable()).rejects.toThrow(/sink is down/);

    const status = await checkpointStatus(localCheckpointBackend(checkpoint).checkpoint);
    expect(status.lastCommittedBatch).toBeNull();
    expect(status.recentFailures).toHaveLength(2);
    const [newest, oldest] = status.recentFailures;
    expect(newest.atMs).toBeGreaterThanOrEqual(oldest.atMs);
    expect(newest.owner).not.toBe(oldest.owner);
    for (const f of status.recentFailures) {
      expect(f).toMatchObject({
        batchId: 0,
        step: 'sink',
        error: 'RangeError: the sink is down for batch 0',
      });
    }
  });

  it('leave nothing when every attempt succeeds', async () => {
    const checkpoint = tempDir();
    const { input, query } = await startQuery(checkpoint, () => false);
    input.addData([{ k: 'a' }]);
    await query.processAllAvailable();
    await query.stop();
    const status = await checkpointStatus(localCheckpointBackend(checkpoint).checkpoint);
    expect(status.lastCommittedBatch).toBe(0);
    expect(status.recentFailures).toEqual([]);
  });
});
