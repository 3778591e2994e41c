import { describe, expect, it } from 'vitest';
import { col, count, SluiceSession, sum, window } from '../../core/index.js';
import { UnsupportedOperationError } from '../../core/errors.js';
import {
  addData,
  checkAnswer,
  checkLastBatch,
  execute,
  processAllAvailable,
  type StreamAction,
  testStream,
} from '../../core/testing/index.js';
import { at, clickSchema } from '../support/events.js';

function windowedCounts(session: SluiceSession, watermark = '15 minutes') {
  const events = session.memoryStream(clickSchema, 'clicks');
  const counts = session.readStream
    .memory(events)
    .withWatermark('ts', watermark)
    .groupBy(window(col('ts'), '10 minutes'), col('category'))
    .agg(count().alias('n'));
  return { events, counts };
}

/** The output row of the 10-minute window that starts at `start` (hh:mm), for `category`. */
function windowCount(start: string, category: string, n: number) {
  return {
    window: { start: at(`${start}:00`), end: at(`${start}:00`, 10 * 60_000_000) },
    category,
    n,
  };
}

/** Checks the late rows dropped over every batch so far. */
function lateRowsDropped(expected: number): StreamAction {
  return execute(`${expected} late rows dropped`, (s) => {
    const dropped = s.progress.reduce((n, p) => n + p.lateRowsDropped, 0);
    return dropped === expected ? undefined : `${dropped} late rows were dropped`;
  });
}

/** Checks the watermark the last batch ran under. */
function watermarkIs(expected: string): StreamAction {
  return execute(`the watermark is ${expected}`, (s) => {
    const watermark = s.lastProgress?.eventTime.watermark;
    return watermark === expected ? undefined : `the watermark is ${String(watermark)}`;
  });
}

describe('streaming aggregation in append mode', () => {
  it('emits a window only after the watermark passes its end, exactly once', async () => {
    const { events, counts } = windowedCounts(new SluiceSession());
    await testStream(counts, 'append')(
      addData(events, [
        { ts: at('10:01:00'), category: 'books', user: 'u1' },
        { ts: at('10:05:00'), category: 'books', user: 'u2' },
        { ts: at('10:07:00'), category: 'games', user: 'u3' },
      ]),
      checkAnswer([]),
      // max event time 10:40 -> watermark 10:25 closes [10:00, 10:10) (end 10:10 <= 10:25)
      addData(events, [{ ts: at('10:40:00'), category: 'books', user: 'u4' }]),
      checkAnswer([windowCount('10:00', 'books', 2), windowCount('10:00', 'games', 1)]),
    );
  });

  it('drops rows whose window the watermark has closed and counts them in progress', async () => {
    const { events, counts } = windowedCounts(new SluiceSession());
    await testStream(counts, 'append')(
      addData(events, [{ ts: at('11:00:00'), category: 'books', user: 'u1' }]),
      processAllAvailable(), // the watermark becomes 10:45
      addData(events, [
        { ts: at('10:30:00'), category: 'books', user: 'late' }, // window ends 10:40 <= 10:45: dropped
        { ts: at('10:46:00'), category: 'books', user: 'ok' }, // window [10:40,10:50) still open
      ]),
      processAllAvailable(),
      lateRowsDropped(1),
      addData(events, [{ ts: at('12:00:00'), category: 'x', user: 'u9' }]),
      checkAnswer([windowCount('10:40', 'books', 1), windowCount('11:00', 'books', 1)]),
    );
  });

  it('runs a no-data batch so that a window closes without waiting for the next event', async () => {
    const { events, counts } = windowedCounts(new SluiceSession(), '0 seconds');
    await testStream(counts, 'append')(
      addData(events, [
        { ts: at('10:01:00'), category: 'books', user: 'u1' },
        { ts: at('10:12:00'), category: 'books', user: 'u2' },
      ]),
      // batch 0 computed watermark 10:12; batch 1 (no data) emitted [10:00, 10:10)
      checkLastBatch([windowCount('10:00', 'books', 1)]),
      execute('the last batch read no rows', (s) =>
        s.lastProgress?.numInputRows === 0 ? undefined : 'it read some',
      ),
      checkAnswer([windowCount('10:00', 'books', 1)]),
    );
  });
});

