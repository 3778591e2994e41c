/**
 * Stream-stream joins, after Spark's StreamingJoinSuite: inner joins without a watermark (state
 * grows), with a time range and with equal windows; outer joins that emit a row with nulls once the
 * watermark says no match can come; left semi joins; and the shapes refused when a query starts.
 */
import { describe, it } from 'vitest';
import { col, type DataFrame, interval, SluiceSession, window } from '../../core/index.js';
import { UnsupportedOperationError } from '../../core/errors.js';
import {
  addData,
  assertNumStateRows,
  checkAnswer,
  checkLastBatch,
  execute,
  expectFailure,
  processAllAvailable,
  type StreamAction,
  startStream,
  stopStream,
  testStream,
} from '../../core/testing/index.js';
import { at } from '../support/events.js';

/** Ad impressions and clicks: Spark's canonical stream-stream join. */
function adStreams(session: SluiceSession, delays = { impressions: '2 hours', clicks: '3 hours' }) {
  const impressionEvents = session.memoryStream('adId INT, impressionTime TIMESTAMP');
  const clickEvents = session.memoryStream('clickAdId INT, clickTime TIMESTAMP');
  const impressions = session.readStream
    .memory(impressionEvents)
    .withWatermark('impressionTime', delays.impressions);
  const clicks = session.readStream.memory(clickEvents).withWatermark('clickTime', delays.clicks);
  return { impressionEvents, clickEvents, impressions, clicks };
}

/** Clicks within an hour after their impression. */
function withinAnHour(impressions: DataFrame, clicks: DataFrame, how: string): DataFrame {
  return impressions.join(
    clicks,
    col('clickAdId')
      .eq(col('adId'))
      .and(
        col('clickTime').between(
          col('impressionTime'),
          col('impressionTime').plus(interval('1 hour')),
        ),
      ),
    how,
  );
}

const impression = (adId: number, time: string) => ({ adId, impressionTime: at(time) });
const click = (clickAdId: number, time: string) => ({ clickAdId, clickTime: at(time) });
const joined = (adId: number, impressionTime: string, clickTime: string) => ({
  ...impression(adId, impressionTime),
  ...click(adId, clickTime),
});

/** Checks the rows dropped as late over every batch so far. */
function lateRowsDropped(expected: number): StreamAction {
  return execute(`${expected} late rows dropped`, (s) => {
    const dropped = s.progress.reduce((n, p) => n + p.lateRowsDropped, 0);
    return dropped === expected ? undefined : `${dropped} late rows were dropped`;
  });
}

/** Checks the operator's name in the last progress. */
function operatorNamed(name: string): StreamAction {
  return execute(`the operator is ${name}`, (s) => {
    const names = s.lastProgress?.stateOperators.map((o) => o.operatorName);
    return names?.length === 1 && names[0] === name
      ? undefined
      : `the operators are ${String(names)}`;
  });
}

