/**
 * Spark's `show()` table: a header, one line per row, values as their string casts, cells right-aligned
 * and truncated to 20 characters unless told otherwise.
 */
import { castFunction } from '../expr/cast.js';
import { StringType, type StructType } from '../types/data-types.js';
import type { Row } from '../types/row.js';

/** Renders rows as a text table. */
export function formatTable(rows: readonly Row[], schema: StructType, truncate = true): string {
  const formatters = schema.fields.map((f) => castFunction(f.dataType, StringType));
  const cell = (v: unknown, i: number): string => {
    const s = v === null || v === undefined ? 'NULL' : (formatters[i](v) as string);
    return truncate && s.length > 20 ? `${s.slice(0, 17)}...` : s;
  };
  const header = schema.fields.map((f) => f.name);
  const body = rows.map((r) => schema.fields.map((_, i) => cell(r[i], i)));
  const widths = header.map((h, i) => Math.max(3, h.length, ...body.map((b) => b[i].length)));
  const line = `+${widths.map((w) => '-'.repeat(w)).join('+')}+`;
  const render = (cells: string[]): string =>
    `|${cells.map((c, i) => c.padStart(widths[i])).join('|')}|`;
  return [line, render(header), line, ...body.map(render), line].join('\n');
}