describe('streaming aggregation in update and complete modes', () => {
  it('update mode emits only the groups changed by each batch', async () => {
    const session = new SluiceSession();
    const events = session.memoryStream(clickSchema);
    const counts = session.readStream.memory(events).groupBy('category').agg(count().alias('n'));
    await testStream(counts, 'update')(
      addData(events, [
        { ts: at('10:00:00'), category: 'a', user: 'u' },
        { ts: at('10:00:00'), category: 'b', user: 'u' },
      ]),
      checkLastBatch([
        { category: 'a', n: 1 },
        { category: 'b', n: 1 },
      ]),
      addData(events, [{ ts: at('10:00:00'), category: 'a', user: 'u' }]),
      checkLastBatch([{ category: 'a', n: 2 }]),
    );
  });

  it('complete mode rewrites the whole result every batch', async () => {
    const session = new SluiceSession();
    const events = session.memoryStream('category STRING, amount INT');
    const totals = session.readStream
      .memory(events)
      .groupBy('category')
      .agg(sum('amount').alias('total'));
    await testStream(totals, 'complete')(
      addData(events, [
        { category: 'a', amount: 1 },
        { category: 'b', amount: 2 },
      ]),
      processAllAvailable(),
      addData(events, [{ category: 'a', amount: 10 }]),
      checkLastBatch([
        { category: 'a', total: 11 },
        { category: 'b', total: 2 },
      ]),
      checkAnswer([
        { category: 'a', total: 11 },
        { category: 'b', total: 2 },
      ]),
    );
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
    await testStream(counts, 'append')(
      addData(left, [
        { ts: at('10:01:00'), category: 'books', user: 'u1' },
        { ts: at('10:12:00'), category: 'books', user: 'u2' },
      ]),
      checkAnswer([]),
      watermarkIs('1970-01-01T00:00:00.000Z'),
      // the watermark min(10:12, 10:15) = 10:12 closes [10:00, 10:10)
      addData(right, [{ ts: at('10:15:00'), category: 'games', user: 'u3' }]),
      checkAnswer([windowCount('10:00', 'books', 1)]),
    );
  });
});

describe('watermark delays', () => {
  /** Checks the watermark of the batch after one event at 10:00, in update mode. */
  async function expectWatermarkAfterOneEvent(delay: string, expected: string): Promise<void> {
    const { events, counts } = windowedCounts(new SluiceSession(), delay);
    await testStream(counts, 'update')(
      addData(events, [{ ts: at('10:00:00'), category: 'books', user: 'u1' }]),
      processAllAvailable(),
      addData(events, [{ ts: at('10:00:00'), category: 'books', user: 'u2' }]),
      processAllAvailable(),
      watermarkIs(expected),
    );
  }

  it('takes a month as 31 days, as Spark does', async () => {
    await expectWatermarkAfterOneEvent('1 month', '2025-12-01T10:00:00.000Z');
  });

  it("takes Spark's quoted SQL interval literals", async () => {
    await expectWatermarkAfterOneEvent(
      "INTERVAL '1:30' HOUR TO MINUTE",
      '2026-01-01T08:30:00.000Z',
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
    const { events, counts } = windowedCounts(new SluiceSession(), '5 minutes');
    await testStream(counts, 'complete')(
      addData(events, [{ ts: at('10:01:00'), category: 'books', user: 'u1' }]),
      processAllAvailable(),
      addData(events, [{ ts: at('11:00:00'), category: 'books', user: 'u2' }]),
      processAllAvailable(), // the watermark is now 10:55, far past [10:00, 10:10)
      addData(events, [{ ts: at('10:02:00'), category: 'books', user: 'late' }]),
      checkAnswer([windowCount('10:00', 'books', 2), windowCount('11:00', 'books', 1)]),
      lateRowsDropped(0),
    );
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