describe('stream-stream inner join', () => {
  it('joins rows that arrive in different batches, on either side, and keeps all state without a watermark', async () => {
    const session = new SluiceSession();
    const left = session.memoryStream('key INT, lv STRING');
    const right = session.memoryStream('rkey INT, rv STRING');
    const query = session.readStream
      .memory(left)
      .join(session.readStream.memory(right), col('key').eq(col('rkey')));
    await testStream(query, 'append')(
      addData(left, [
        { key: 1, lv: 'a' },
        { key: 2, lv: 'b' },
      ]),
      checkAnswer([]),
      assertNumStateRows(2),
      addData(right, [
        { rkey: 1, rv: 'x' },
        { rkey: 3, rv: 'z' },
      ]),
      checkLastBatch([{ key: 1, lv: 'a', rkey: 1, rv: 'x' }]),
      addData(left, [{ key: 3, lv: 'c' }]),
      addData(right, [{ rkey: 2, rv: 'y' }]),
      // new left rows meet right state and new right rows; new right rows meet left state: once each
      checkLastBatch([
        { key: 3, lv: 'c', rkey: 3, rv: 'z' },
        { key: 2, lv: 'b', rkey: 2, rv: 'y' },
      ]),
      addData(left, [{ key: 1, lv: 'a2' }]),
      checkLastBatch([{ key: 1, lv: 'a2', rkey: 1, rv: 'x' }]),
      // nothing is evicted without a watermark: three left keys and three right keys
      assertNumStateRows(6),
      operatorNamed('symmetricHashJoin'),
    );
  });

  it('joins rows of the same batch exactly once', async () => {
    const session = new SluiceSession();
    const left = session.memoryStream('key INT, lv STRING');
    const right = session.memoryStream('rkey INT, rv STRING');
    const query = session.readStream
      .memory(left)
      .join(session.readStream.memory(right), col('key').eq(col('rkey')));
    await testStream(query, 'append')(
      addData(left, [
        { key: 1, lv: 'a' },
        { key: 1, lv: 'b' },
      ]),
      addData(right, [{ rkey: 1, rv: 'x' }]),
      checkAnswer([
        { key: 1, lv: 'a', rkey: 1, rv: 'x' },
        { key: 1, lv: 'b', rkey: 1, rv: 'x' },
      ]),
    );
  });

  it('with a time range: joins within it, evicts what the watermark puts out of reach, drops late rows', async () => {
    const { impressionEvents, clickEvents, impressions, clicks } = adStreams(new SluiceSession(), {
      impressions: '10 minutes',
      clicks: '10 minutes',
    });
    await testStream(withinAnHour(impressions, clicks, 'inner'), 'append')(
      addData(impressionEvents, [impression(1, '10:00:00'), impression(2, '10:30:00')]),
      addData(clickEvents, [click(1, '10:20:00'), click(2, '12:00:00')]), // ad 2: too late a click
      checkAnswer([joined(1, '10:00:00', '10:20:00')]),
      // watermark min(10:20, 11:50) = 10:20: the click of 10:20 needs an impression at or before
      // it, and every impression to come is later: evicted; the impressions stay
      assertNumStateRows(3),
      addData(impressionEvents, [impression(3, '13:00:00')]),
      addData(clickEvents, [click(3, '13:30:00')]),
      processAllAvailable(),
      // watermark min(12:50, 13:20) = 12:50: impressions at or before 12:50 can meet no future
      // click (clicks after 12:50 need an impression after 11:50), clicks before 12:50 no future
      // impression (they need one after 12:50, an hour at most before them)
      checkAnswer([joined(1, '10:00:00', '10:20:00'), joined(3, '13:00:00', '13:30:00')]),
      assertNumStateRows(2),
      addData(impressionEvents, [impression(1, '12:40:00')]), // at or before the watermark: late
      addData(clickEvents, [click(3, '13:45:00')]),
      checkLastBatch([joined(3, '13:00:00', '13:45:00')]),
      lateRowsDropped(1),
    );
  });

  it('with equal windows: joins rows of one window and evicts the windows the watermark closed', async () => {
    const session = new SluiceSession();
    const leftEvents = session.memoryStream('key INT, t TIMESTAMP');
    const rightEvents = session.memoryStream('rkey INT, rt TIMESTAMP');
    const left = session.readStream
      .memory(leftEvents)
      .withWatermark('t', '10 minutes')
      .select(col('key'), window(col('t'), '10 minutes').alias('w'), col('t'));
    const right = session.readStream
      .memory(rightEvents)
      .withWatermark('rt', '10 minutes')
      .select(col('rkey'), window(col('rt'), '10 minutes').alias('rw'), col('rt'));
    const query = left
      .join(
        right,
        col('key')
          .eq(col('rkey'))
          .and(col('w').eq(col('rw'))),
      )
      .select(col('key'), col('t'), col('rt'));
    await testStream(query, 'append')(
      addData(leftEvents, [
        { key: 1, t: at('10:01:00') },
        { key: 1, t: at('10:12:00') },
      ]),
      addData(rightEvents, [{ rkey: 1, rt: at('10:09:00') }]),
      checkAnswer([{ key: 1, t: at('10:01:00'), rt: at('10:09:00') }]),
      assertNumStateRows(3),
      addData(leftEvents, [{ key: 2, t: at('10:35:00') }]),
      addData(rightEvents, [{ rkey: 2, rt: at('10:36:00') }]),
      processAllAvailable(),
      // watermark min(10:25, 10:26) = 10:25: windows ending at or before it are gone
      checkAnswer([
        { key: 1, t: at('10:01:00'), rt: at('10:09:00') },
        { key: 2, t: at('10:35:00'), rt: at('10:36:00') },
      ]),
      assertNumStateRows(2),
    );
  });
});

