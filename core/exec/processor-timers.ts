/**
 * A stateful processor's timers, in two state stores as Spark keeps them: `timers-byKey` maps a
 * grouping key to its timers' times (sorted), for `listTimers` and `deleteTimer`; `timers-byTime`
 * is an expiry index (expiry-index.ts) of (time, key), so the timers due are found in time order
 * without reading every key. A timer is identified by (key, time): registering it twice keeps one.
 */
import type { StateStore } from '../state/state-store.js';
import { type ExpiryEntry, ExpiryIndex } from './expiry-index.js';

/** The stores the timers of a processor with a time mode live in. */
export const TIMER_STORE_NAMES = ['timers-byKey', 'timers-byTime'] as const;

/** A timer that is due: its time, its grouping key's store key and the key's values. */
export interface DueTimer {
  readonly timeMs: number;
  readonly key: string;
  readonly keyRow: unknown[];
}

/** The timers of one processor, for one batch. */
export class ProcessorTimers {
  private readonly byTime: ExpiryIndex;

  constructor(
    private readonly byKey: StateStore,
    byTime: StateStore,
  ) {
    this.byTime = new ExpiryIndex(byTime);
  }

  /** Registers `key`'s timer at `timeMs`; returns false when it was registered already. */
  register(key: string, keyRow: unknown[], timeMs: number): boolean {
    const times = this.list(key);
    if (times.includes(timeMs)) return false;
    times.push(timeMs);
    this.byKey.put(
      key,
      times.sort((a, b) => a - b),
    );
    this.byTime.add(timeMs, key, keyRow);
    return true;
  }

  /** Deletes `key`'s timer at `timeMs`; returns false when there was none. */
  delete(key: string, timeMs: number): boolean {
    const times = this.list(key);
    const kept = times.filter((t) => t !== timeMs);
    if (kept.length === times.length) return false;
    if (kept.length === 0) this.byKey.remove(key);
    else this.byKey.put(key, kept);
    this.byTime.remove(timeMs, key);
    return true;
  }

  /** `key`'s timers, earliest first (a copy). */
  list(key: string): number[] {
    return [...((this.byKey.get(key) as number[] | undefined) ?? [])];
  }

  /** Whether `key` still has its timer at `timeMs`. */
  has(key: string, timeMs: number): boolean {
    return this.list(key).includes(timeMs);
  }

  /** The timers whose time is before `beforeMs`, ordered by time, then key. */
  dueBefore(beforeMs: number): DueTimer[] {
    return this.byTime.dueBefore(beforeMs).map((e: ExpiryEntry) => ({
      timeMs: e.timeMs,
      key: e.id,
      keyRow: e.payload as unknown[],
    }));
  }

  /** The earliest timer's time, or undefined when there is none. */
  earliest(): number | undefined {
    return this.byTime.earliest();
  }
}
