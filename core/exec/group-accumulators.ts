/**
 * Group accumulators over a batch: folds one aggregate's input column into the accumulators of the
 * batch's groups, given each row's group. count, sum, avg, and min and max of numbers run as typed
 * loops over per-group arrays; every other aggregate calls its own `update` per row. Rows are folded
 * in row order and each group's accumulator starts from its stored value, so the accumulators end
 * exactly as the row-at-a-time fold leaves them (a double sum adds in the same order).
 */
import type { Column } from '../columnar/column-batch.js';
import { type ColumnReader, readerOf } from '../columnar/column-reader.js';
import { type BoundAggregate, sumOverflow } from '../expr/aggregate-functions.js';
import { comparatorFor } from '../expr/ordering.js';
import { isNumeric } from '../types/data-types.js';

/**
 * Folds `values` (the aggregate's input; absent for count(*)) into `accumulators` (one per group),
 * row `i` into group `groupOfRow[i]`, skipping rows whose group is -1.
 */
export function accumulate(
  aggregate: BoundAggregate,
  accumulators: unknown[],
  groupOfRow: Int32Array,
  values: Column | undefined,
): void {
  const read = values === undefined ? () => 1 : readerOf(values);
  if (aggregate.fn === 'count' && !aggregate.distinct) {
    countRows(accumulators, groupOfRow, read);
    return;
  }
  const numeric = aggregate.inputType !== undefined && isNumeric(aggregate.inputType);
  switch (aggregate.fn) {
    case 'sum':
      sumRows(aggregate, accumulators, groupOfRow, read);
      return;
    case 'avg':
      averageRows(accumulators, groupOfRow, read);
      return;
    case 'min':
    case 'max':
      if (numeric) {
        extremeRows(aggregate, accumulators, groupOfRow, read);
        return;
      }
  }
  for (let i = 0; i < groupOfRow.length; i++) {
    const g = groupOfRow[i];
    if (g >= 0) accumulators[g] = aggregate.update(accumulators[g], read(i));
  }
}

function countRows(accumulators: unknown[], groupOfRow: Int32Array, read: ColumnReader): void {
  const counts = Float64Array.from(accumulators as number[]);
  for (let i = 0; i < groupOfRow.length; i++) {
    const g = groupOfRow[i];
    if (g >= 0 && read(i) !== null) counts[g]++;
  }
  for (let g = 0; g < counts.length; g++) accumulators[g] = counts[g];
}

function sumRows(
  aggregate: BoundAggregate,
  accumulators: unknown[],
  groupOfRow: Int32Array,
  read: ColumnReader,
): void {
  const checked = aggregate.dataType.kind === 'long';
  const { values: totals, seen } = numbersSoFar(accumulators);
  for (let i = 0; i < groupOfRow.length; i++) {
    const g = groupOfRow[i];
    if (g < 0) continue;
    const v = read(i) as number | null;
    if (v === null) continue;
    const total = seen[g] === 1 ? totals[g] + v : v;
    if (checked && !Number.isSafeInteger(total)) throw sumOverflow(aggregate.name);
    totals[g] = total;
    seen[g] = 1;
  }
  for (let g = 0; g < totals.length; g++) if (seen[g] === 1) accumulators[g] = totals[g];
}

/** avg's accumulator is [total, count], updated in place as its own update does. */
function averageRows(accumulators: unknown[], groupOfRow: Int32Array, read: ColumnReader): void {
  const pairs = accumulators as [number, number][];
  const totals = Float64Array.from(pairs, (p) => p[0]);
  const counts = Float64Array.from(pairs, (p) => p[1]);
  for (let i = 0; i < groupOfRow.length; i++) {
    const g = groupOfRow[i];
    if (g < 0) continue;
    const v = read(i) as number | null;
    if (v === null) continue;
    totals[g] += v;
    counts[g] += 1;
  }
  pairs.forEach((p, g) => {
    p[0] = totals[g];
    p[1] = counts[g];
  });
}

/** min and max of numbers: the accumulator is the extreme so far, or null. */
function extremeRows(
  aggregate: BoundAggregate,
  accumulators: unknown[],
  groupOfRow: Int32Array,
  read: ColumnReader,
): void {
  const compare = comparatorFor(aggregate.inputType!);
  const sign = aggregate.fn === 'min' ? -1 : 1;
  const { values: extremes, seen } = numbersSoFar(accumulators);
  for (let i = 0; i < groupOfRow.length; i++) {
    const g = groupOfRow[i];
    if (g < 0) continue;
    const v = read(i) as number | null;
    if (v === null) continue;
    if (seen[g] === 0 || compare(v, extremes[g]) * sign > 0) {
      extremes[g] = v;
      seen[g] = 1;
    }
  }
  for (let g = 0; g < extremes.length; g++) if (seen[g] === 1) accumulators[g] = extremes[g];
}

/** Accumulators that are a number or null (none yet), as typed arrays: the values, and which are set. */
function numbersSoFar(accumulators: readonly unknown[]): {
  values: Float64Array;
  seen: Uint8Array;
} {
  const values = new Float64Array(accumulators.length);
  const seen = new Uint8Array(accumulators.length);
  accumulators.forEach((acc, g) => {
    if (acc !== null) {
      values[g] = acc as number;
      seen[g] = 1;
    }
  });
  return { values, seen };
}
