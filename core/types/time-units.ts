/**
 * The engine's time units: timestamps are microseconds since the epoch, so every duration is
 * counted in microseconds. A file of its own so that the calendar and the timestamp parsers, which
 * use each other, both depend on it rather than on one another.
 */

/** Microseconds in one millisecond, second, minute, hour and day. */
export const MICROS = {
  millisecond: 1_000,
  second: 1_000_000,
  minute: 60_000_000,
  hour: 3_600_000_000,
  day: 86_400_000_000,
} as const;