describe('stream-stream outer joins', () => {
  it('left outer: emits an impression with null click columns once no click can come for it', async () => {
    const { impressionEvents, clickEvents, impressions, clicks } = adStreams(new SluiceSession(), {
      impressions: '0 seconds',
      clicks: '0 seconds',
    });
    const nullClick = { clickAdId: null, clickTime: null };
    await testStream(withinAnHour(impressions, clicks, 'left'), 'append')(
      addData(impressionEvents, [impression(1, '10:00:00'), impression(2, '10:00:00')]),
      addData(clickEvents, [click(1, '10:30:00')]),
      checkAnswer([joined(1, '10:00:00', '10:30:00')]),
      addData(impressionEvents, [impression(3, '11:30:00')]),
      addData(clickEvents, [click(3, '11:40:00')]),
      processAllAvailable(),
      // watermark 10:30: a click after it cannot reach an impression at or before 10:30... nor yet
      // at 10:00 + 1 hour. The impressions of 10:00 are out of reach once clicks pass 11:00.
      checkAnswer([
        joined(1, '10:00:00', '10:30:00'),
        joined(3, '11:30:00', '11:40:00'),
        { ...impression(2, '10:00:00'), ...nullClick },
      ]),
      stopStream(),
      startStream(),
      addData(impressionEvents, [impression(4, '13:00:00')]),
      addData(clickEvents, [click(4, '13:00:00')]),
      processAllAvailable(),
      // impression 1 matched: never emitted with nulls; 3 matched too
      checkAnswer([
        joined(1, '10:00:00', '10:30:00'),
        joined(3, '11:30:00', '11:40:00'),
        { ...impression(2, '10:00:00'), ...nullClick },
        joined(4, '13:00:00', '13:00:00'),
      ]),
    );
  });

  it('left outer: a left row without event time is stored and evicted in its batch, under an unchanged watermark too', async () => {
    const { impressionEvents, clickEvents, impressions, clicks } = adStreams(new SluiceSession(), {
      impressions: '0 seconds',
      clicks: '0 seconds',
    });
    const nullClick = { clickAdId: null, clickTime: null };
    const timeless = { adId: 2, impressionTime: null };
    await testStream(withinAnHour(impressions, clicks, 'left'), 'append')(
      addData(impressionEvents, [impression(1, '10:00:00')]),
      addData(clickEvents, [click(1, '10:30:00')]),
      // the batch without data after it runs under the watermark 10:00
      checkAnswer([joined(1, '10:00:00', '10:30:00')]),
      // no later event: the watermark stays at 10:00, so this batch runs under its predecessor's
      addData(impressionEvents, [timeless]),
      addData(clickEvents, [click(1, '10:10:00')]),
      // the row without a time can match nothing: the left side stores it for this batch's clicks,
      // and the eviction, which an unchanged watermark would skip, emits it with nulls at once
      checkLastBatch([joined(1, '10:00:00', '10:10:00'), { ...timeless, ...nullClick }]),
      assertNumStateRows(2),
    );
  });

  it('right outer and full outer emit each unmatched side with nulls', async () => {
    for (const how of ['right', 'full'] as const) {
      const { impressionEvents, clickEvents, impressions, clicks } = adStreams(
        new SluiceSession(),
        {
          impressions: '0 seconds',
          clicks: '0 seconds',
        },
      );
      const unmatchedClick = { adId: null, impressionTime: null, ...click(9, '10:10:00') };
      const unmatchedImpression = {
        ...impression(2, '10:00:00'),
        clickAdId: null,
        clickTime: null,
      };
      await testStream(withinAnHour(impressions, clicks, how), 'append')(
        addData(impressionEvents, [impression(1, '10:00:00'), impression(2, '10:00:00')]),
        addData(clickEvents, [click(1, '10:30:00'), click(9, '10:10:00')]),
        checkAnswer([joined(1, '10:00:00', '10:30:00')]),
        addData(impressionEvents, [impression(5, '14:00:00')]),
        addData(clickEvents, [click(5, '14:00:00')]),
        processAllAvailable(),
        checkAnswer([
          joined(1, '10:00:00', '10:30:00'),
          joined(5, '14:00:00', '14:00:00'),
          unmatchedClick,
          ...(how === 'full' ? [unmatchedImpression] : []),
        ]),
      );
    }
  });
});

