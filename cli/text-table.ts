/**
 * Tables the commands print: Spark's `show()` layout (core/io/text-table.ts), untruncated, from
 * plain objects with the columns given.
 */
import { parseSchema } from '../core/index.js';
import { formatTable } from '../core/io/text-table.js';

/** One column: its header and the DDL type of its values. */
export interface TableColumn<T> {
  readonly name: string;
  readonly type: 'BIGINT' | 'DOUBLE' | 'STRING';
  readonly value: (row: T) => unknown;
}

/** `rows` as a text table of `columns`. */
export function textTable<T>(rows: readonly T[], columns: readonly TableColumn<T>[]): string {
  const schema = parseSchema(columns.map((c) => `\`${c.name}\` ${c.type}`).join(', '));
  return formatTable(
    rows.map((r) => columns.map((c) => c.value(r) ?? null)),
    schema,
    false,
  );
}
