/**
 * Column references and struct field access: no work per row. A column is the batch's own; a field
 * of a struct column is its child column, masked with the struct's validity (a field of a null
 * struct is null); a field of a `values` struct column is read out of each positional struct value.
 */
import type { Column } from '../../columnar/column-batch.js';
import { maskColumn } from '../../columnar/column-mask.js';
import { ExecutionError } from '../../errors.js';
import type { Kernel } from './kernel.js';

/** The kernel of input column `index`, then fields `fieldPath` (positions) of nested structs. */
export function columnKernel(index: number, fieldPath: readonly number[]): Kernel {
  return (input) => {
    let column = input.batch.columns[index];
    for (const field of fieldPath) column = fieldOf(column, field);
    return column;
  };
}

function fieldOf(struct: Column, field: number): Column {
  if (struct.kind === 'struct') return maskColumn(struct.children[field], struct.validity);
  if (struct.kind !== 'values') {
    throw new ExecutionError(
      `Internal error: field ${field} was read from a ${struct.kind} column.`,
    );
  }
  const n = struct.length;
  const values = new Array<unknown>(n);
  for (let i = 0; i < n; i++) {
    const s = struct.values[i] as readonly unknown[] | null | undefined;
    values[i] = s === null || s === undefined ? null : (s[field] ?? null);
  }
  return { kind: 'values', length: n, values };
}
