/**
 * Window frames over one sorted partition: for each row, the first and last row (inclusive) its
 * frame covers. Pure index arithmetic, so every window function reads the same frames.
 *
 * - `ROWS BETWEEN s AND e`: rows i+s to i+e, clipped to the partition.
 * - `RANGE BETWEEN s AND e`: rows whose order value lies within [v+s, v+e] of the current row's
 *   value v (for a descending order, preceding rows have larger values, as in Spark). CURRENT ROW
 *   is the current row's peers (equal order values); a range with offsets needs exactly one
 *   numeric or date order key. A row with a null order value has its null peers as the frame's
 *   offset-bounded part, and null rows are outside every non-null row's offset-bounded frame.
 * - A frame may be empty (first > last); its functions see no rows.
 */
import type { WindowFrame } from './expression.js';

/** The frame of each row of a sorted partition, as inclusive positions. */
export interface FrameBounds {
  readonly first: Int32Array;
  readonly last: Int32Array;
}

/** What a frame needs to know of the sorted partition. */
export interface SortedPartition {
  readonly size: number;
  /** True when rows `a` and `b` have equal order values (they are peers). */
  peers(a: number, b: number): boolean;
  /** For a RANGE frame with offsets: the single order value of a row, times -1 for DESC; null for null. */
  rangeValue?(row: number): number | null;
}

/** Computes the frame of every row of `partition`. */
export function frameBounds(frame: WindowFrame, partition: SortedPartition): FrameBounds {
  const n = partition.size;
  const first = new Int32Array(n);
  const last = new Int32Array(n);
  if (frame.type === 'rows') {
    for (let i = 0; i < n; i++) {
      first[i] = Math.max(i + frame.start, 0);
      last[i] = Math.min(i + frame.end, n - 1);
    }
    return { first, last };
  }
  const range = rangeContext(partition);
  for (let i = 0; i < n; i++) {
    first[i] = rangeBound(frame.start, i, true, range);
    last[i] = rangeBound(frame.end, i, false, range);
  }
  return { first, last };
}

/** Each row's peer group, and the run of rows with a non-null range value. */
interface RangeContext {
  readonly partition: SortedPartition;
  readonly peerStart: Int32Array;
  readonly peerEnd: Int32Array;
  readonly values: (number | null)[];
  readonly nonNullFirst: number;
  readonly nonNullLast: number;
}

function rangeContext(partition: SortedPartition): RangeContext {
  const n = partition.size;
  const peerStart = new Int32Array(n);
  const peerEnd = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    peerStart[i] = i > 0 && partition.peers(i - 1, i) ? peerStart[i - 1] : i;
  }
  for (let i = n - 1; i >= 0; i--) {
    peerEnd[i] = i < n - 1 && partition.peers(i, i + 1) ? peerEnd[i + 1] : i;
  }
  const read = partition.rangeValue;
  const values = Array.from({ length: n }, (_, i) => (read ? read(i) : null));
  let nonNullFirst = 0;
  let nonNullLast = n - 1;
  while (nonNullFirst < n && values[nonNullFirst] === null) nonNullFirst++;
  while (nonNullLast >= 0 && values[nonNullLast] === null) nonNullLast--;
  return { partition, peerStart, peerEnd, values, nonNullFirst, nonNullLast };
}

function rangeBound(offset: number, i: number, isStart: boolean, range: RangeContext): number {
  if (offset === -Infinity) return 0;
  if (offset === Infinity) return range.partition.size - 1;
  const value = range.values[i];
  if (offset === 0 || value === null) return isStart ? range.peerStart[i] : range.peerEnd[i];
  const target = value + offset;
  return isStart ? firstAtLeast(range, target) : lastAtMost(range, target);
}

/** The first non-null row whose value is >= target, or the one after the last. */
function firstAtLeast(range: RangeContext, target: number): number {
  let a = range.nonNullFirst;
  let b = range.nonNullLast + 1;
  while (a < b) {
    const mid = (a + b) >> 1;
    if ((range.values[mid] as number) >= target) b = mid;
    else a = mid + 1;
  }
  return a;
}

/** The last non-null row whose value is <= target, or the one before the first. */
function lastAtMost(range: RangeContext, target: number): number {
  let a = range.nonNullFirst - 1;
  let b = range.nonNullLast;
  while (a < b) {
    const mid = (a + b + 1) >> 1;
    if ((range.values[mid] as number) <= target) a = mid;
    else b = mid - 1;
  }
  return a;
}
