import { describe, expect, it } from 'vitest';
import {
  col,
  count,
  SluiceSession,
  type StreamingQueryProgress,
  window,
} from '../../core/index.js';
import type { OutputMode } from '../../core/sinks/sink.js';
import { at, clickSchema } from '../support/events.js';
import { tempDir } from '../support/temp-dir.js';

async function windowedCountQuery(mode: OutputMode) {
  const session = new SluiceSession();
  const events = session.memoryStream(clickSchema, 'clicks');
  const query = await session.readStream
    .memory(events)
    .withWatermark('ts', '15 minutes')
    .groupBy(window(col('ts'), '10 minutes'), col('category'))
    .agg(count().alias('n'))
    .writeStream.outputMode(mode)
    .format('memory')
    .queryName(`progress_${mode}`)
    .start();
  return { events, query };
}

describe('stateful operators in progress', () => {
  it("report each operator's own keys held, written, evicted and dropped as late, under Spark's names", async () => {
    const { events, query } = await windowedCountQuery('append');
    events.addData([
      { ts: at('10:01:00'), category: 'books', user: 'u1' },
      { ts: at('10:02:00'), category: 'games', user: 'u2' },
      { ts: at('10:40:00'), category: 'books', user: 'u3' },
    ]);
    await query.processAllAvailable(); // watermark 10:25 for the next batch
    events.addData([
      { ts: at('10:03:00'), category: 'books', user: 'late' },
      { ts: at('10:41:00'), category: 'books', user: 'u4' },
    ]);
    await query.processAllAvailable();
    await query.stop();
    const last = query.recentProgress.find((p) => p.numInputRows === 2)!;
    expect(last.stateOperators).toEqual([
      {
        memoryUsedBytes: expect.any(Number) as number,
        operatorId: 0,
        operatorName: 'stateStoreSave',
        // [10:40, 10:50) books is held; [10:00, 10:10) books and games were evicted in the
        // no-data batch that applied watermark 10:25, before this batch
        numRowsTotal: 1,
        numRowsUpdated: 1,
        numRowsRemoved: 0,
        numRowsDroppedByWatermark: 1,
        // the query's 16 state partitions, one store each
        numShufflePartitions: 16,
        numStateStoreInstances: 16,
      },
    ]);
    const evicting = query.recentProgress.find((p) => p.stateOperators[0].numRowsRemoved > 0)!;
    expect(evicting.numInputRows).toBe(0);
    expect(evicting.stateOperators[0]).toMatchObject({ numRowsRemoved: 2, numRowsUpdated: 0 });
  });

  it.each([
    ['append', 1],
    ['update', 1],
    ['complete', 0],
  ] as const)(
    'in %s mode, run %d batch without new data after the watermark moves (it evicts nothing in complete mode)',
    async (mode, noDataBatches) => {
      const { events, query } = await windowedCountQuery(mode);
      events.addData([{ ts: at('10:40:00'), category: 'books', user: 'u1' }]);
      await query.processAllAvailable();
      await query.stop();
      expect(query.recentProgress.filter((p) => p.numInputRows === 0)).toHaveLength(noDataBatches);
    },
  );

  it('report the memory their stores take: growing with the keys held, falling when keys are evicted, the same warm or cold', async () => {
    const checkpoint = tempDir();
    const session = new SluiceSession();
    const events = session.memoryStream(clickSchema, 'clicks');
    const start = () =>
      session.readStream
        .memory(events)
        .withWatermark('ts', '15 minutes')
        .groupBy(window(col('ts'), '10 minutes'), col('category'))
        .agg(count().alias('n'))
        .writeStream.outputMode('append')
        .format('memory')
        .option('checkpointLocation', checkpoint)
        .start();
    const memory = (p: StreamingQueryProgress) => p.stateOperators[0].memoryUsedBytes;
    let query = await start();
    events.addData([{ ts: at('10:01:00'), category: 'books', user: 'u1' }]);
    await query.processAllAvailable();
    const oneKey = memory(query.lastProgress!);
    events.addData([
      { ts: at('10:02:00'), category: 'games', user: 'u2' },
      { ts: at('10:03:00'), category: 'music', user: 'u3' },
    ]);
    await query.processAllAvailable();
    const threeKeys = memory(query.lastProgress!);
    expect(oneKey).toBeGreaterThan(0);
    expect(threeKeys).toBeGreaterThan(oneKey);
    await query.stop();

    query = await start(); // cold: the same keys, loaded from the checkpoint, take the same memory
    events.addData([{ ts: at('10:04:00'), category: 'books', user: 'u4' }]);
    await query.processAllAvailable();
    const [first] = query.recentProgress;
    expect(first.stateLoad).toBe('cold');
    expect(memory(first)).toBe(threeKeys); // 10:04 books only raised a count

    events.addData([{ ts: at('11:00:00'), category: 'books', user: 'u5' }]); // closes 10:00-10:10
    await query.processAllAvailable();
    await query.stop();
    const after = query.lastProgress!;
    expect(after.stateOperators[0].numRowsTotal).toBe(1);
    expect(memory(after)).toBeLessThan(threeKeys);
    expect(memory(after)).toBeGreaterThan(0);
  });

  it('report rows total, updated and removed that add up: each batch holds what the last held, plus keys it added, minus keys it removed', async () => {
    const { events, query } = await windowedCountQuery('update');
    const minutes = [1, 3, 12, 14, 31, 2, 55, 57, 80, 81, 82, 120];
    for (const [i, m] of minutes.entries()) {
      const ts = at('10:00:00', m * 60_000_000);
      events.addData([
        { ts, category: ['books', 'games'][i % 2], user: `u${i}` },
        { ts, category: 'books', user: `v${i}` },
      ]);
      await query.processAllAvailable();
    }
    await query.stop();
    let held = 0;
    for (const p of query.recentProgress) {
      const s = p.stateOperators[0];
      const added = s.numRowsTotal - held + s.numRowsRemoved;
      // a key the batch added it also wrote; a key it wrote may have been held before
      expect(added).toBeGreaterThanOrEqual(0);
      expect(added).toBeLessThanOrEqual(s.numRowsUpdated);
      held = s.numRowsTotal;
    }
    expect(query.recentProgress.some((p) => p.stateOperators[0].numRowsRemoved > 0)).toBe(true);
  });
});
