import { describe, expect, it } from 'vitest';
import {
  type ListState,
  type MapState,
  type RowObject,
  SluiceSession,
  type StatefulProcessor,
  type StatefulProcessorHandle,
  type TimerValues,
  type ValueState,
} from '../../core/index.js';
import {
  AnalysisError,
  CheckpointError,
  ExecutionError,
  UnsupportedOperationError,
} from '../../core/errors.js';
import {
  addData,
  advanceClock,
  assertNumStateRows,
  checkAnswer,
  checkLastBatch,
  crashAfter,
  execute,
  expectFailure,
  processAllAvailable,
  startStream,
  stopStream,
  type StreamAction,
  testStream,
} from '../../core/testing/index.js';
import type { BatchStep } from '../../core/streaming/micro-batch-execution.js';
import { tempDir } from '../support/temp-dir.js';

const SECOND = 1000;

/** Counts each user's events so far and emits the running count per batch. */
class RunningCount implements StatefulProcessor {
  private count!: ValueState<number>;

  init(handle: StatefulProcessorHandle): void {
    this.count = handle.getValueState<number>('count', 'bigint');
  }

  handleInputRows(key: RowObject, rows: readonly RowObject[]): RowObject[] {
    const n = (this.count.get() ?? 0) + rows.length;
    this.count.update(n);
    return [{ user: key.user, count: n }];
  }
}

function eventStream(session: SluiceSession) {
  return session.memoryStream('user STRING, page STRING', 'events');
}

function runningCounts(session = new SluiceSession()) {
  const events = eventStream(session);
  const counts = session.readStream
    .memory(events)
    .groupBy('user')
    .transformWithState(new RunningCount(), {
      timeMode: 'none',
      outputMode: 'update',
      schema: 'user STRING, count BIGINT',
    });
  return { events, counts };
}

/** Checks a custom metric of the processor summed over every batch so far. */
function metricTotal(name: string, expected: number): StreamAction {
  return execute(`${name} totals ${expected}`, (s) => {
    const total = s.progress.reduce(
      (n, p) => n + (p.stateOperators[0]?.customMetrics?.[name] ?? 0),
      0,
    );
    return total === expected ? undefined : `${name} totals ${total}`;
  });
}

describe('transformWithState with a ValueState', () => {
  it('keeps a running count per key across batches', async () => {
    const { events, counts } = runningCounts();
    await testStream(counts, 'update')(
      addData(events, [
        { user: 'a', page: '/' },
        { user: 'a', page: '/x' },
        { user: 'b', page: '/' },
      ]),
      checkLastBatch([
        { user: 'a', count: 2 },
        { user: 'b', count: 1 },
      ]),
      addData(events, [{ user: 'a', page: '/y' }]),
      checkLastBatch([{ user: 'a', count: 3 }]),
      assertNumStateRows(2),
    );
  });

  it('reads its state back after a restart', async () => {
    const { events, counts } = runningCounts();
    await testStream(counts, 'update')(
      addData(events, [{ user: 'a', page: '/' }]),
      processAllAvailable(),
      stopStream(),
      addData(events, [{ user: 'a', page: '/x' }]),
      startStream(),
      checkLastBatch([{ user: 'a', count: 2 }]),
    );
  });

  it('reports its operator as transformWithStateExec in progress', async () => {
    const { events, counts } = runningCounts();
    await testStream(counts, 'update')(
      addData(events, [{ user: 'a', page: '/' }]),
      processAllAvailable(),
      execute('the operator is named as in Spark', (s) => {
        const name = s.lastProgress?.stateOperators[0]?.operatorName;
        return name === 'transformWithStateExec' ? undefined : `it is named ${String(name)}`;
      }),
    );
  });
});

describe('transformWithState after a crash', () => {
  const steps: BatchStep[] = ['plan', 'load', 'run', 'persist', 'sink', 'commit'];
  it.each(steps)('gives the same output when a batch crashes after %s', async (step) => {
    const { events, counts } = runningCounts();
    await testStream(counts, 'update')(
      addData(events, [{ user: 'a', page: '/' }]),
      processAllAvailable(),
      addData(events, [
        { user: 'a', page: '/x' },
        { user: 'b', page: '/' },
      ]),
      crashAfter(step),
      startStream(),
      addData(events, [{ user: 'a', page: '/z' }]),
      checkLastBatch([{ user: 'a', count: 3 }]),
      checkAnswer([
        { user: 'a', count: 1 },
        { user: 'a', count: 2 },
        { user: 'b', count: 1 },
        { user: 'a', count: 3 },
      ]),
    );
  });
});

