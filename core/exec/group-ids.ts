/**
 * Group ids: which group each row of a batch belongs to, as a dense integer, computed with typed
 * arrays from an integer code per grouping key (a window's index, a dictionary id, the position of
 * a value among the batch's distinct values). Codes are equal exactly when encodeKey would give
 * the values the same string: a Map's SameValueZero equates -0 with 0 and NaN with NaN, as
 * encodeKey does, and strings, numbers and booleans never meet in one key.
 *
 * Groups are numbered in the order of their first row, as the row-at-a-time aggregation meets them.
 */
import { type Column, isValid } from '../columnar/column-batch.js';
import { readerOf } from '../columnar/column-reader.js';

/** Composite codes up to this bound are renumbered through an array; above it, through a Map. */
const DENSE_LIMIT = 1 << 22;

/** One grouping key's codes for a batch: -1 where the row has no group; else below `cardinality`. */
export interface KeyCodes {
  readonly codes: Int32Array;
  readonly cardinality: number;
}

/** The groups of a batch's rows. */
export interface BatchGroups {
  /** The group of each row, -1 for a row in no group. */
  readonly groupOfRow: Int32Array;
  /** The first row of each group; groups are numbered in order of their first row. */
  readonly firstRow: Int32Array;
}

/** Codes for the values of `column`: one per distinct value, null included. */
export function valueCodes(column: Column): KeyCodes {
  if (column.kind === 'dictionary') return dictionaryCodes(column);
  const n = column.length;
  const codes = new Int32Array(n);
  const ids = new Map<unknown, number>();
  const read = readerOf(column);
  for (let i = 0; i < n; i++) {
    const v = read(i);
    let id = ids.get(v);
    if (id === undefined) {
      id = ids.size;
      ids.set(v, id);
    }
    codes[i] = id;
  }
  return { codes, cardinality: ids.size };
}

/** A dictionary column's codes: its indices, with repeated dictionary strings made one code. */
function dictionaryCodes(column: Extract<Column, { kind: 'dictionary' }>): KeyCodes {
  const ids = new Map<string, number>();
  const remap = new Int32Array(column.dictionary.length);
  column.dictionary.forEach((s, d) => {
    let id = ids.get(s);
    if (id === undefined) {
      id = ids.size;
      ids.set(s, id);
    }
    remap[d] = id;
  });
  const nullCode = ids.size;
  const n = column.length;
  const codes = new Int32Array(n);
  const { indices, validity } = column;
  for (let i = 0; i < n; i++) codes[i] = isValid(validity, i) ? remap[indices[i]] : nullCode;
  return { codes, cardinality: nullCode + 1 };
}

/**
 * Codes for window starts (`hasWindow[i]` 0 where the row has no window): the window's index from
 * the batch's first window when the starts are `slide` apart and span a modest range, else one
 * code per distinct start.
 *
 * Each pass over the rows is a function of its own: the function runs once per batch, so V8
 * optimizes its loops mid-run (on-stack replacement), and code after a loop that had not run yet
 * made the optimized code bail out at every batch, leaving the next batch to the interpreter.
 */
export function windowCodes(starts: Float64Array, hasWindow: Uint8Array, slide: number): KeyCodes {
  const min = smallestStart(starts, hasWindow);
  const span = (largestStart(starts, hasWindow) - min) / slide;
  const codes = new Int32Array(starts.length);
  if (span >= 0 && span < DENSE_LIMIT && alignedCodes(starts, hasWindow, min, slide, codes)) {
    return { codes, cardinality: span + 1 };
  }
  return { codes, cardinality: distinctStartCodes(starts, hasWindow, codes) };
}

/** The earliest start of a row that has a window (Infinity when none has). */
function smallestStart(starts: Float64Array, hasWindow: Uint8Array): number {
  let min = Infinity;
  for (let i = 0; i < starts.length; i++)
    if (hasWindow[i] === 1 && starts[i] < min) min = starts[i];
  return min;
}

