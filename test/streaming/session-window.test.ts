/**
 * Session windows on a stream, after Spark's StreamingSessionWindowSuite: sessions merge across
 * batches (a row may bridge two), close when the watermark passes their end, drop late rows, keep
 * groups apart, and take a per-row gap; the start-time checks refuse what Spark refuses.
 */
import { describe, expect, it } from 'vitest';
import {
  col,
  count,
  type DataFrame,
  type MemoryStream,
  session_window,
  SluiceSession,
  sum,
} from '../../core/index.js';
import { UnsupportedOperationError } from '../../core/errors.js';
import {
  addData,
  assertNumStateRows,
  checkAnswer,
  checkLastBatch,
  execute,
  processAllAvailable,
  type StreamAction,
  testStream,
} from '../../core/testing/index.js';
import { at } from '../support/events.js';
import { tempDir } from '../support/temp-dir.js';

const SCHEMA = 'ts TIMESTAMP, user STRING, amount INT, gap STRING';

interface Sessions {
  events: MemoryStream;
  sessions: DataFrame;
}

/** Per user: sessions with a 10-minute gap (or each row's `gap`), under a watermark of `delay`. */
function userSessions(delay = '30 minutes', gap: 'static' | 'dynamic' = 'static'): Sessions {
  const session = new SluiceSession();
  const events = session.memoryStream(SCHEMA, 'events');
  const sessions = session.readStream
    .memory(events)
    .withWatermark('ts', delay)
    .groupBy(col('user'), session_window(col('ts'), gap === 'static' ? '10 minutes' : col('gap')))
    .agg(count().alias('n'), sum('amount').alias('total'));
  return { events, sessions };
}

function event(time: string, user: string, amount = 1, gap: string | null = null) {
  return { ts: at(time), user, amount, gap };
}

function sessionRow(user: string, start: string, end: string, n: number, total = n) {
  return { user, session_window: { start: at(start), end: at(end) }, n, total };
}

/** Checks the late rows dropped over every batch so far, in the batches' and the operator's figures. */
function lateRowsDropped(expected: number): StreamAction {
  return execute(`${expected} late rows dropped`, (s) => {
    const dropped = s.progress.reduce((n, p) => n + p.lateRowsDropped, 0);
    const byOperator = s.progress.reduce(
      (n, p) => n + (p.stateOperators[0]?.numRowsDroppedByWatermark ?? 0),
      0,
    );
    return dropped === expected && byOperator === expected
      ? undefined
      : `${dropped} late rows were dropped (${byOperator} by the operator)`;
  });
}

describe('session windows in append mode', () => {
  it('merges rows of later batches into open sessions and emits each session once it closes', async () => {
    const { events, sessions } = userSessions();
    await testStream(sessions, 'append')(
      addData(events, [event('10:00:00', 'a'), event('10:05:00', 'a')]),
      checkAnswer([]), // [10:00, 10:15) is open
      addData(events, [event('10:12:00', 'a', 10)]), // extends it to 10:22
      assertNumStateRows(1),
      checkAnswer([]),
      addData(events, [event('11:00:00', 'b')]), // watermark 10:30 closes a's session
      checkAnswer([sessionRow('a', '10:00:00', '10:22:00', 3, 12)]),
      assertNumStateRows(1), // b's session is open; a's was evicted
      execute('the operator reports as Spark names it', (s) =>
        s.lastProgress?.stateOperators[0]?.operatorName === 'sessionWindowStateStoreSaveExec'
          ? undefined
          : `it reports ${s.lastProgress?.stateOperators[0]?.operatorName}`,
      ),
    );
  });

  it('merges two sessions of earlier batches when a row bridges them, accumulators merged', async () => {
    const { events, sessions } = userSessions('1 hour');
    await testStream(sessions, 'append')(
      addData(events, [event('10:00:00', 'a', 1), event('10:15:00', 'a', 2)]),
      processAllAvailable(), // [10:00, 10:10) and [10:15, 10:25)
      addData(events, [event('10:08:00', 'a', 4)]), // [10:08, 10:18) reaches both
      processAllAvailable(),
      addData(events, [event('12:00:00', 'z')]),
      checkAnswer([sessionRow('a', '10:00:00', '10:25:00', 3, 7)]),
    );
  });

  it('keeps the sessions of each group apart', async () => {
    const { events, sessions } = userSessions();
    await testStream(sessions, 'append')(
      addData(events, [event('10:00:00', 'a'), event('10:03:00', 'b'), event('10:06:00', 'a')]),
      assertNumStateRows(2),
      addData(events, [event('10:14:00', 'b'), event('10:40:00', 'a')]),
      addData(events, [event('12:00:00', 'z')]),
      checkAnswer([
        sessionRow('a', '10:00:00', '10:16:00', 2),
        sessionRow('b', '10:03:00', '10:13:00', 1),
        sessionRow('b', '10:14:00', '10:24:00', 1),
        sessionRow('a', '10:40:00', '10:50:00', 1),
      ]),
    );
  });

  it('drops a row whose own session ends at or before the watermark, and counts it', async () => {
    const { events, sessions } = userSessions('20 minutes');
    await testStream(sessions, 'append')(
      addData(events, [event('10:00:00', 'a')]),
      addData(events, [event('10:40:00', 'b')]), // watermark 10:20: a's [10:00, 10:10) closes
      checkAnswer([sessionRow('a', '10:00:00', '10:10:00', 1)]),
      addData(events, [
        event('10:10:00', 'a'), // [10:10, 10:20) ends at the watermark: late
        event('10:05:00', 'b'), // [10:05, 10:15): late
        event('10:11:00', 'a'), // [10:11, 10:21) is still open
      ]),
      processAllAvailable(),
      lateRowsDropped(2),
      addData(events, [event('12:00:00', 'z')]),
      checkAnswer([
        sessionRow('a', '10:00:00', '10:10:00', 1),
        sessionRow('a', '10:11:00', '10:21:00', 1),
        sessionRow('b', '10:40:00', '10:50:00', 1),
      ]),
    );
  });

  it('closes sessions in a no-data batch once the watermark passes them', async () => {
    const { events, sessions } = userSessions('0 seconds');
    await testStream(sessions, 'append')(
      addData(events, [event('10:00:00', 'a'), event('10:30:00', 'b')]),
      // batch 0 moved the watermark to 10:30; batch 1, without data, closed a's session
      checkLastBatch([sessionRow('a', '10:00:00', '10:10:00', 1)]),
      execute('the last batch read no rows', (s) =>
        s.lastProgress?.numInputRows === 0 ? undefined : 'it read some',
      ),
      assertNumStateRows(1),
    );
  });

  it("takes each row's gap from an expression, dropping rows whose gap is zero, negative or null", async () => {
    const { events, sessions } = userSessions('30 minutes', 'dynamic');
    await testStream(sessions, 'append')(
      addData(events, [
        event('10:00:00', 'a', 1, '20 minutes'),
        event('10:15:00', 'a', 2, '1 minute'), // within a's first 20 minutes: one session to 10:20
        event('10:00:00', 'b', 4, '0 seconds'),
        event('10:01:00', 'b', 8, '-5 minutes'),
        event('10:02:00', 'b', 16, null),
        event('10:03:00', 'b', 32, '2 minutes'),
      ]),
      processAllAvailable(),
      addData(events, [event('10:21:00', 'a', 64, '5 minutes')]), // a session of its own
      addData(events, [event('12:00:00', 'z', 0, '1 minute')]),
      checkAnswer([
        sessionRow('a', '10:00:00', '10:20:00', 2, 3),
        sessionRow('a', '10:21:00', '10:26:00', 1, 64),
        sessionRow('b', '10:03:00', '10:05:00', 1, 32),
      ]),
      lateRowsDropped(0),
    );
  });
});

