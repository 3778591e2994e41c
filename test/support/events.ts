/**
 * Test data helpers: timestamps from readable times, and the canonical event schema.
 */
import { parseSchema } from '../../core/types/type-names.js';
import { Timestamp } from '../../core/types/timestamp.js';

/**
 * The timestamp `2026-01-01T<hh:mm:ss[.ffffff]>Z`, `laterByMicros` after it, as user code sees and
 * gives timestamps (a Timestamp, so microseconds may be given).
 */
export function at(time: string, laterByMicros = 0): Timestamp {
  return Timestamp.fromEpochMicros(atMicros(time) + laterByMicros);
}

/** The timestamp `laterByMicros` after the latest of `times` (Dates), to flush a stream's windows. */
export function afterLatest(times: readonly unknown[], laterByMicros: number): Timestamp {
  const latest = Math.max(...times.map((t) => (t as Date).getTime()));
  return Timestamp.fromEpochMicros(latest * 1000 + laterByMicros);
}

/** Microseconds since the epoch of `2026-01-01T<hh:mm:ss[.ffffff]>Z`, as the engine holds them. */
export function atMicros(time: string): number {
  const [whole, fraction = ''] = time.split('.');
  return Date.parse(`2026-01-01T${whole}Z`) * 1000 + Number(fraction.padEnd(6, '0'));
}

/** The schema of click events used across streaming tests. */
export const clickSchema = parseSchema('ts TIMESTAMP, category STRING, user STRING');
