/**
 * Streaming deduplication, after Spark's StreamingDeduplicationSuite and
 * StreamingDeduplicationWithinWatermarkSuite: what each batch passes on, what the state store holds,
 * when the watermark lets it forget a key, and which rows it drops as late.
 */
import { describe, expect, it } from 'vitest';
import { col, count, type DataFrame, SluiceSession, sum, window } from '../../core/index.js';
import {
  addData,
  assertNumStateRows,
  checkAnswer,
  checkLastBatch,
  stopStream,
  startStream,
  testStream,
} from '../../core/testing/index.js';
import { droppedByWatermark, newAnswerChecker } from '../support/stream-checks.js';

/** Microseconds of `n` seconds after the epoch. */
/** The timestamp `n` seconds after the epoch. */
const sec = (n: number) => new Date(n * 1000);
const times = (...seconds: number[]) => seconds.map((s) => ({ eventTime: sec(s) }));
const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('dropDuplicates on a stream', () => {
  it('passes on the first row of each key and remembers every key without a watermark', async () => {
    const session = new SluiceSession();
    const input = session.memoryStream('value STRING');
    const deduped = session.readStream.memory(input).dropDuplicates();
    await testStream(deduped, 'append')(
      addData(input, [{ value: 'a' }]),
      checkLastBatch([{ value: 'a' }]),
      assertNumStateRows(1, 1),
      addData(input, [{ value: 'a' }]),
      checkLastBatch([]),
      assertNumStateRows(1, 0),
      addData(input, [{ value: 'a' }, { value: 'b' }]),
      checkLastBatch([{ value: 'b' }]),
      assertNumStateRows(2, 1),
    );
  });

  it('keys on a subset of the columns and passes the first row whole', async () => {
    const session = new SluiceSession();
    const input = session.memoryStream('key STRING, n INT');
    const deduped = session.readStream.memory(input).dropDuplicates('key');
    await testStream(deduped, 'append')(
      addData(input, [
        { key: 'a', n: 1 },
        { key: 'a', n: 2 },
      ]),
      checkLastBatch([{ key: 'a', n: 1 }]),
      addData(input, [
        { key: 'b', n: 1 },
        { key: 'a', n: 3 },
      ]),
      checkLastBatch([{ key: 'b', n: 1 }]),
      assertNumStateRows(2),
    );
  });

  it('treats null keys as equal to each other', async () => {
    const session = new SluiceSession();
    const input = session.memoryStream('key STRING, other INT, n INT');
    const deduped = session.readStream.memory(input).dropDuplicates('key', 'other');
    await testStream(deduped, 'append')(
      addData(input, [
        { key: null, other: null, n: 1 },
        { key: null, other: 1, n: 2 },
        { key: null, other: null, n: 3 },
      ]),
      addData(input, [
        { key: null, other: 1, n: 4 },
        { key: 'x', other: null, n: 5 },
      ]),
      checkAnswer([
        { key: null, other: null, n: 1 },
        { key: null, other: 1, n: 2 },
        { key: 'x', other: null, n: 5 },
      ]),
      assertNumStateRows(3),
    );
  });

  it('forgets keys the watermark passes and drops rows older than it, counting them', async () => {
    const session = new SluiceSession();
    const input = session.memoryStream('eventTime TIMESTAMP');
    const deduped = session.readStream
      .memory(input)
      .withWatermark('eventTime', '10 seconds')
      .dropDuplicates();
    const checkNewAnswer = newAnswerChecker();
    const fiveTimes = range(1, 5).flatMap(() => range(10, 15));
    await testStream(deduped, 'append')(
      addData(input, times(...fiveTimes)),
      checkNewAnswer(times(...range(10, 15))),
      assertNumStateRows(6, 6),
      // the watermark becomes 15 s: a batch without data forgets 10..15
      addData(input, times(25)),
      checkNewAnswer(times(25)),
      assertNumStateRows(1, 1),
      addData(input, times(10)), // older than the watermark: dropped
      checkNewAnswer([]),
      assertNumStateRows(1, 0),
      droppedByWatermark([1]),
      addData(input, times(45)), // the watermark becomes 35 s and forgets 25
      checkNewAnswer(times(45)),
      assertNumStateRows(1, 1),
      addData(input, times(25)),
      checkNewAnswer([]),
      assertNumStateRows(1, 0),
      droppedByWatermark([2]),
    );
  });

  it('forgets a key by the event time among its keys, whatever their order', async () => {
    const session = new SluiceSession();
    const input = session.memoryStream('time TIMESTAMP, id INT');
    const ids = session.readStream
      .memory(input)
      .withWatermark('time', '1 second')
      .dropDuplicates('id', 'time')
      .select('id');
    const checkNewAnswer = newAnswerChecker();
    const rows = (...pairs: [number, number][]) =>
      pairs.map(([time, id]) => ({ time: sec(time), id }));
    await testStream(ids, 'append')(
      addData(input, rows([1, 1], [1, 1], [1, 2])),
      checkNewAnswer([{ id: 1 }, { id: 2 }]),
      addData(input, rows([1, 1], [2, 3], [2, 4])),
      checkNewAnswer([{ id: 3 }, { id: 4 }]),
      addData(input, rows([1, 0], [1, 1], [3, 5], [3, 6])), // time 1 <= watermark 1: dropped
      checkNewAnswer([{ id: 5 }, { id: 6 }]),
      addData(input, rows([1, 0], [4, 7])),
      checkNewAnswer([{ id: 7 }]),
    );
  });

  it('with a watermark on a column outside the keys, drops late rows but keeps every key', async () => {
    const session = new SluiceSession();
    const input = session.memoryStream('eventTime TIMESTAMP, user STRING');
    const users = session.readStream
      .memory(input)
      .withWatermark('eventTime', '0 seconds')
      .dropDuplicates('user');
    await testStream(users, 'append')(
      addData(input, [
        { eventTime: sec(10), user: 'a' },
        { eventTime: sec(20), user: 'b' },
      ]),
      assertNumStateRows(2), // the watermark becomes 20 s
      // keys never forgotten run no batch without data, so the previous batch ran under none
      addData(input, [
        { eventTime: sec(5), user: 'c' }, // not late: no watermark was in force before
        { eventTime: sec(30), user: 'a' }, // a duplicate, however much later
      ]),
      assertNumStateRows(3), // the watermark becomes 30 s
      droppedByWatermark([0]),
      addData(input, [{ eventTime: sec(15), user: 'd' }]), // late: the previous batch ran under 20 s
      checkAnswer([
        { eventTime: sec(10), user: 'a' },
        { eventTime: sec(20), user: 'b' },
        { eventTime: sec(5), user: 'c' },
      ]),
      assertNumStateRows(3),
      droppedByWatermark([1]),
    );
  });

  it('keeps its state across a restart', async () => {
    const session = new SluiceSession();
    const input = session.memoryStream('value STRING');
    const deduped = session.readStream.memory(input).dropDuplicates();
    await testStream(deduped, 'update')(
      addData(input, [{ value: 'a' }, { value: 'b' }]),
      checkLastBatch([{ value: 'a' }, { value: 'b' }]),
      stopStream(),
      startStream(),
      addData(input, [{ value: 'b' }, { value: 'c' }]),
      checkLastBatch([{ value: 'c' }]),
      assertNumStateRows(3),
    );
  });
});

