/**
 * Fixed durations given as interval strings (see interval.ts): a trigger interval, a source option
 * such as maxFileAge. A month or a year has no fixed length, so they are refused here.
 */
import { InvalidOptionError } from '../errors.js';
import { parseInterval } from './interval.js';

/**
 * Parses an interval string into microseconds. `what` names the argument in the error message,
 * e.g. `parseDuration('10 minuts', 'window duration')` fails naming "window duration".
 * Zero is refused unless `allowZero` (a trigger interval may be zero; a window may not).
 */
export function parseDuration(text: string, what: string, allowZero = false): number {
  const micros = parseFixedInterval(text, what);
  if (micros < 0 || (micros === 0 && !allowZero)) {
    throw new InvalidOptionError(
      `Invalid ${what} '${text}': expected a ${allowZero ? 'non-negative' : 'positive'} interval such as '10 minutes', '30 seconds' or '1 hour'.`,
    );
  }
  return micros;
}

/** Parses an interval string without months or years into microseconds, of either sign. */
export function parseFixedInterval(text: string, what: string): number {
  const interval = parseInterval(text, what);
  if (interval.months !== 0) {
    throw new InvalidOptionError(
      `Invalid ${what} '${text}': months and years have no fixed length, so Spark refuses them here; give the interval in weeks, days or smaller units, e.g. '30 days'.`,
    );
  }
  return interval.micros;
}
