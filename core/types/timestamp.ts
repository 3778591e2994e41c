/**
 * The value user code sees for a timestamp: a JS `Date` (so `instanceof Date`, `getTime()`,
 * `toISOString()`, comparisons and JSON work as they do for any Date) that also carries the
 * microseconds within its millisecond, since Spark's timestamps have microsecond precision and a
 * Date stops at milliseconds. It plays the part of PySpark's `datetime` and Java's
 * `java.sql.Timestamp` (a Date with nanos).
 *
 * The instant is held as the Date's whole milliseconds plus 0–999 µs, both exact integers over
 * Spark's range (years 0001–9999, about ±2.5·10^17 µs, beyond a double's 2^53), so `epochMicros` is
 * a bigint: exact everywhere, where a number would be exact only for years 1685–2255.
 */
import { InvalidOptionError } from '../errors.js';

const MICROS_PER_MS = 1000;

/** A timestamp with microsecond precision that is a `Date`. */
export class Timestamp extends Date {
  #microsOfMilli: number;

  /**
   * The instant `epochMs` milliseconds plus `microsOfMilli` (0–999) microseconds after the epoch.
   * Use {@link Timestamp.fromEpochMicros} to build one from microseconds.
   */
  constructor(epochMs: number, microsOfMilli = 0) {
    if (!Number.isSafeInteger(epochMs)) {
      throw new InvalidOptionError(
        `Timestamp: epochMs ${String(epochMs)} is not a whole number of milliseconds; give an integer.`,
      );
    }
    if (!Number.isInteger(microsOfMilli) || microsOfMilli < 0 || microsOfMilli >= MICROS_PER_MS) {
      throw new InvalidOptionError(
        `Timestamp: microsOfMilli ${String(microsOfMilli)} is not a whole number from 0 to 999; carry whole milliseconds into epochMs.`,
      );
    }
    super(epochMs);
    this.#microsOfMilli = microsOfMilli;
  }

  /** The timestamp `micros` microseconds after the epoch (before it when negative). */
  static fromEpochMicros(micros: number | bigint): Timestamp {
    if (typeof micros === 'bigint') {
      const rem = ((micros % 1000n) + 1000n) % 1000n;
      return new Timestamp(Number((micros - rem) / 1000n), Number(rem));
    }
    if (!Number.isInteger(micros)) {
      throw new InvalidOptionError(
        `Timestamp.fromEpochMicros: ${String(micros)} is not a whole number of microseconds.`,
      );
    }
    // `%` is exact on doubles, so the split holds even beyond 2^53 where `micros` is a coarser grid.
    const rem = ((micros % MICROS_PER_MS) + MICROS_PER_MS) % MICROS_PER_MS;
    return new Timestamp(Math.round((micros - rem) / MICROS_PER_MS), rem);
  }

  /** Microseconds since the epoch, exact over every year a timestamp can hold. */
  get epochMicros(): bigint {
    return BigInt(this.getTime()) * 1000n + BigInt(this.#microsOfMilli);
  }

  /** The microseconds (0–999) after `getMilliseconds()`, as `getMilliseconds()` follows seconds. */
  getMicroseconds(): number {
    return this.#microsOfMilli;
  }

  /**
   * Milliseconds since the epoch with the microseconds as their fraction, so that `<`, `-` and
   * equality by value (`+a === +b`, test matchers) see microseconds: distinct for every microsecond
   * within ±2^43 ms (about 278 years) of 1970.
   * `getTime()` stays Date's whole milliseconds.
   */
  override valueOf(): number {
    return this.getTime() + this.#microsOfMilli / MICROS_PER_MS;
  }

  /** Sets the instant to `epochMs` whole milliseconds, as Date's setTime does: no microseconds. */
  override setTime(epochMs: number): number {
    this.#microsOfMilli = 0;
    return super.setTime(epochMs);
  }

  /** The instant as ISO 8601 text with six fraction digits (`toISOString()` keeps Date's three). */
  toISOStringMicros(): string {
    const iso = this.toISOString();
    return `${iso.slice(0, -1)}${String(this.#microsOfMilli).padStart(3, '0')}Z`;
  }
}

/** Microseconds since the epoch of a Date, its sub-millisecond part when it is a Timestamp. */
export function dateEpochMicros(date: Date): number {
  const ms = date.getTime();
  return ms * MICROS_PER_MS + (date instanceof Timestamp ? date.getMicroseconds() : 0);
}
