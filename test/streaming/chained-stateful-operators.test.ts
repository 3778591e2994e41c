/**
 * Chains of stateful operators in one query, after Spark's MultiStatefulOperatorsSuite: each
 * operator closes its own windows by the watermark propagated to it, takes the rows the operator
 * beneath it emits as on time, and reports its own entry in progress.
 */
import { describe, expect, it } from 'vitest';
import { col, count, SluiceSession, sum, window, window_time } from '../../core/index.js';
import {
  addData,
  assertNumStateRows,
  execute,
  processAllAvailable,
  testStream,
} from '../../core/testing/index.js';
import { droppedByWatermark, newAnswerChecker } from '../support/stream-checks.js';

/** The timestamp `n` seconds after the epoch. */
const sec = (n: number) => new Date(n * 1000);
const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => ({ eventTime: sec(from + i) }));

function windowedCountOfWindowedCounts(session: SluiceSession) {
  const input = session.memoryStream('eventTime TIMESTAMP');
  const counts = session.readStream
    .memory(input)
    .withWatermark('eventTime', '0 seconds')
    .groupBy(window(col('eventTime'), '5 seconds'))
    .agg(count().alias('count'))
    .groupBy(window(window_time('window'), '10 seconds'))
    .agg(count().alias('count'), sum('count').alias('sum'))
    .select(col('window.start').alias('start'), col('count'), col('sum'));
  return { input, counts };
}

describe('a windowed count of windowed counts in append mode', () => {
  it('emits each outer window once the watermark passes it, with the inner windows it holds', async () => {
    const { input, counts } = windowedCountOfWindowedCounts(new SluiceSession());
    const checkNewAnswer = newAnswerChecker();
    const row = (start: number, n: number, total: number) => ({
      start: sec(start),
      count: n,
      sum: total,
    });
    // state rows and late rows per operator: [inner count, outer count]
    await testStream(counts, 'append')(
      // inner: [10, 15) 5, [15, 20) 5, [20, 25) 2; the watermark becomes 21 s and a batch without
      // data closes [10, 15) and [15, 20), which close the outer [10, 20)
      addData(input, range(10, 21)),
      checkNewAnswer([row(10, 2, 10)]),
      assertNumStateRows([1, 0]),
      droppedByWatermark([0, 0]),
      // 10..19 are late for the inner count; [20, 25) closes with 7 into the outer [20, 30)
      addData(input, range(10, 29)),
      checkNewAnswer([]),
      assertNumStateRows([1, 1]),
      droppedByWatermark([10, 0]),
      // the watermark becomes 31 s: [25, 30) closes, then the outer [20, 30)
      addData(input, range(30, 31)),
      checkNewAnswer([row(20, 2, 12)]),
      assertNumStateRows([1, 0]),
      droppedByWatermark([10, 0]),
      execute('progress has one entry per stateful operator', (s) => {
        const names = s.lastProgress?.stateOperators.map(
          (o) => `${o.operatorId}:${o.operatorName}`,
        );
        return names?.join(',') === '0:stateStoreSave,1:stateStoreSave'
          ? undefined
          : `the operators are ${names?.join(',')}`;
      }),
    );
  });

  it('gives the batch query result once a final watermark has passed every window', async () => {
    const session = new SluiceSession();
    const { input, counts } = windowedCountOfWindowedCounts(session);
    const events = [...range(3, 14), ...range(12, 27), ...range(41, 43)];
    const table = session
      .createDataFrame(events, 'eventTime TIMESTAMP')
      .groupBy(window(col('eventTime'), '5 seconds'))
      .agg(count().alias('count'))
      .groupBy(window(window_time('window'), '10 seconds'))
      .agg(count().alias('count'), sum('count').alias('sum'))
      .select(col('window.start').alias('start'), col('count'), col('sum'));
    const expected = await table.collect();
    expect(expected.length).toBeGreaterThan(1);
    const checkNewAnswer = newAnswerChecker();
    await testStream(counts, 'append')(
      addData(input, events.slice(0, 12)),
      processAllAvailable(),
      addData(input, events.slice(12)),
      processAllAvailable(),
      addData(input, range(100, 100)), // moves the watermark past every window above
      checkNewAnswer(expected),
    );
  });
});
