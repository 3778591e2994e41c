/**
 * Progress history: each commit stores its batch's progress record, so a query's recent progress
 * can be read back from its checkpoint after it stopped, across runs, and from checkpoints written
 * before progress was stored (which simply have none).
 */
import { cpSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  col,
  count,
  localCheckpointBackend,
  progressHistory,
  SluiceSession,
  type StreamingQueryProgress,
  window,
} from '../../core/index.js';
import { MAX_STORED_PROGRESS_BYTES, storedProgress } from '../../core/streaming/stored-progress.js';
import { at, clickSchema } from '../support/events.js';
import { tempDir } from '../support/temp-dir.js';

const GOLDEN = fileURLToPath(new URL('../fixtures/golden-checkpoints/', import.meta.url));

/** A windowed count over a memory stream, checkpointed in `checkpoint`. */
function windowedCounts(session: SluiceSession, checkpoint: string) {
  const events = session.memoryStream(clickSchema, 'clicks');
  const counts = session.readStream
    .memory(events)
    .withWatermark('ts', '10 minutes')
    .groupBy(window(col('ts'), '10 minutes'), col('category'))
    .agg(count().alias('n'));
  const start = () =>
    counts.writeStream
      .format('memory')
      .queryName('counts')
      .outputMode('update')
      .option('checkpointLocation', checkpoint)
      .start();
  return { events, start };
}

/** The record as the commit stored it: the reported one without the commit's own time. */
function beforeCommit(p: StreamingQueryProgress) {
  const rates = {
    inputRowsPerSecond: expect.any(Number),
    processedRowsPerSecond: expect.any(Number),
  };
  return {
    ...p,
    ...rates,
    batchDuration: expect.any(Number),
    durationMs: {
      ...p.durationMs,
      commit: 0,
      commitOffsets: 0,
      triggerExecution: expect.any(Number),
    },
    sources: p.sources.map((s) => ({ ...s, ...rates })),
  };
}

describe('progressHistory', () => {
  it("reads back each committed batch's progress, as reported before its commit, after the query stopped", async () => {
    const checkpoint = tempDir('sluice-history-');
    const { events, start } = windowedCounts(new SluiceSession(), checkpoint);
    const query = await start();
    events.addData([{ ts: at('10:00:00'), category: 'a', user: 'u1' }]);
    await query.processAllAvailable();
    events.addData([{ ts: at('10:30:00'), category: 'b', user: 'u2' }]);
    await query.processAllAvailable();
    await query.stop();

    const history = await progressHistory(localCheckpointBackend(checkpoint).checkpoint);
    expect(history.map((p) => p.batchId)).toEqual(query.recentProgress.map((p) => p.batchId));
    expect(history).toEqual(query.recentProgress.map(beforeCommit));
    expect(history[0]).toMatchObject({
      numInputRows: 1,
      eventTime: { max: '2026-01-01T10:00:00.000Z' },
    });
  });

  it('returns the last `limit` batches, oldest first, across runs of the query', async () => {
    const checkpoint = tempDir('sluice-history-');
    const session = new SluiceSession();
    const { events, start } = windowedCounts(session, checkpoint);
    const first = await start();
    events.addData([{ ts: at('10:00:00'), category: 'a', user: 'u1' }]);
    await first.processAllAvailable();
    await first.stop();
    const second = await start();
    events.addData([{ ts: at('10:05:00'), category: 'a', user: 'u2' }]);
    await second.processAllAvailable();
    await second.stop();

    const { checkpoint: store } = localCheckpointBackend(checkpoint);
    const all = await progressHistory(store);
    expect(new Set(all.map((p) => p.runId))).toEqual(new Set([first.runId, second.runId]));
    const last = await progressHistory(store, 1);
    expect(last.map((p) => p.batchId)).toEqual([all[all.length - 1].batchId]);
    expect(last[0].runId).toBe(second.runId);
  });

  it('is empty for a checkpoint whose commits were written before progress was stored', async () => {
    const root = tempDir('sluice-history-golden-');
    cpSync(path.join(GOLDEN, 'update-aggregation'), root, { recursive: true });
    const { checkpoint } = localCheckpointBackend(path.join(root, 'checkpoint'));
    expect((await checkpoint.latestCommit())?.batchId).toBe(3);
    expect(await progressHistory(checkpoint)).toEqual([]);
  });

  it('is empty before the first commit', async () => {
    expect(await progressHistory(localCheckpointBackend(tempDir()).checkpoint)).toEqual([]);
  });
});

describe('storedProgress', () => {
  const progress = (offset: unknown) =>
    ({
      batchId: 7,
      numInputRows: 5,
      sources: [{ description: 'k', startOffset: offset, endOffset: offset, numInputRows: 5 }],
    }) as unknown as StreamingQueryProgress;

  it('stores a small record as it is', () => {
    const p = progress({ t: { 0: 1 } });
    expect(storedProgress(p)).toBe(p);
  });

  it("leaves a large record's offsets out, keeping every figure, since they are in the intent", () => {
    const partitions = Object.fromEntries(
      Array.from({ length: MAX_STORED_PROGRESS_BYTES / 10 }, (_, i) => [i, 1_000_000 + i]),
    );
    const stored = storedProgress(progress({ t: partitions }));
    expect(stored).toEqual({
      batchId: 7,
      numInputRows: 5,
      sources: [{ description: 'k', numInputRows: 5 }],
      offsetsOmitted: true,
    });
    expect(Buffer.byteLength(JSON.stringify(stored))).toBeLessThan(MAX_STORED_PROGRESS_BYTES);
  });
});
