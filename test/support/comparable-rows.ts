/**
 * Rows made comparable across plans that fold the same values in another order: numbers to 9
 * significant digits (a merged variance differs from a sequential one in the last bits) and arrays
 * sorted (collect_set's order is unspecified, as in Spark), one sorted text per row.
 */
import type { RowObject } from '../../core/index.js';

/** One text per row, sorted, with numbers rounded and arrays sorted. */
export function comparableRows(rows: readonly RowObject[]): string[] {
  return rows.map((r) => JSON.stringify(r, (_key, v: unknown) => comparable(v))).sort();
}

function comparable(v: unknown): unknown {
  if (typeof v === 'number') return Number(v.toPrecision(9));
  if (Array.isArray(v)) return [...v].sort((a, b) => (String(a) < String(b) ? -1 : 1));
  return v;
}
