import { describe, expect, it } from 'vitest';
import { col, count, SluiceSession, window } from '../../core/index.js';
import type { OutputMode } from '../../core/sinks/sink.js';
import { at, clickSchema } from '../support/events.js';

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
        operatorId: 0,
        operatorName: 'stateStoreSave',
        // [10:40, 10:50) books is held; [10:00, 10:10) books and games were evicted in the
        // no-data batch that applied watermark 10:25, before this batch
        numRowsTotal: 1,
        numRowsUpdated: 1,
        numRowsRemoved: 0,
        numRowsDroppedByWatermark: 1,
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
});