/** Buffers each user's pages and emits the session (its pages) once 5 s pass without an event. */
class SessionTimeout implements StatefulProcessor {
  private pages!: ListState<string>;
  private lastSeen!: ValueState<number>;

  init(handle: StatefulProcessorHandle): void {
    this.pages = handle.getListState<string>('pages', 'string');
    this.lastSeen = handle.getValueState<number>('lastSeen', 'bigint');
    this.handle = handle;
  }

  private handle!: StatefulProcessorHandle;

  handleInputRows(_key: RowObject, rows: readonly RowObject[], timers: TimerValues): RowObject[] {
    this.pages.appendList(rows.map((r) => r.page as string));
    for (const t of this.handle.listTimers()) this.handle.deleteTimer(t);
    const now = timers.getCurrentProcessingTimeInMs();
    this.lastSeen.update(now);
    this.handle.registerTimer(now + 5 * SECOND);
    return [];
  }

  handleExpiredTimer(key: RowObject): RowObject[] {
    const pages = this.pages.get();
    this.pages.clear();
    this.lastSeen.clear();
    return [{ user: key.user, pages: pages.join(' ') }];
  }
}

function sessions(session = new SluiceSession()) {
  const events = eventStream(session);
  const out = session.readStream
    .memory(events)
    .groupBy('user')
    .transformWithState(new SessionTimeout(), {
      timeMode: 'processingTime',
      outputMode: 'update',
      schema: 'user STRING, pages STRING',
    });
  return { events, out };
}

describe('transformWithState with processing-time timers', () => {
  it('times a session out after 5 seconds of no data, in a batch without data', async () => {
    const { events, out } = sessions();
    await testStream(out, 'update')(
      addData(events, [
        { user: 'a', page: '/1' },
        { user: 'b', page: '/1' },
      ]),
      checkAnswer([]),
      advanceClock(3 * SECOND),
      addData(events, [{ user: 'a', page: '/2' }]),
      checkAnswer([]),
      advanceClock(3 * SECOND), // b's timer (5 s) is due; a's (8 s) is not
      processAllAvailable(),
      checkAnswer([{ user: 'b', pages: '/1' }]),
      advanceClock(3 * SECOND),
      processAllAvailable(),
      checkAnswer([
        { user: 'b', pages: '/1' },
        { user: 'a', pages: '/1 /2' },
      ]),
      assertNumStateRows(0),
      metricTotal('numExpiredTimers', 2),
    );
  });

  it('stays idle while no timer is due', async () => {
    const { events, out } = sessions();
    await testStream(out, 'update')(
      addData(events, [{ user: 'a', page: '/1' }]),
      processAllAvailable(),
      advanceClock(4 * SECOND),
      processAllAvailable(),
      execute('one batch ran', (s) =>
        s.progress.length === 1 ? undefined : `${s.progress.length} batches ran`,
      ),
    );
  });

  it('fires the same timers when the batch that fires them is re-run after a crash', async () => {
    const { events, out } = sessions();
    await testStream(out, 'update')(
      addData(events, [{ user: 'a', page: '/1' }]),
      processAllAvailable(),
      advanceClock(6 * SECOND),
      crashAfter('sink'),
      advanceClock(60 * SECOND), // the re-run reads the clock its intent recorded
      startStream(),
      checkAnswer([{ user: 'a', pages: '/1' }]),
      assertNumStateRows(0),
    );
  });
});

/** Remembers each user's first and last page per day in a MapState. */
class PagesPerDay implements StatefulProcessor {
  private pages!: MapState<string, number>;

  init(handle: StatefulProcessorHandle): void {
    this.pages = handle.getMapState<string, number>('pages', 'string', 'int');
  }

  handleInputRows(key: RowObject, rows: readonly RowObject[]): RowObject[] {
    for (const r of rows) {
      const page = r.page as string;
      this.pages.updateValue(page, (this.pages.getValue(page) ?? 0) + 1);
    }
    if (rows.some((r) => r.page === 'reset')) this.pages.clear();
    return this.pages.iterator().map(([page, n]) => ({ user: key.user, page, n }));
  }
}

