import { describe, expect, it } from 'vitest';
import {
  col,
  count,
  current_timestamp,
  MemorySink,
  SluiceSession,
  window,
  type BatchStep,
  type RowObject,
} from '../../core/index.js';
import { at, clickSchema } from '../support/events.js';
import { tempDir } from '../support/temp-dir.js';
import { crashAndRestart } from '../support/crash-and-restart.js';

const STEPS: BatchStep[] = ['lease', 'plan', 'load', 'run', 'persist', 'sink', 'commit'];

class Crash extends Error {}

const chunks: RowObject[][] = [
  [
    { ts: at('10:01:00'), category: 'books', user: 'a' },
    { ts: at('10:03:00'), category: 'games', user: 'b' },
    { ts: at('10:12:00'), category: 'books', user: 'c' },
  ],
  [
    { ts: at('10:08:00'), category: 'books', user: 'd' }, // out of order, still in time
    { ts: at('10:24:00'), category: 'games', user: 'e' },
    { ts: at('10:26:00'), category: 'books', user: 'f' },
  ],
  [
    { ts: at('10:02:00'), category: 'books', user: 'late' }, // its window closed: dropped
    { ts: at('10:31:00'), category: 'books', user: 'g' },
    { ts: at('10:33:00'), category: 'games', user: 'h' },
  ],
];
/** An event far ahead that moves the watermark past every window above. */
const flush: RowObject = { ts: at('13:00:00'), category: 'flush', user: 'z' };

function query(session: SluiceSession, events: ReturnType<SluiceSession['memoryStream']>) {
  return session.readStream
    .memory(events)
    .withWatermark('ts', '10 minutes')
    .groupBy(window(col('ts'), '10 minutes'), col('category'))
    .agg(count().alias('n'));
}

function canonical(rows: RowObject[]): string[] {
  return rows
    .map((r) => JSON.stringify([(r.window as { start: number }).start, r.category, r.n]))
    .sort();
}

async function expectedResult(): Promise<string[]> {
  const session = new SluiceSession();
  const all = chunks.flat().filter((r) => r.user !== 'late');
  const batch = session
    .createDataFrame(all, clickSchema)
    .groupBy(window(col('ts'), '10 minutes'), col('category'))
    .agg(count().alias('n'));
  return canonical(await batch.collect());
}

describe('a query killed at any step of a batch and restarted', () => {
  for (const step of STEPS) {
    it(`gives the batch result when killed right after '${step}'`, async () => {
      const { rows, progress, crashedBatch } = await crashAndRestart({
        query,
        schema: clickSchema,
        chunks,
        flush,
        step,
      });
      expect(canonical(rows)).toEqual(await expectedResult());
      // the interrupted batch re-ran, unless its commit had landed
      expect(progress[0].batchId).toBe(step === 'commit' ? crashedBatch + 1 : crashedBatch);
      expect(progress[0].stateLoad).toBe('cold');
    });
  }

  it('re-runs an interrupted batch with the offsets its intent recorded, even if more data arrived', async () => {
    const checkpoint = tempDir();
    const session = new SluiceSession();
    const events = session.memoryStream(clickSchema);
    const first = await query(session, events)
      .writeStream.outputMode('append')
      .format('memory')
      .option('checkpointLocation', checkpoint)
      .afterStep((s) => {
        if (s === 'plan') throw new Crash('after plan');
      })
      .start();
    events.addData(chunks[0]);
    await expect(first.processAllAvailable()).rejects.toBeInstanceOf(Crash);
    events.addData(chunks[1]);
    const second = await query(session, events)
      .writeStream.outputMode('append')
      .format('memory')
      .option('checkpointLocation', checkpoint)
      .start();
    await second.processAllAvailable();
    await second.stop();
    expect(second.recentProgress[0].sources[0]).toMatchObject({
      startOffset: null,
      endOffset: 3,
      numInputRows: 3,
    });
    expect(second.recentProgress[1].sources[0]).toMatchObject({
      startOffset: 3,
      endOffset: 6,
      numInputRows: 3,
    });
  });

  it('refuses to restart a checkpoint with a query whose state has a different shape', async () => {
    const checkpoint = tempDir();
    const session = new SluiceSession();
    const events = session.memoryStream(clickSchema);
    const q = await query(session, events)
      .writeStream.outputMode('append')
      .option('checkpointLocation', checkpoint)
      .start();
    events.addData(chunks[0]);
    await q.processAllAvailable();
    await q.stop();
    const changed = session.readStream
      .memory(events)
      .withWatermark('ts', '10 minutes')
      .groupBy(window(col('ts'), '10 minutes'))
      .count();
    await expect(
      changed.writeStream.outputMode('append').option('checkpointLocation', checkpoint).start(),
    ).rejects.toThrow(
      /stateful operators changed .* it holds state for \[v2 \| #0 aggregate\(keys: window\(ts, .*, category: string.*\], the query now has \[v2 \| #0 aggregate\(keys: window\(ts, [^;]*; values/,
    );
  });
});

describe('current_timestamp()', () => {
  it('is the batch processing time from the intent, so a re-run batch sees the same value', async () => {
    const checkpoint = tempDir();
    const session = new SluiceSession();
    const events = session.memoryStream(clickSchema);
    const stamped = () =>
      session.readStream.memory(events).select(col('user'), current_timestamp().alias('at'));
    const sink = new MemorySink(stamped().schema);
    const first = await stamped()
      .writeStream.sink(sink)
      .option('checkpointLocation', checkpoint)
      .afterStep((step) => {
        if (step === 'sink') throw new Crash('after sink');
      })
      .start();
    events.addData([{ ts: at('10:00:00'), category: 'a', user: 'u1' }]);
    await expect(first.processAllAvailable()).rejects.toBeInstanceOf(Crash);
    const firstAttempt = sink.rows();
    await new Promise((r) => setTimeout(r, 5));
    const rerunStartedMs = Date.now();
    const rerunSink = new MemorySink(stamped().schema);
    const second = await stamped()
      .writeStream.sink(rerunSink)
      .option('checkpointLocation', checkpoint)
      .start();
    await second.processAllAvailable();
    await second.stop();
    expect(rerunSink.rows()).toEqual(firstAttempt);
    expect((firstAttempt[0].at as Date).getTime()).toBeLessThan(rerunStartedMs);
  });
});