describe('stream-stream left semi join', () => {
  it('emits an impression once, at its first click within the hour', async () => {
    const { impressionEvents, clickEvents, impressions, clicks } = adStreams(new SluiceSession(), {
      impressions: '0 seconds',
      clicks: '0 seconds',
    });
    await testStream(withinAnHour(impressions, clicks, 'left_semi'), 'append')(
      addData(impressionEvents, [impression(1, '10:00:00'), impression(2, '10:00:00')]),
      addData(clickEvents, [click(1, '10:10:00')]),
      checkAnswer([impression(1, '10:00:00')]),
      addData(clickEvents, [click(1, '10:20:00'), click(2, '11:30:00')]), // 2: out of range
      checkAnswer([impression(1, '10:00:00')]),
      addData(impressionEvents, [impression(3, '11:00:00')]),
      addData(clickEvents, [click(3, '11:05:00'), click(3, '11:06:00')]),
      checkAnswer([impression(1, '10:00:00'), impression(3, '11:00:00')]),
    );
  });
});

describe('stream-stream joins refused when the query starts', () => {
  function refused(query: DataFrame, mode: 'append' | 'update', pattern: RegExp) {
    return testStream(
      query,
      mode,
    )(expectFailure((e) => e instanceof UnsupportedOperationError && pattern.test(e.message)));
  }

  it.each([
    [
      'left',
      /Stream-stream LeftOuter join .* a watermark on the right side and a range condition bounding the left side/,
    ],
    [
      'right',
      /Stream-stream RightOuter join .* a watermark on the left side and a range condition bounding the right side/,
    ],
    ['full', /Stream-stream FullOuter join .*bounding the left side.*bounding the right side/],
    ['left_semi', /Stream-stream LeftSemi join .* a watermark on the right side/],
  ])('%s join on keys alone, naming the join and what is missing', async (how, pattern) => {
    const session = new SluiceSession();
    const left = session.readStream
      .memory(session.memoryStream('key INT, t TIMESTAMP'))
      .withWatermark('t', '1 hour');
    const right = session.readStream
      .memory(session.memoryStream('rkey INT, rt TIMESTAMP'))
      .withWatermark('rt', '1 hour');
    await refused(left.join(right, col('key').eq(col('rkey')), how), 'append', pattern);
  });

  it('an outer join whose range has no watermark on the other side', async () => {
    const session = new SluiceSession();
    const { impressions } = adStreams(session);
    const clicks = session.readStream.memory(
      session.memoryStream('clickAdId INT, clickTime TIMESTAMP'),
    );
    await refused(
      withinAnHour(impressions, clicks, 'left'),
      'append',
      /LeftOuter join .* a watermark on the right side/,
    );
  });

  it.each([
    [
      'an aggregation over a left outer join in update mode',
      'only in append output mode \\(operator: join LeftOuter\\)',
    ],
    [
      'a join over an aggregation in update mode',
      'A stateful operator over another one that emits rows that are not final is not supported \\(operator: join inner over aggregate on \\[window\\], mode: update\\)',
    ],
    [
      'an aggregation over an inner join in update mode',
      'only in append output mode \\(operator: join Inner\\)',
    ],
  ])('%s: refused, naming the operators', async (shape, message) => {
    const session = new SluiceSession();
    const { impressions, clicks } = adStreams(session);
    const how = shape.includes('left outer') ? 'left' : 'inner';
    const joinedAds = withinAnHour(impressions, clicks, how);
    const perHour = joinedAds.groupBy(window(col('clickTime'), '1 hour')).count();
    const query = shape.startsWith('an aggregation')
      ? perHour
      : perHour.join(
          session.readStream.memory(session.memoryStream('otherCount BIGINT')),
          col('otherCount').eq(col('count')),
        );
    const mode = shape.endsWith('update mode') ? 'update' : 'append';
    await refused(query, mode, new RegExp(message));
  });

  it('a join of two streams in update mode, and a left anti join', async () => {
    const session = new SluiceSession();
    const { impressions, clicks } = adStreams(session);
    await refused(
      withinAnHour(impressions, clicks, 'inner'),
      'update',
      /only in append output mode \(operator: join Inner\)/,
    );
    await refused(
      withinAnHour(impressions, clicks, 'left_anti'),
      'append',
      /LeftAnti join between two streaming DataFrames is not supported/,
    );
  });
});
