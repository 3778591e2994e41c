/**
 * Gathering: the rows at chosen positions of a batch (a filter's survivors, a select's rows that
 * were not dropped), as a new batch whose columns have the same kinds.
 */
import { isValid, type Column, type ColumnBatch, type Validity } from './column-batch.js';

/** The rows of `batch` at `positions` (ascending row indices), in that order. */
export function gatherBatch(batch: ColumnBatch, positions: Int32Array): ColumnBatch {
  return {
    schema: batch.schema,
    numRows: positions.length,
    columns: batch.columns.map((c) => gatherColumn(c, positions)),
  };
}

/** The values of `column` at `positions`. */
export function gatherColumn(column: Column, positions: Int32Array): Column {
  const n = positions.length;
  switch (column.kind) {
    case 'values': {
      const values = new Array<unknown>(n);
      for (let j = 0; j < n; j++) values[j] = column.values[positions[j]] ?? null;
      return { kind: 'values', length: n, values };
    }
    case 'int32': {
      const values = new Int32Array(n);
      for (let j = 0; j < n; j++) values[j] = column.values[positions[j]];
      return {
        kind: 'int32',
        length: n,
        values,
        validity: gatherValidity(column.validity, positions),
      };
    }
    case 'float64': {
      const values = new Float64Array(n);
      for (let j = 0; j < n; j++) values[j] = column.values[positions[j]];
      return {
        kind: 'float64',
        length: n,
        values,
        validity: gatherValidity(column.validity, positions),
      };
    }
    case 'boolean':
      return {
        kind: 'boolean',
        length: n,
        values: gatherBits(column.values, positions),
        validity: gatherValidity(column.validity, positions),
      };
    case 'dictionary': {
      const indices = new Int32Array(n);
      for (let j = 0; j < n; j++) indices[j] = column.indices[positions[j]];
      return {
        ...column,
        length: n,
        indices,
        validity: gatherValidity(column.validity, positions),
      };
    }
    case 'struct':
      return {
        kind: 'struct',
        length: n,
        children: column.children.map((c) => gatherColumn(c, positions)),
        validity: gatherValidity(column.validity, positions),
      };
  }
}

function gatherValidity(validity: Validity, positions: Int32Array): Validity {
  if (validity === null) return null;
  const bits = new Uint8Array((positions.length + 7) >> 3).fill(0xff);
  for (let j = 0; j < positions.length; j++) {
    if (!isValid(validity, positions[j])) bits[j >> 3] &= ~(1 << (j & 7));
  }
  const tail = positions.length & 7;
  // bits past the last row are unset, as Arrow requires of padding
  if (tail !== 0) bits[bits.length - 1] &= (1 << tail) - 1;
  return bits;
}

function gatherBits(bits: Uint8Array, positions: Int32Array): Uint8Array {
  const out = new Uint8Array((positions.length + 7) >> 3);
  for (let j = 0; j < positions.length; j++) {
    const i = positions[j];
    if ((bits[i >> 3] & (1 << (i & 7))) !== 0) out[j >> 3] |= 1 << (j & 7);
  }
  return out;
}
