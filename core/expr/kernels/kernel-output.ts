/**
 * The columns kernels build. Results of known types go into typed columns; every int-typed result
 * too goes into a float64 column, since an int expression can yield -0 (`0 * -1`), which an
 * Int32Array cannot hold and the row evaluator returns as is. Strings and nested values stay
 * engine values: a dictionary pays off for grouping, which builds its own.
 */
import {
  BooleanBuilder,
  type ColumnBuilder,
  Float64Builder,
  ValuesBuilder,
} from '../../columnar/column-builder.js';
import type { Column } from '../../columnar/column-batch.js';
import type { DataType } from '../../types/data-types.js';
import type { KernelInput, Selection } from './kernel.js';

/** A builder for `n` results of type `t`. */
export function resultBuilder(t: DataType, n: number): ColumnBuilder {
  switch (t.kind) {
    case 'int':
    case 'date':
    case 'long':
    case 'double':
    case 'timestamp':
      return new Float64Builder(n);
    case 'boolean':
      return new BooleanBuilder(n);
    default:
      return new ValuesBuilder();
  }
}

/**
 * The column of `result(i)` for every row of `input` that `active` selects and no evaluator
 * dropped; null at the other rows.
 */
export function mapRows(
  input: KernelInput,
  active: Selection,
  t: DataType,
  result: (i: number) => unknown,
): Column {
  const n = input.batch.numRows;
  const out = resultBuilder(t, n);
  const live = input.live(active);
  if (live === null) for (let i = 0; i < n; i++) out.append(result(i));
  else for (let i = 0; i < n; i++) out.append(live[i] === 1 ? result(i) : null);
  return out.finish();
}