describe('transformWithState with a MapState', () => {
  it('keeps a map per key and emits its entries', async () => {
    const session = new SluiceSession();
    const events = eventStream(session);
    const out = session.readStream
      .memory(events)
      .groupBy('user')
      .transformWithState(new PagesPerDay(), {
        timeMode: 'none',
        outputMode: 'update',
        schema: 'user STRING, page STRING, n INT',
      });
    await testStream(out, 'update')(
      addData(events, [
        { user: 'a', page: '/' },
        { user: 'a', page: '/x' },
        { user: 'a', page: '/' },
      ]),
      checkLastBatch([
        { user: 'a', page: '/', n: 2 },
        { user: 'a', page: '/x', n: 1 },
      ]),
      addData(events, [{ user: 'a', page: '/x' }]),
      checkLastBatch([
        { user: 'a', page: '/', n: 2 },
        { user: 'a', page: '/x', n: 2 },
      ]),
      addData(events, [{ user: 'a', page: 'reset' }]),
      checkLastBatch([]),
      assertNumStateRows(0),
    );
  });
});

/** Emits how many events a user had within the TTL of their last one (a value with a 10 s TTL). */
class RecentCount implements StatefulProcessor {
  private count!: ValueState<number>;

  init(handle: StatefulProcessorHandle): void {
    this.count = handle.getValueState<number>('count', 'bigint', { ttlDurationMs: 10 * SECOND });
  }

  handleInputRows(key: RowObject, rows: readonly RowObject[]): RowObject[] {
    const n = (this.count.get() ?? 0) + rows.length;
    this.count.update(n);
    return [{ user: key.user, count: n }];
  }
}

function recentCounts(session = new SluiceSession()) {
  const events = eventStream(session);
  const out = session.readStream
    .memory(events)
    .groupBy('user')
    .transformWithState(new RecentCount(), {
      timeMode: 'none',
      outputMode: 'update',
      schema: 'user STRING, count BIGINT',
    });
  return { events, out };
}

describe('transformWithState with TTL', () => {
  it('forgets a value its TTL expired, on the batch time, and removes it from the store', async () => {
    const { events, out } = recentCounts();
    await testStream(out, 'update')(
      addData(events, [{ user: 'a', page: '/' }]),
      checkLastBatch([{ user: 'a', count: 1 }]),
      advanceClock(9 * SECOND),
      addData(events, [{ user: 'a', page: '/' }]),
      checkLastBatch([{ user: 'a', count: 2 }]), // written again: expires 10 s from now
      advanceClock(10 * SECOND),
      processAllAvailable(), // a batch without data removes the expired value
      assertNumStateRows(0),
      metricTotal('numValuesRemovedDueToTTLExpiry', 1),
      addData(events, [{ user: 'a', page: '/' }]),
      checkLastBatch([{ user: 'a', count: 1 }]),
    );
  });

  it('keeps state bounded over a stream ten times as long as the TTL', async () => {
    const { events, out } = recentCounts();
    const actions: StreamAction[] = [];
    const totals: number[] = [];
    // one new user per second for 100 s, with a TTL of 10 s
    for (let i = 0; i < 100; i++) {
      actions.push(
        addData(events, [{ user: `u${i}`, page: '/' }]),
        processAllAvailable(),
        execute('record the state rows', (s) => {
          const op = s.lastProgress!.stateOperators[0];
          totals.push(op.numRowsTotal);
        }),
        advanceClock(SECOND),
      );
    }
    await testStream(out, 'update')(...actions);
    // At most the last 11 users' values are live (a TTL of 10 s, one user a second), plus the TTL
    // index: its bucket list and at most two one-minute buckets. Without the TTL it would hold 100.
    const bound = 11 + 3;
    expect(Math.max(...totals)).toBeLessThanOrEqual(bound);
    expect(totals.slice(20).every((n) => n >= 10)).toBe(true);
  });
});

/** Emits a user's events once the watermark passes 10 s after their last one (event-time timer). */
class EventTimeSession implements StatefulProcessor {
  private pages!: ListState<string>;
  private handle!: StatefulProcessorHandle;

  init(handle: StatefulProcessorHandle): void {
    this.pages = handle.getListState<string>('pages', 'string');
    this.handle = handle;
  }

  handleInputRows(_key: RowObject, rows: readonly RowObject[]): RowObject[] {
    this.pages.appendList(rows.map((r) => r.page as string));
    const last = Math.max(...rows.map((r) => (r.ts as Date).getTime()));
    for (const t of this.handle.listTimers()) this.handle.deleteTimer(t);
    this.handle.registerTimer(last + 10 * SECOND);
    return [];
  }

  handleExpiredTimer(key: RowObject): RowObject[] {
    const pages = this.pages.get();
    this.pages.clear();
    return [{ user: key.user, pages: pages.join(' ') }];
  }
}

