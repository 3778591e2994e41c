/**
 * ManualClock: a processing-time clock that moves only when told to (Spark's StreamManualClock), so
 * a test decides the batch timestamp every intent fixes and `current_timestamp()` returns.
 */
import { InvalidOptionError } from '../errors.js';

/** A clock in ms since the epoch that only `advance` moves. */
export class ManualClock {
  private nowMs: number;

  /** Starts at `startMs` (default 0, the epoch, as Spark's manual clock). */
  constructor(startMs = 0) {
    this.nowMs = checkedMs(startMs, 'ManualClock start');
  }

  /** The current time, in ms since the epoch. */
  now(): number {
    return this.nowMs;
  }

  /** Moves the clock forward by `ms` (a non-negative number of milliseconds). */
  advance(ms: number): void {
    this.nowMs += checkedMs(ms, 'advanceClock');
  }
}

function checkedMs(ms: number, what: string): number {
  if (!Number.isFinite(ms) || ms < 0) {
    throw new InvalidOptionError(
      `${what} takes a non-negative number of milliseconds, got ${String(ms)}; a clock never moves back.`,
    );
  }
  return ms;
}