/** The latest start of a row that has a window (-Infinity when none has). */
function largestStart(starts: Float64Array, hasWindow: Uint8Array): number {
  let max = -Infinity;
  for (let i = 0; i < starts.length; i++)
    if (hasWindow[i] === 1 && starts[i] > max) max = starts[i];
  return max;
}

/** Writes each start's window index from `min` into `codes`; false when a start is not `slide`-aligned. */
function alignedCodes(
  starts: Float64Array,
  hasWindow: Uint8Array,
  min: number,
  slide: number,
  codes: Int32Array,
): boolean {
  for (let i = 0; i < starts.length; i++) {
    if (hasWindow[i] === 0) {
      codes[i] = -1;
      continue;
    }
    const index = (starts[i] - min) / slide;
    if (!Number.isInteger(index)) return false;
    codes[i] = index;
  }
  return true;
}

/** Writes one code per distinct start into `codes`; returns how many there are. */
function distinctStartCodes(
  starts: Float64Array,
  hasWindow: Uint8Array,
  codes: Int32Array,
): number {
  const ids = new Map<number, number>();
  for (let i = 0; i < starts.length; i++) {
    if (hasWindow[i] === 0) {
      codes[i] = -1;
      continue;
    }
    let id = ids.get(starts[i]);
    if (id === undefined) {
      id = ids.size;
      ids.set(starts[i], id);
    }
    codes[i] = id;
  }
  return ids.size;
}

/** The groups of `numRows` rows keyed by `keys` (no keys: one group of every row). */
export function batchGroups(keys: readonly KeyCodes[], numRows: number): BatchGroups {
  let composite = new Float64Array(numRows);
  let bound = 1;
  for (const key of keys) {
    if (bound * key.cardinality > DENSE_LIMIT) {
      const renumbered = renumber(composite, bound);
      composite = Float64Array.from(renumbered.groupOfRow);
      bound = renumbered.firstRow.length;
    }
    combine(composite, key);
    bound *= key.cardinality;
  }
  return renumber(composite, bound);
}

/** Folds `key`'s codes into the composite codes (-1 stays -1, and a row without a code becomes -1). */
function combine(composite: Float64Array, key: KeyCodes): void {
  const { codes, cardinality } = key;
  for (let i = 0; i < composite.length; i++) {
    composite[i] = composite[i] < 0 || codes[i] < 0 ? -1 : composite[i] * cardinality + codes[i];
  }
}

/**
 * Dense ids in order of first row for composite codes below `bound` (-1: no group). Its loops are
 * functions of their own, for the reason windowCodes gives.
 */
function renumber(composite: Float64Array, bound: number): BatchGroups {
  const groupOfRow = new Int32Array(composite.length);
  const firstRows: number[] = [];
  if (bound <= DENSE_LIMIT) renumberDense(composite, bound, groupOfRow, firstRows);
  else renumberSparse(composite, groupOfRow, firstRows);
  return { groupOfRow, firstRow: Int32Array.from(firstRows) };
}

/** `renumber` through an array indexed by composite code. */
function renumberDense(
  composite: Float64Array,
  bound: number,
  groupOfRow: Int32Array,
  firstRows: number[],
): void {
  const ids = new Int32Array(Math.max(bound, 1)).fill(-1);
  for (let i = 0; i < composite.length; i++) {
    const c = composite[i];
    if (c < 0) {
      groupOfRow[i] = -1;
      continue;
    }
    let id = ids[c];
    if (id === -1) {
      id = firstRows.length;
      ids[c] = id;
      firstRows.push(i);
    }
    groupOfRow[i] = id;
  }
}

/** `renumber` through a Map, for composite codes too many for an array. */
function renumberSparse(
  composite: Float64Array,
  groupOfRow: Int32Array,
  firstRows: number[],
): void {
  const ids = new Map<number, number>();
  for (let i = 0; i < composite.length; i++) {
    const c = composite[i];
    if (c < 0) {
      groupOfRow[i] = -1;
      continue;
    }
    let id = ids.get(c);
    if (id === undefined) {
      id = firstRows.length;
      ids.set(c, id);
      firstRows.push(i);
    }
    groupOfRow[i] = id;
  }
}
