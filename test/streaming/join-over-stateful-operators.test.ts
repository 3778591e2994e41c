/**
 * A stream-stream join over other stateful operators in append mode, after Spark's
 * MultiStatefulOperatorsSuite ("SPARK-49829 time window agg per each source followed by
 * stream-stream join") and StreamingJoinSuite: the operators beneath emit in a batch what that
 * batch's watermark closed, so the join receives rows its own eviction drops in the same batch. It
 * must still store the left ones, for the right rows of the same batch to meet them.
 */
import { describe, it } from 'vitest';
import { col, count, SluiceSession, sum, window } from '../../core/index.js';
import {
  addData,
  assertNumStateRows,
  checkAnswer,
  processAllAvailable,
  testStream,
} from '../../core/testing/index.js';
import { droppedByWatermark, newAnswerChecker } from '../support/stream-checks.js';

/** The timestamp `n` seconds after the epoch. */
const sec = (n: number) => new Date(n * 1000);
const values = (...ns: number[]) => ns.map((value) => ({ value, ts: sec(value) }));

/** Two streams of `value` at `ts` = value seconds, each summed per 10-second window. */
function windowedSums(session: SluiceSession) {
  const leftEvents = session.memoryStream('value BIGINT, ts TIMESTAMP');
  const rightEvents = session.memoryStream('value BIGINT, ts TIMESTAMP');
  const sums = (events: typeof leftEvents, name: string) =>
    session.readStream
      .memory(events)
      .withWatermark('ts', '5 seconds')
      .groupBy(window(col('ts'), '10 seconds'))
      .agg(sum('value').alias(name));
  return {
    leftEvents,
    rightEvents,
    left: sums(leftEvents, 'sumLeft'),
    right: sums(rightEvents, 'sumRight'),
  };
}

describe('a stream-stream join over windowed aggregations, joined on the window', () => {
  it('joins the windows both sides close in the same batch (SPARK-49829)', async () => {
    const { leftEvents, rightEvents, left, right } = windowedSums(new SluiceSession());
    const query = left
      .join(right, 'window', 'inner')
      .select(col('window.end').alias('windowEnd'), col('sumLeft'), col('sumRight'));
    const checkNewAnswer = newAnswerChecker();
    const row = (end: number, sumLeft: number, sumRight: number) => ({
      windowEnd: sec(end),
      sumLeft,
      sumRight,
    });
    // operators: [left sum, right sum, join]
    await testStream(query, 'append')(
      addData(leftEvents, values(1, 2, 3, 4, 5)),
      addData(rightEvents, values(5, 6, 7, 8, 9)),
      // watermark 5 - 5 = 0: no window closed
      checkNewAnswer([]),
      addData(leftEvents, values(11, 12, 13, 14, 15)),
      addData(rightEvents, values(15, 16, 17, 18, 19)),
      // watermark 15 - 5 = 10: both sums close [0, 10) in the batch without data, and the join,
      // which evicts that window by the same watermark, still matches the two
      checkNewAnswer([row(10, 15, 35)]),
      assertNumStateRows([1, 1, 0]),
      addData(leftEvents, values(100)),
      addData(rightEvents, values(101)),
      // watermark 95: [10, 20) closes on both sides
      checkNewAnswer([row(20, 65, 85)]),
      droppedByWatermark([0, 0, 0]),
    );
  });

  it('a left outer join emits a window closed on one side only with nulls, in the batch it closes', async () => {
    const { leftEvents, rightEvents, left, right } = windowedSums(new SluiceSession());
    const query = left
      .join(right, 'window', 'left')
      .select(col('window.end').alias('windowEnd'), col('sumLeft'), col('sumRight'));
    await testStream(query, 'append')(
      addData(leftEvents, values(1, 2, 21)),
      addData(rightEvents, values(3, 14, 22)),
      processAllAvailable(),
      // watermark 16: [0, 10) closes on both sides and matches; [10, 20) only on the left, as a
      // window with no left rows: nothing. The right sum's [10, 20) joins no left window.
      checkAnswer([{ windowEnd: sec(10), sumLeft: 3, sumRight: 3 }]),
      addData(leftEvents, values(40)),
      addData(rightEvents, values(41)),
      processAllAvailable(),
      // watermark 35: [20, 30) closes on both sides
      checkAnswer([
        { windowEnd: sec(10), sumLeft: 3, sumRight: 3 },
        { windowEnd: sec(30), sumLeft: 21, sumRight: 22 },
      ]),
      addData(leftEvents, values(51, 52)),
      addData(rightEvents, values(75)),
      processAllAvailable(),
      // watermark min(47, 70) = 47: the left [40, 50) closes, the right [40, 50) too; then the
      // watermark 70 closes [50, 60) on the left, which no right window meets: nulls
      addData(leftEvents, values(80)),
      processAllAvailable(),
      checkAnswer([
        { windowEnd: sec(10), sumLeft: 3, sumRight: 3 },
        { windowEnd: sec(30), sumLeft: 21, sumRight: 22 },
        { windowEnd: sec(50), sumLeft: 40, sumRight: 41 },
        { windowEnd: sec(60), sumLeft: 103, sumRight: null },
      ]),
    );
  });
});

describe('a stream-stream join over deduplications', () => {
  it('joins the first row of each key and time on each side, and only those', async () => {
    const session = new SluiceSession();
    const leftEvents = session.memoryStream('key INT, t TIMESTAMP');
    const rightEvents = session.memoryStream('rkey INT, rt TIMESTAMP');
    const left = session.readStream
      .memory(leftEvents)
      .withWatermark('t', '10 seconds')
      .dropDuplicates('key', 't');
    const right = session.readStream
      .memory(rightEvents)
      .withWatermark('rt', '10 seconds')
      .dropDuplicates('rkey', 'rt');
    const query = left
      .join(
        right,
        col('key')
          .eq(col('rkey'))
          .and(col('t').eq(col('rt'))),
        'inner',
      )
      .groupBy(window(col('t'), '10 seconds'))
      .agg(count().alias('pairs'));
    const checkNewAnswer = newAnswerChecker();
    await testStream(query, 'append')(
      addData(leftEvents, [
        { key: 1, t: sec(1) },
        { key: 1, t: sec(1) },
        { key: 2, t: sec(2) },
      ]),
      addData(rightEvents, [
        { rkey: 1, rt: sec(1) },
        { rkey: 1, rt: sec(1) },
        { rkey: 2, rt: sec(3) },
      ]),
      checkNewAnswer([]),
      addData(leftEvents, [
        { key: 1, t: sec(1) },
        { key: 3, t: sec(30) },
      ]),
      addData(rightEvents, [
        { rkey: 2, rt: sec(2) },
        { rkey: 3, rt: sec(30) },
      ]),
      // the duplicate (1, 1 s) is dropped by the left dedup; (2, 2 s) meets its left row, held by
      // the join; then the watermark 20 closes [0, 10) with the pairs (1, 1 s) and (2, 2 s)
      checkNewAnswer([{ window: { start: sec(0), end: sec(10) }, pairs: 2 }]),
      droppedByWatermark([0, 0, 0, 0]),
      // at or below the watermark 20: late for each dedup, so the join and the count see nothing
      addData(leftEvents, [{ key: 4, t: sec(5) }]),
      addData(rightEvents, [{ rkey: 4, rt: sec(5) }]),
      checkNewAnswer([]),
      droppedByWatermark([1, 1, 0, 0]),
    );
  });
});