describe('dropDuplicates then an aggregation', () => {
  it('in append mode, each operator closes its windows by its own watermark', async () => {
    const session = new SluiceSession();
    const input = session.memoryStream('eventTime TIMESTAMP');
    const counts = session.readStream
      .memory(input)
      .withWatermark('eventTime', '10 seconds')
      .dropDuplicates()
      .groupBy(window(col('eventTime'), '5 seconds'))
      .agg(count().alias('count'))
      .select(col('window.start').alias('start'), col('count'));
    const checkNewAnswer = newAnswerChecker();
    const fiveTimes = range(1, 5).flatMap(() => range(10, 15));
    // state rows per operator: [dedupe, aggregate]
    await testStream(counts, 'append')(
      addData(input, times(...fiveTimes)),
      checkNewAnswer([]),
      // dedupe holds 10..15; the aggregate [10, 15) and [15, 20)
      assertNumStateRows([6, 2], [6, 2]),
      addData(input, times(25)), // the watermark becomes 15 s
      checkNewAnswer([{ start: sec(10), count: 5 }]),
      assertNumStateRows([1, 2], [1, 1]),
      addData(input, times(10)), // late for dedupe
      checkNewAnswer([]),
      assertNumStateRows([1, 2], [0, 0]),
      droppedByWatermark([1, 0]),
      addData(input, times(40)), // the watermark becomes 30 s
      checkNewAnswer([
        { start: sec(15), count: 1 },
        { start: sec(25), count: 1 },
      ]),
      assertNumStateRows([1, 1], [1, 1]),
    );
  });

  for (const mode of ['update', 'complete'] as const) {
    it(`in ${mode} mode, aggregates each distinct row once`, async () => {
      const session = new SluiceSession();
      const input = session.memoryStream('str STRING, num INT');
      const totals = session.readStream
        .memory(input)
        .dropDuplicates()
        .groupBy('str')
        .agg(sum('num').alias('total'));
      const a = (total: number) => ({ str: 'a', total });
      await testStream(totals, mode)(
        addData(input, [{ str: 'a', num: 1 }]),
        checkLastBatch([a(1)]),
        assertNumStateRows([1, 1], [1, 1]),
        addData(input, [{ str: 'a', num: 1 }]), // a duplicate: nothing changes
        checkLastBatch(mode === 'update' ? [] : [a(1)]),
        assertNumStateRows([1, 1], [0, 0]),
        addData(input, [{ str: 'a', num: 2 }]),
        checkLastBatch([a(3)]),
        assertNumStateRows([2, 1], [1, 1]),
        addData(input, [{ str: 'b', num: 1 }]),
        checkLastBatch(
          mode === 'update' ? [{ str: 'b', total: 1 }] : [a(3), { str: 'b', total: 1 }],
        ),
        assertNumStateRows([3, 2], [1, 1]),
      );
    });
  }
});

