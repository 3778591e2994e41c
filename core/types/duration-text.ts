/**
 * Durations as intervals are written (`10 minutes`, `1 hour 30 minutes`), for plans and messages
 * that show a window's length or a watermark's delay.
 */

const UNITS: readonly [number, string][] = [
  [86_400_000_000, 'day'],
  [3_600_000_000, 'hour'],
  [60_000_000, 'minute'],
  [1_000_000, 'second'],
  [1_000, 'millisecond'],
  [1, 'microsecond'],
];

/** `10 minutes`, `1 hour 30 minutes`: a duration in µs in the units an interval is written in. */
export function durationText(micros: number): string {
  if (micros === 0) return '0 seconds';
  const parts: string[] = [];
  let rest = Math.abs(micros);
  for (const [size, unit] of UNITS) {
    const n = Math.floor(rest / size);
    if (n === 0) continue;
    parts.push(`${n} ${unit}${n === 1 ? '' : 's'}`);
    rest -= n * size;
  }
  return `${micros < 0 ? '-' : ''}${parts.join(' ')}`;
}
