import { describe, expect, it } from 'vitest';
import { col, count, SluiceSession, sum, window } from '../../core/index.js';
import { UnsupportedOperationError } from '../../core/errors.js';
import { at, clickSchema } from '../support/events.js';
import { tempDir } from '../support/temp-dir.js';

function windowedCounts(session: SluiceSession, watermark = '15 minutes') {
  const events = session.memoryStream(clickSchema, 'clicks');
  const counts = session.readStream
    .memory(events)
    .withWatermark('ts', watermark)
    .groupBy(window(col('ts'), '10 minutes'), col('category'))
    .agg(count().alias('n'));
  return { events, counts };
}

type Out = { window: { start: number; end: number }; category: string; n: number };

function sorted(rows: Record<string, unknown>[]): string[] {
  return (rows as Out[])
    .map(
      (r) => `${new Date(r.window.start / 1000).toISOString().slice(11, 16)} ${r.category} ${r.n}`,
    )
    .sort();
}

describe('streaming aggregation in append mode', () => {
  it('emits a window only after the watermark passes its end, exactly once', async () => {
    const session = new SluiceSession();
    const { events, counts } = windowedCounts(session);
    const query = await counts.writeStream
      .outputMode('append')
      .format('memory')
      .queryName('a1')
      .start();

    events.addData([
      { ts: at('10:01:00'), category: 'books', user: 'u1' },
      { ts: at('10:05:00'), category: 'books', user: 'u2' },
      { ts: at('10:07:00'), category: 'games', user: 'u3' },
    ]);
    await query.processAllAvailable();
    expect(await session.table('a1').collect()).toEqual([]);

    // max event time 10:40 -> watermark 10:25 closes [10:00, 10:10) (end 10:10 <= 10:25)
    events.addData([{ ts: at('10:40:00'), category: 'books', user: 'u4' }]);
    await query.processAllAvailable();
    expect(sorted(await session.table('a1').collect())).toEqual(['10:00 books 2', '10:00 games 1']);
    await query.stop();
  });

  it('drops rows whose window the watermark has closed and counts them in progress', async () => {
    const session = new SluiceSession();
    const { events, counts } = windowedCounts(session);
    const query = await counts.writeStream
      .outputMode('append')
      .format('memory')
      .queryName('a2')
      .start();
    events.addData([{ ts: at('11:00:00'), category: 'books', user: 'u1' }]);
    await query.processAllAvailable(); // watermark becomes 10:45
    events.addData([
      { ts: at('10:30:00'), category: 'books', user: 'late' }, // window ends 10:40 <= 10:45: dropped
      { ts: at('10:46:00'), category: 'books', user: 'ok' }, // window [10:40,10:50) still open
    ]);
    await query.processAllAvailable();
    const dropped = query.recentProgress.reduce((n, p) => n + p.lateRowsDropped, 0);
    expect(dropped).toBe(1);
    events.addData([{ ts: at('12:00:00'), category: 'x', user: 'u9' }]);
    await query.processAllAvailable();
    expect(sorted(await session.table('a2').collect())).toEqual(['10:40 books 1', '11:00 books 1']);
    await query.stop();
  });

  it('runs a no-data batch so that a window closes without waiting for the next event', async () => {
    const session = new SluiceSession();
    const { events, counts } = windowedCounts(session, '0 seconds');
    const query = await counts.writeStream
      .outputMode('append')
      .format('memory')
      .queryName('a3')
      .start();
    events.addData([
      { ts: at('10:01:00'), category: 'books', user: 'u1' },
      { ts: at('10:12:00'), category: 'books', user: 'u2' },
    ]);
    await query.processAllAvailable();
    // batch 0 computed watermark 10:12; batch 1 (no data) emitted [10:00, 10:10)
    expect(sorted(await session.table('a3').collect())).toEqual(['10:00 books 1']);
    const last = query.lastProgress!;
    expect(last.numInputRows).toBe(0);
    expect(last.sink.numOutputRows).toBe(1);
    await query.stop();
  });
});

describe('streaming aggregation in update and complete modes', () => {
  it('update mode emits only the groups changed by each batch', async () => {
    const session = new SluiceSession();
    const events = session.memoryStream(clickSchema);
    const counts = session.readStream.memory(events).groupBy('category').agg(count().alias('n'));
    const batches: Record<string, unknown>[][] = [];
    const query = await counts.writeStream
      .outputMode('update')
      .foreachBatch((rows) => {
        batches.push(rows);
      })
      .option('checkpointLocation', tempDir())
      .start();
    events.addData([
      { ts: at('10:00:00'), category: 'a', user: 'u' },
      { ts: at('10:00:00'), category: 'b', user: 'u' },
    ]);
    await query.processAllAvailable();
    events.addData([{ ts: at('10:00:00'), category: 'a', user: 'u' }]);
    await query.processAllAvailable();
    await query.stop();
    expect(batches).toEqual([
      expect.arrayContaining([
        { category: 'a', n: 1 },
        { category: 'b', n: 1 },
      ]),
      [{ category: 'a', n: 2 }],
    ]);
  });

  it('complete mode rewrites the whole result every batch', async () => {
    const session = new SluiceSession();
    const events = session.memoryStream('category STRING, amount INT');
    const totals = session.readStream
      .memory(events)
      .groupBy('category')
      .agg(sum('amount').alias('total'));
    const query = await totals.writeStream
      .outputMode('complete')
      .format('memory')
      .queryName('c1')
      .start();
    events.addData([
      { category: 'a', amount: 1 },
      { category: 'b', amount: 2 },
    ]);
    await query.processAllAvailable();
    events.addData([{ category: 'a', amount: 10 }]);
    await query.processAllAvailable();
    const rows = await session.table('c1').orderBy('category').collect();
    expect(rows).toEqual([
      { category: 'a', total: 11 },
      { category: 'b', total: 2 },
    ]);
    await query.stop();
  });
});

