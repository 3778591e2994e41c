/**
 * Interval strings as Spark accepts them in `window`, `withWatermark` and triggers:
 * `'10 minutes'`, `'1 hour 30 minutes'`, `'500 milliseconds'`, `'2 days'`.
 */
import { InvalidOptionError } from '../errors.js';
import { MICROS } from './timestamp-text.js';

const UNIT_MICROS: Record<string, number> = {
  microsecond: 1,
  millisecond: MICROS.millisecond,
  ms: MICROS.millisecond,
  second: MICROS.second,
  sec: MICROS.second,
  s: MICROS.second,
  minute: MICROS.minute,
  min: MICROS.minute,
  m: MICROS.minute,
  hour: MICROS.hour,
  h: MICROS.hour,
  day: MICROS.day,
  d: MICROS.day,
  week: 7 * MICROS.day,
};

const PART = /(\d+(?:\.\d+)?)\s*([a-z]+)/gi;

/**
 * Parses an interval string into microseconds. `what` names the argument in the error message,
 * e.g. `parseDuration('10 minuts', 'window duration')` fails naming "window duration".
 * Zero is refused unless `allowZero` (a watermark delay or a trigger interval may be zero; a window may not).
 */
export function parseDuration(text: string, what: string, allowZero = false): number {
  const trimmed = text.trim().replace(/^interval\s+/i, '');
  let total = 0;
  let consumed = '';
  for (const m of trimmed.matchAll(PART)) {
    const unit = m[2].toLowerCase().replace(/s$/, '');
    const micros = UNIT_MICROS[unit] ?? UNIT_MICROS[m[2].toLowerCase()];
    if (micros === undefined) throw badDuration(text, what, allowZero);
    total += Number(m[1]) * micros;
    consumed += m[0];
  }
  if (
    consumed.replace(/\s/g, '') !== trimmed.replace(/\s/g, '') ||
    total < 0 ||
    (total === 0 && !allowZero)
  ) {
    throw badDuration(text, what, allowZero);
  }
  return Math.round(total);
}

function badDuration(text: string, what: string, allowZero = false): InvalidOptionError {
  return new InvalidOptionError(
    `Invalid ${what} '${text}': expected a ${allowZero ? 'non-negative' : 'positive'} interval such as '10 minutes', '30 seconds' or '1 hour'.`,
  );
}
