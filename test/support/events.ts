/**
 * Test data helpers: timestamps from readable times, and the canonical event schema.
 */
import { parseSchema } from '../../core/types/type-names.js';

/** Microseconds since the epoch of `2026-01-01T<hh:mm:ss>Z`. */
export function at(time: string): number {
  return Date.parse(`2026-01-01T${time}Z`) * 1000;
}

/** The schema of click events used across streaming tests. */
export const clickSchema = parseSchema('ts TIMESTAMP, category STRING, user STRING');