describe('the watermark of several watermarked inputs', () => {
  it('stays at the epoch while one input has no data yet, so no window closes early', async () => {
    const session = new SluiceSession();
    const left = session.memoryStream(clickSchema, 'left');
    const right = session.memoryStream(clickSchema, 'right');
    const counts = session.readStream
      .memory(left)
      .withWatermark('ts', '0 seconds')
      .union(session.readStream.memory(right).withWatermark('ts', '0 seconds'))
      .groupBy(window(col('ts'), '10 minutes'), col('category'))
      .agg(count().alias('n'));
    const query = await counts.writeStream
      .outputMode('append')
      .format('memory')
      .queryName('two-inputs')
      .start();
    left.addData([
      { ts: at('10:01:00'), category: 'books', user: 'u1' },
      { ts: at('10:12:00'), category: 'books', user: 'u2' },
    ]);
    await query.processAllAvailable();
    expect(await session.table('two-inputs').collect()).toEqual([]);
    expect(query.lastProgress!.eventTime.watermark).toBe('1970-01-01 00:00:00');

    right.addData([{ ts: at('10:15:00'), category: 'games', user: 'u3' }]);
    await query.processAllAvailable(); // watermark min(10:12, 10:15) = 10:12 closes [10:00, 10:10)
    expect(sorted(await session.table('two-inputs').collect())).toEqual(['10:00 books 1']);
    await query.stop();
  });
});

describe('watermark delays', () => {
  async function watermarkAfterOneEvent(delay: string): Promise<string | undefined> {
    const session = new SluiceSession();
    const { events, counts } = windowedCounts(session, delay);
    const query = await counts.writeStream
      .outputMode('update')
      .format('memory')
      .queryName('wd')
      .start();
    events.addData([{ ts: at('10:00:00'), category: 'books', user: 'u1' }]);
    await query.processAllAvailable();
    events.addData([{ ts: at('10:00:00'), category: 'books', user: 'u2' }]);
    await query.processAllAvailable();
    await query.stop();
    return query.lastProgress!.eventTime.watermark;
  }

  it('takes a month as 31 days, as Spark does', async () => {
    expect(await watermarkAfterOneEvent('1 month')).toBe('2025-12-01 10:00:00');
  });

  it("takes Spark's quoted SQL interval literals", async () => {
    expect(await watermarkAfterOneEvent("INTERVAL '1:30' HOUR TO MINUTE")).toBe(
      '2026-01-01 08:30:00',
    );
  });

  it('refuses a negative delay, naming the column', () => {
    const session = new SluiceSession();
    expect(() => windowedCounts(session, '-5 minutes')).toThrow(
      /Invalid watermark delay '-5 minutes' for column 'ts'/,
    );
  });
});

describe('complete mode ignores the watermark', () => {
  it('keeps counting rows of windows the watermark has passed, since complete mode never evicts state', async () => {
    const session = new SluiceSession();
    const { events, counts } = windowedCounts(session, '5 minutes');
    const query = await counts.writeStream
      .outputMode('complete')
      .format('memory')
      .queryName('late-in-complete')
      .start();
    events.addData([{ ts: at('10:01:00'), category: 'books', user: 'u1' }]);
    await query.processAllAvailable();
    events.addData([{ ts: at('11:00:00'), category: 'books', user: 'u2' }]);
    await query.processAllAvailable(); // the watermark is now 10:55, far past [10:00, 10:10)
    events.addData([{ ts: at('10:02:00'), category: 'books', user: 'late' }]);
    await query.processAllAvailable();
    expect(sorted(await session.table('late-in-complete').collect())).toEqual([
      '10:00 books 2',
      '11:00 books 1',
    ]);
    expect(query.recentProgress.reduce((n, p) => n + p.lateRowsDropped, 0)).toBe(0);
    await query.stop();
  });
});

describe('output mode rules are checked when the query starts', () => {
  it('refuses append mode for an aggregation without watermark, naming the operator and the mode', async () => {
    const session = new SluiceSession();
    const events = session.memoryStream(clickSchema);
    const counts = session.readStream.memory(events).groupBy('category').count();
    await expect(counts.writeStream.outputMode('append').start()).rejects.toThrow(
      /Append output mode not supported .* aggregations without watermark: aggregate on \[category\]/,
    );
  });

  it('refuses complete mode without an aggregation', async () => {
    const session = new SluiceSession();
    const events = session.memoryStream(clickSchema);
    const df = session.readStream.memory(events).select('category');
    await expect(df.writeStream.outputMode('complete').start()).rejects.toBeInstanceOf(
      UnsupportedOperationError,
    );
  });

  it('refuses sorting a stream outside complete mode', async () => {
    const session = new SluiceSession();
    const events = session.memoryStream(clickSchema);
    const df = session.readStream.memory(events).orderBy('category');
    await expect(df.writeStream.outputMode('append').start()).rejects.toThrow(
      /Sorting is not supported/,
    );
  });

  it('refuses collect() on a streaming DataFrame', async () => {
    const session = new SluiceSession();
    const events = session.memoryStream(clickSchema);
    await expect(session.readStream.memory(events).collect()).rejects.toThrow(
      /writeStream\.start\(\)/,
    );
  });
});