describe('transformWithState with event-time timers', () => {
  function eventTimeSessions(session = new SluiceSession()) {
    const events = session.memoryStream('ts TIMESTAMP, user STRING, page STRING', 'events');
    const out = session.readStream
      .memory(events)
      .withWatermark('ts', '5 seconds')
      .groupBy('user')
      .transformWithState(new EventTimeSession(), {
        timeMode: 'eventTime',
        outputMode: 'append',
        schema: 'user STRING, pages STRING',
      });
    return { events, out };
  }
  const t = (seconds: number) => new Date(seconds * SECOND);

  it('drops a row as late only at or below the watermark the previous batch ran under', async () => {
    const { events, out } = eventTimeSessions();
    const dropped = (expected: number) =>
      execute(`${expected} late rows dropped`, (s) => {
        const n = s.progress.reduce((sum, p) => sum + p.lateRowsDropped, 0);
        return n === expected ? undefined : `${n} rows were dropped`;
      });
    await testStream(out, 'append')(
      addData(events, [{ ts: t(100), user: 'a', page: '/1' }]),
      processAllAvailable(), // the watermark becomes 95 s; no timer is due, so no batch without data
      // below the watermark now in force, but the previous batch ran under none: kept
      addData(events, [{ ts: t(90), user: 'b', page: '/1' }]),
      processAllAvailable(),
      dropped(0),
      // the previous batch ran under 95 s: late
      addData(events, [{ ts: t(80), user: 'c', page: '/1' }]),
      processAllAvailable(),
      dropped(1),
    );
  });

  it('fires a timer once the watermark passes it, in a batch without data, and drops late rows', async () => {
    const { events, out } = eventTimeSessions();
    await testStream(out, 'append')(
      addData(events, [
        { ts: t(100), user: 'a', page: '/1' },
        { ts: t(104), user: 'b', page: '/1' },
      ]),
      checkAnswer([]),
      // the watermark becomes 107 s: no timer (a's at 110 s, b's at 114 s) is before it
      addData(events, [{ ts: t(112), user: 'c', page: '/1' }]),
      checkAnswer([]),
      // the watermark becomes 115 s, after both; c's timer moves to 130 s
      addData(events, [{ ts: t(120), user: 'c', page: '/2' }]),
      processAllAvailable(),
      checkAnswer([
        { user: 'a', pages: '/1' },
        { user: 'b', pages: '/1' },
      ]),
      addData(events, [{ ts: t(101), user: 'late', page: '/' }]),
      processAllAvailable(),
      execute('the late row was dropped', (s) => {
        const dropped = s.progress.reduce((n, p) => n + p.lateRowsDropped, 0);
        return dropped === 1 ? undefined : `${dropped} rows were dropped`;
      }),
      checkAnswer([
        { user: 'a', pages: '/1' },
        { user: 'b', pages: '/1' },
      ]),
    );
  });

  it('keeps state bounded by its timers over a stream ten times as long as their span', async () => {
    const { events, out } = eventTimeSessions();
    const actions: StreamAction[] = [];
    const totals: number[] = [];
    // one new user a second for 150 s; each session's timer is 10 s after it, the watermark 5 s behind
    for (let i = 0; i < 150; i++) {
      actions.push(
        addData(events, [{ ts: t(1000 + i), user: `u${i}`, page: '/' }]),
        processAllAvailable(),
        execute('record the state rows', (s) => {
          totals.push(s.lastProgress!.stateOperators[0].numRowsTotal);
        }),
      );
    }
    await testStream(out, 'append')(...actions);
    // A session lives until the watermark passes its timer: the last 16 users, each with its pages
    // and its timer's entry by key, plus the timer index's bucket list and at most two buckets.
    expect(Math.max(...totals)).toBeLessThanOrEqual(16 * 2 + 3);
    expect(totals.slice(30).every((n) => n >= 15 * 2)).toBe(true);
  });

  it('is refused at start without a watermark', async () => {
    const session = new SluiceSession();
    const events = session.memoryStream('ts TIMESTAMP, user STRING, page STRING', 'events');
    const out = session.readStream
      .memory(events)
      .groupBy('user')
      .transformWithState(new EventTimeSession(), {
        timeMode: 'eventTime',
        outputMode: 'append',
        schema: 'user STRING, pages STRING',
      });
    await testStream(
      out,
      'append',
    )(
      expectFailure(
        (e) => e instanceof UnsupportedOperationError && /needs a watermark/.test(e.message),
      ),
    );
  });
});

