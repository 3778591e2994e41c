import { describe, expect, it } from 'vitest';
import type {
  ListState,
  RowObject,
  StatefulProcessor,
  StatefulProcessorHandle,
  TimerValues,
  ValueState,
} from '../../core/index.js';
import { Timestamp } from '../../core/index.js';
import { ExecutionError, InvalidOptionError } from '../../core/errors.js';
import { ProcessorTester } from '../../core/testing/index.js';

/** Counts a user's clicks and reports the count once 5 s pass without one. */
class ClickSessions implements StatefulProcessor {
  private clicks!: ValueState<number>;
  private handle!: StatefulProcessorHandle;

  init(handle: StatefulProcessorHandle): void {
    this.clicks = handle.getValueState<number>('clicks', 'int');
    this.handle = handle;
  }

  handleInputRows(_key: RowObject, rows: readonly RowObject[], timers: TimerValues): RowObject[] {
    if (rows.some((r) => r.page === 'crash')) throw new Error('bad page');
    this.clicks.update((this.clicks.get() ?? 0) + rows.length);
    for (const t of this.handle.listTimers()) this.handle.deleteTimer(t);
    this.handle.registerTimer(timers.getCurrentProcessingTimeInMs() + 5000);
    return [];
  }

  handleExpiredTimer(key: RowObject): RowObject[] {
    const clicks = this.clicks.get();
    this.clicks.clear();
    return [{ user: key.user, clicks }];
  }
}

function tester() {
  return new ProcessorTester(new ClickSessions(), {
    keys: ['user'],
    inputSchema: 'user STRING, page STRING',
    outputSchema: 'user STRING, clicks INT',
    timeMode: 'processingTime',
    startTimeMs: 1000,
  });
}

describe('ProcessorTester', () => {
  it('runs a batch and shows the state and timers it left', () => {
    const t = tester();
    expect(
      t.test([
        { user: 'a', page: '/' },
        { user: 'a', page: '/x' },
      ]),
    ).toEqual([]);
    expect(t.valueState('clicks', { user: 'a' })).toBe(2);
    expect(t.timers({ user: 'a' })).toEqual([6000]);
    expect(t.valueState('clicks', { user: 'b' })).toBeUndefined();
  });

  it('fires the timers due when the processing time moves, in a batch without data', () => {
    const t = tester();
    t.test([{ user: 'a', page: '/' }]);
    t.setProcessingTime(3000);
    t.test([{ user: 'b', page: '/' }]);
    expect(t.setProcessingTime(6000)).toEqual([]); // a's timer is at 6000: it fires after it
    expect(t.setProcessingTime(6001)).toEqual([{ user: 'a', clicks: 1 }]);
    expect(t.lastMetrics.numExpiredTimers).toBe(1);
    expect(t.timers({ user: 'a' })).toEqual([]);
    expect(t.setProcessingTime(9000)).toEqual([{ user: 'b', clicks: 1 }]);
  });

  it('lets a test set up state before a batch', () => {
    const t = tester();
    t.setValueState('clicks', { user: 'a' }, 41);
    t.test([{ user: 'a', page: '/' }]);
    expect(t.valueState('clicks', { user: 'a' })).toBe(42);
  });

  it('leaves the state as it was when a batch throws', () => {
    const t = tester();
    t.test([{ user: 'a', page: '/' }]);
    expect(() =>
      t.test([
        { user: 'b', page: '/' },
        { user: 'a', page: 'crash' },
      ]),
    ).toThrow(ExecutionError);
    expect(t.valueState('clicks', { user: 'b' })).toBeUndefined();
    expect(t.valueState('clicks', { user: 'a' })).toBe(1);
  });

  it('refuses to move the clock back', () => {
    const t = tester();
    expect(() => t.setProcessingTime(0)).toThrow(InvalidOptionError);
  });

  it('fires event-time timers once the watermark passes them, and expires TTL values', () => {
    class LastPages implements StatefulProcessor {
      private pages!: ListState<string>;
      private handle!: StatefulProcessorHandle;
      init(handle: StatefulProcessorHandle): void {
        this.pages = handle.getListState<string>('pages', 'string', { ttlDurationMs: 10_000 });
        this.handle = handle;
      }
      handleInputRows(_key: RowObject, rows: readonly RowObject[]): RowObject[] {
        this.pages.appendList(rows.map((r) => r.page as string));
        this.handle.registerTimer(Math.max(...rows.map((r) => (r.ts as Date).getTime())));
        return [];
      }
      handleExpiredTimer(key: RowObject, _t: TimerValues, info: { getExpiryTimeInMs(): number }) {
        return [{ user: key.user, at: info.getExpiryTimeInMs(), pages: this.pages.get().length }];
      }
    }
    const t = new ProcessorTester(new LastPages(), {
      keys: ['user'],
      inputSchema: 'ts TIMESTAMP, user STRING, page STRING',
      outputSchema: 'user STRING, at BIGINT, pages INT',
      timeMode: 'eventTime',
    });
    t.test([{ ts: new Date(2_000), user: 'a', page: '/' }]);
    expect(t.setWatermark(2000)).toEqual([]);
    expect(t.setWatermark(2001)).toEqual([{ user: 'a', at: 2000, pages: 1 }]);
    expect(t.listState('pages', { user: 'a' })).toEqual(['/']);
    t.setProcessingTime(10_000);
    expect(t.listState('pages', { user: 'a' })).toEqual([]);
    expect(t.lastMetrics.numValuesRemovedDueToTTLExpiry).toBe(1);
  });

  it('hands timestamps and dates to the processor as Dates, microseconds kept, in rows and typed state', () => {
    class LastSeen implements StatefulProcessor {
      private last!: ValueState<Date>;
      init(handle: StatefulProcessorHandle): void {
        this.last = handle.getValueState<Date>('last', 'timestamp');
      }
      handleInputRows(key: RowObject, rows: readonly RowObject[]): RowObject[] {
        const previous = this.last.get();
        const latest = rows.map((r) => r.ts as Timestamp).sort((a, b) => +a - +b)[rows.length - 1];
        this.last.update(latest);
        return [{ user: key.user, previous: previous ?? null, latest, day: rows[0].day }];
      }
    }
    const t = new ProcessorTester(new LastSeen(), {
      keys: ['user'],
      inputSchema: 'ts TIMESTAMP, day DATE, user STRING',
      outputSchema: 'user STRING, previous TIMESTAMP, latest TIMESTAMP, day DATE',
    });
    const day = new Date('2026-01-01T00:00:00Z');
    const [first, second] = [Timestamp.fromEpochMicros(7), Timestamp.fromEpochMicros(8)];
    expect(t.test([{ ts: first, day, user: 'a' }])).toEqual([
      { user: 'a', previous: null, latest: first, day },
    ]);
    const [out] = t.test([
      { ts: second, day: new Date('2026-01-01T13:00:00Z'), user: 'a' },
      { ts: first, day, user: 'a' },
    ]);
    expect(out.previous).toBeInstanceOf(Timestamp);
    expect((out.previous as Timestamp).epochMicros).toBe(7n);
    expect((out.latest as Timestamp).epochMicros).toBe(8n);
    expect(out.day).toEqual(day);
    expect((t.valueState('last', { user: 'a' }) as Timestamp).epochMicros).toBe(8n);
  });
});
