/**
 * The tumbling window() kernel: the window struct of each row as two float64 child columns (start,
 * end) computed with the same boundary rule as the row evaluator, and null where the time is null.
 */
import type { Column, StructColumn, Validity } from '../../columnar/column-batch.js';
import { readerOf } from '../../columnar/column-reader.js';
import { lastWindowStart, type WindowSpec } from '../time-window.js';
import type { Kernel } from './kernel.js';

/** The kernel of a tumbling `window(time, spec)`. */
export function windowKernel(time: Kernel, spec: WindowSpec): Kernel {
  return (input, active) => {
    const t = readerOf(time(input, active));
    const n = input.batch.numRows;
    const live = input.live(active);
    const starts = new Float64Array(n);
    const ends = new Float64Array(n);
    let validity: Uint8Array | null = null;
    for (let i = 0; i < n; i++) {
      const v = live === null || live[i] === 1 ? (t(i) as number | null) : null;
      if (v === null) {
        validity ??= allValid(n);
        validity[i >> 3] &= ~(1 << (i & 7));
        continue;
      }
      const start = lastWindowStart(v, spec);
      starts[i] = start;
      ends[i] = start + spec.durationMicros;
    }
    return windowColumn(n, starts, ends, validity);
  };
}

function windowColumn(n: number, starts: Float64Array, ends: Float64Array, v: Validity): Column {
  const child = (values: Float64Array): Column => ({
    kind: 'float64',
    length: n,
    values,
    validity: v,
  });
  const column: StructColumn = {
    kind: 'struct',
    length: n,
    children: [child(starts), child(ends)],
    validity: v,
  };
  return column;
}

function allValid(n: number): Uint8Array {
  const bits = new Uint8Array((n + 7) >> 3).fill(0xff);
  // bits past the last row are unset, as Arrow requires of padding
  if ((n & 7) !== 0) bits[bits.length - 1] &= (1 << (n & 7)) - 1;
  return bits;
}