describe('transformWithState with an initial state', () => {
  class CountFromInitial extends RunningCount {
    handleInitialState(_key: RowObject, initial: RowObject): void {
      (this as unknown as { count: ValueState<number> }).count.update(initial.count as number);
    }
  }

  it('sets up each key from its initial row in the first batch', async () => {
    const session = new SluiceSession();
    const events = eventStream(session);
    const initial = session.createDataFrame(
      [
        { user: 'a', count: 10 },
        { user: 'z', count: 5 },
      ],
      'user STRING, count BIGINT',
    );
    const out = session.readStream
      .memory(events)
      .groupBy('user')
      .transformWithState(new CountFromInitial(), {
        timeMode: 'none',
        outputMode: 'update',
        schema: 'user STRING, count BIGINT',
        initialState: initial.groupBy('user'),
      });
    await testStream(out, 'update')(
      addData(events, [
        { user: 'a', page: '/' },
        { user: 'b', page: '/' },
      ]),
      checkLastBatch([
        { user: 'a', count: 11 },
        { user: 'b', count: 1 },
      ]),
      assertNumStateRows(3),
      addData(events, [{ user: 'z', page: '/' }]),
      checkLastBatch([{ user: 'z', count: 6 }]),
    );
  });

  it('needs handleInitialState', () => {
    const session = new SluiceSession();
    const initial = session.createDataFrame([], 'user STRING, count BIGINT');
    expect(() =>
      session.readStream
        .memory(eventStream(session))
        .groupBy('user')
        .transformWithState(new RunningCount(), {
          timeMode: 'none',
          outputMode: 'update',
          schema: 'user STRING, count BIGINT',
          initialState: initial.groupBy('user'),
        }),
    ).toThrow(/no handleInitialState/);
  });
});

describe('transformWithState errors', () => {
  class Failing implements StatefulProcessor {
    init(): void {}
    handleInputRows(key: RowObject): RowObject[] {
      if (key.user === 'bad') throw new Error('cannot handle this user');
      return [];
    }
  }

  class WrongOutput implements StatefulProcessor {
    init(): void {}
    handleInputRows(key: RowObject): RowObject[] {
      return [{ user: key.user, count: 'many' }];
    }
  }

  function run(processor: StatefulProcessor) {
    const session = new SluiceSession();
    const events = eventStream(session);
    const out = session.readStream.memory(events).groupBy('user').transformWithState(processor, {
      timeMode: 'none',
      outputMode: 'update',
      schema: 'user STRING, count BIGINT',
    });
    return { events, out };
  }

  it('names the processor, the method and the key when the processor throws', async () => {
    const { events, out } = run(new Failing());
    await testStream(out, 'update')(
      addData(events, [{ user: 'bad', page: '/' }]),
      expectFailure(
        (e) =>
          e instanceof ExecutionError &&
          e.message.includes(
            'Processor Failing failed in handleInputRows for key {"user":"bad"}',
          ) &&
          e.message.includes('cannot handle this user'),
      ),
    );
  });

  it('names the processor, the key and the column when an output row does not fit the schema', async () => {
    const { events, out } = run(new WrongOutput());
    await testStream(out, 'update')(
      addData(events, [{ user: 'a', page: '/' }]),
      expectFailure(
        (e) =>
          e instanceof ExecutionError &&
          e.message.includes('processor WrongOutput') &&
          e.message.includes("column 'count'") &&
          e.message.includes('key {"user":"a"}'),
      ),
    );
  });

  it('refuses a timer in timeMode none, naming the fix', async () => {
    class TimerWithoutTime implements StatefulProcessor {
      private handle!: StatefulProcessorHandle;
      init(handle: StatefulProcessorHandle): void {
        this.handle = handle;
      }
      handleInputRows(): RowObject[] {
        this.handle.registerTimer(1000);
        return [];
      }
    }
    const { events, out } = run(new TimerWithoutTime());
    await testStream(out, 'update')(
      addData(events, [{ user: 'a', page: '/' }]),
      expectFailure(/registerTimer with timeMode 'none'/),
    );
  });

  it('refuses two variables of the same name when the DataFrame is built', () => {
    class Twice implements StatefulProcessor {
      init(handle: StatefulProcessorHandle): void {
        handle.getValueState('n');
        handle.getListState('n');
      }
      handleInputRows(): RowObject[] {
        return [];
      }
    }
    expect(() => run(new Twice())).toThrow(AnalysisError);
  });

  it('refuses complete mode at start', async () => {
    const { counts } = runningCounts();
    await testStream(counts, 'complete')(expectFailure(/Complete output mode is not supported/));
  });
});