describe('session windows in complete mode', () => {
  it('rewrites every session, merged ones once, in each batch', async () => {
    const { events, sessions } = userSessions();
    await testStream(sessions, 'complete')(
      addData(events, [event('10:00:00', 'a'), event('10:15:00', 'a')]),
      checkLastBatch([
        sessionRow('a', '10:00:00', '10:10:00', 1),
        sessionRow('a', '10:15:00', '10:25:00', 1),
      ]),
      addData(events, [event('10:08:00', 'a')]),
      checkLastBatch([sessionRow('a', '10:00:00', '10:25:00', 3)]),
      addData(events, [event('13:00:00', 'b'), event('10:20:00', 'a')]),
      // complete mode keeps every session, so a row behind the watermark still joins its session
      checkLastBatch([
        sessionRow('a', '10:00:00', '10:30:00', 4),
        sessionRow('b', '13:00:00', '13:10:00', 1),
      ]),
      lateRowsDropped(0),
    );
  });
});

describe('the start-time checks of session windows', () => {
  const cases: { name: string; mode: 'update' | 'append'; watermark: boolean; error: RegExp }[] = [
    {
      name: 'refuse update mode, as Spark does',
      mode: 'update',
      watermark: true,
      error:
        /Update output mode not supported for session windows .*operator: sessionWindowStateStoreSaveExec on session_window\(ts\).* Use append mode .* or complete mode/,
    },
    {
      name: 'refuse append mode without a watermark, naming what to add',
      mode: 'append',
      watermark: false,
      error:
        /Append output mode not supported for session windows without a watermark \(operator: sessionWindowStateStoreSaveExec on session_window\(ts\)\).* Add withWatermark\('ts', delay\)/,
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const session = new SluiceSession();
      const input = session.readStream.memory(session.memoryStream(SCHEMA));
      const df = (c.watermark ? input.withWatermark('ts', '10 minutes') : input)
        .groupBy('user', session_window('ts', '5 minutes'))
        .count();
      const start = df.writeStream
        .outputMode(c.mode)
        .format('memory')
        .option('checkpointLocation', tempDir())
        .start();
      await expect(start).rejects.toThrow(UnsupportedOperationError);
      await expect(start).rejects.toThrow(c.error);
    });
  }

  it('accept complete mode without a watermark', async () => {
    const session = new SluiceSession();
    const events = session.memoryStream(SCHEMA);
    const df = session.readStream
      .memory(events)
      .groupBy('user', session_window('ts', '5 minutes'))
      .agg(count().alias('n'), sum('amount').alias('total'));
    await testStream(df, 'complete')(
      addData(events, [event('10:00:00', 'a'), event('10:04:00', 'a')]),
      checkLastBatch([sessionRow('a', '10:00:00', '10:09:00', 2)]),
    );
  });
});