describe('dropDuplicatesWithinWatermark on a stream', () => {
  it('forgets a key once the watermark passes its first event time plus the delay', async () => {
    const session = new SluiceSession();
    const input = session.memoryStream('eventTime TIMESTAMP');
    const deduped = session.readStream
      .memory(input)
      .withWatermark('eventTime', '10 seconds')
      .dropDuplicatesWithinWatermark();
    const checkNewAnswer = newAnswerChecker();
    const fiveTimes = range(1, 5).flatMap(() => range(10, 15));
    await testStream(deduped, 'append')(
      addData(input, times(...fiveTimes)), // the watermark becomes 5 s: nothing expires
      checkNewAnswer(times(...range(10, 15))),
      assertNumStateRows(6, 6),
      addData(input, times(...range(13, 17))), // 13..15 are duplicates
      checkNewAnswer(times(16, 17)),
      assertNumStateRows(8, 2),
      addData(input, times(5)), // older than the watermark (7 s)
      checkNewAnswer([]),
      assertNumStateRows(8, 0),
      droppedByWatermark([1]),
      // the watermark becomes 25 s: keys that expire at or before it (10..15, at 20..25) go
      addData(input, times(35)),
      checkNewAnswer(times(35)),
      assertNumStateRows(3, 1),
      addData(input, times(55)), // the watermark becomes 45 s
      checkNewAnswer(times(55)),
      assertNumStateRows(1, 1),
    );
  });

  it('keys on a subset of the columns, each key expiring by its own first row', async () => {
    const session = new SluiceSession();
    const input = session.memoryStream('key STRING, eventTime TIMESTAMP');
    const deduped = session.readStream
      .memory(input)
      .withWatermark('eventTime', '2 seconds')
      .dropDuplicatesWithinWatermark('key');
    const checkNewAnswer = newAnswerChecker();
    const row = (key: string, s: number) => ({ key, eventTime: sec(s) });
    await testStream(deduped, 'append')(
      addData(input, [row('a', 17)]), // 'a' expires at 19; the watermark becomes 15
      checkNewAnswer([row('a', 17)]),
      assertNumStateRows(1, 1),
      addData(input, [row('a', 16)]),
      checkNewAnswer([]),
      assertNumStateRows(1, 0),
      addData(input, [row('a', 13)]), // older than the watermark
      checkNewAnswer([]),
      assertNumStateRows(1, 0),
      droppedByWatermark([1]),
      addData(input, [row('b', 22), row('c', 21)]), // the watermark becomes 20: 'a' expires
      checkNewAnswer([row('b', 22), row('c', 21)]),
      assertNumStateRows(2, 2),
      addData(input, [row('a', 21)]), // 'a' is new again
      checkNewAnswer([row('a', 21)]),
      assertNumStateRows(3, 1),
      addData(input, [row('d', 25)]), // the watermark becomes 23: 'a' and 'c' expire
      checkNewAnswer([row('d', 25)]),
      assertNumStateRows(2, 1),
    );
  });
});

describe('batches without data for a deduplication', () => {
  const cases: ReadonlyArray<readonly [string, (df: DataFrame) => DataFrame, number]> = [
    [
      'dropDuplicates on keys without the event time, which it never forgets',
      (df) => df.dropDuplicates('user'),
      0,
    ],
    ['dropDuplicates on keys with the event time', (df) => df.dropDuplicates('user', 'ts'), 1],
    ['dropDuplicatesWithinWatermark', (df) => df.dropDuplicatesWithinWatermark('user'), 1],
  ];
  for (const [name, query, noDataBatches] of cases) {
    it(`run ${noDataBatches} after the watermark moves, for ${name}`, async () => {
      const session = new SluiceSession();
      const input = session.memoryStream('ts TIMESTAMP, user STRING');
      const running = await query(session.readStream.memory(input).withWatermark('ts', '1 second'))
        .writeStream.format('memory')
        .queryName(`no_data_${noDataBatches}_${name.length}`)
        .start();
      input.addData([{ ts: sec(10), user: 'a' }]);
      await running.processAllAvailable();
      await running.stop();
      const batches = running.recentProgress;
      expect(batches[0].numInputRows).toBe(1);
      expect(batches.filter((p) => p.numInputRows === 0)).toHaveLength(noDataBatches);
    });
  }
});