describe('transformWithState on a batch DataFrame', () => {
  it('gives each key its rows once', async () => {
    const session = new SluiceSession();
    const df = session.createDataFrame(
      [
        { user: 'a', page: '/' },
        { user: 'b', page: '/' },
        { user: 'a', page: '/x' },
      ],
      'user STRING, page STRING',
    );
    const rows = await df
      .groupBy('user')
      .transformWithState(new RunningCount(), {
        timeMode: 'none',
        outputMode: 'update',
        schema: 'user STRING, count BIGINT',
      })
      .collect();
    expect(rows).toEqual([
      { user: 'a', count: 2 },
      { user: 'b', count: 1 },
    ]);
  });
});

describe('transformWithState across a restart with a changed processor', () => {
  /** A processor whose init declares what `declare` does. */
  class Declares implements StatefulProcessor {
    constructor(private readonly declare: (h: StatefulProcessorHandle) => void) {}
    init(handle: StatefulProcessorHandle): void {
      this.declare(handle);
    }
    handleInputRows(): RowObject[] {
      return [];
    }
  }

  const session = new SluiceSession();
  const events = eventStream(session);
  function query(
    declare: (h: StatefulProcessorHandle) => void,
    options: { keys?: string[]; timeMode?: 'none' | 'processingTime' } = {},
  ) {
    return session.readStream
      .memory(events)
      .groupBy(...(options.keys ?? ['user']))
      .transformWithState(new Declares(declare), {
        timeMode: options.timeMode ?? 'none',
        outputMode: 'update',
        schema: 'user STRING',
      });
  }
  const original = (h: StatefulProcessorHandle) => {
    h.getValueState('count', 'bigint', { ttlDurationMs: 1000 });
    h.getListState('pages', 'string');
  };

  const refused: ReadonlyArray<{
    readonly change: string;
    readonly after: ReturnType<typeof query>;
    readonly named: RegExp;
  }> = [
    {
      change: "a variable's type",
      after: query((h) => {
        h.getValueState('count', 'string');
        h.getListState('pages', 'string');
      }),
      named: /was .*count: value<long>.*now .*count: value<string>/,
    },
    {
      change: "a variable's kind",
      after: query((h) => {
        h.getValueState('count', 'bigint');
        h.getMapState('pages', 'string', 'int');
      }),
      named: /pages: list<string>.*now .*pages: map<string, integer>/,
    },
    {
      change: 'a variable renamed',
      after: query((h) => {
        h.getValueState('total', 'bigint');
        h.getListState('pages', 'string');
      }),
      named: /now .*total: value<long>/,
    },
    {
      change: 'a variable added',
      after: query((h) => {
        original(h);
        h.getValueState('extra');
      }),
      named: /now .*extra: value<any>/,
    },
    {
      change: 'the time mode',
      after: query(original, { timeMode: 'processingTime' }),
      named: /timeMode: none.*now .*timeMode: processingTime/,
    },
    {
      change: 'the grouping keys',
      after: query(original, { keys: ['page'] }),
      named: /keys: user: string.*now .*keys: page: string/,
    },
  ];

  it.each(refused)(
    'refuses a restart that changed $change, naming it',
    async ({ after, named }) => {
      const checkpointLocation = tempDir();
      await testStream(query(original), 'update', { checkpointLocation })(
        addData(events, [{ user: 'a', page: '/' }]),
        processAllAvailable(),
        stopStream(),
      );
      await testStream(after, 'update', { checkpointLocation })(
        expectFailure((e) => e instanceof CheckpointError && named.test(e.message)),
      );
    },
  );

  it('accepts a restart that changed only a TTL, as Spark does', async () => {
    const checkpointLocation = tempDir();
    await testStream(query(original), 'update', { checkpointLocation })(
      addData(events, [{ user: 'a', page: '/' }]),
      processAllAvailable(),
      stopStream(),
    );
    const longerTtl = query((h) => {
      h.getValueState('count', 'bigint', { ttlDurationMs: 60_000 });
      h.getListState('pages', 'string');
    });
    await testStream(longerTtl, 'update', { checkpointLocation })(
      addData(events, [{ user: 'b', page: '/' }]),
      processAllAvailable(),
      assertNumStateRows(0),
    );
  });
});
