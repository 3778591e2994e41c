/**
 * Per-file statistics of a Delta `add` action ("Per-file Statistics" in the Delta protocol): the row
 * count, and per column the NULL count and the minimum and maximum value, nested like the schema.
 * Readers use them to skip files, so every bound must be safe: a minimum never above a value of the
 * file, a maximum never below one, in the order readers compare (UTF-8 bytes for strings).
 *
 * As Delta does by default, statistics cover the first 32 leaf columns (struct fields count one by
 * one); min and max exist for numbers, strings, dates and timestamps. String minimums are cut to 32
 * characters (a prefix is never above the string); a maximum longer than that is left out, since a
 * cut one would be below the value. Timestamps are written in milliseconds, the minimum rounded down
 * and the maximum up. A double column holding NaN or an infinity gets no min and max (JSON cannot
 * hold them).
 */
import type { DataType, StructType } from '../types/data-types.js';
import type { Row } from '../types/row.js';
import { formatDate } from '../types/timestamp-text.js';

/** How many leaf columns get statistics (Delta's `delta.dataSkippingNumIndexedCols` default). */
export const STATS_INDEXED_COLUMNS = 32;

/** The longest string kept as a bound (Delta's default prefix length). */
const STRING_PREFIX_LENGTH = 32;

/** A column below the top level, reached through struct fields. */
interface Leaf {
  readonly path: readonly string[];
  readonly indexes: readonly number[];
  readonly type: DataType;
}

type StatsObject = Record<string, unknown>;

/** The `stats` JSON of a data file holding `rows` of `schema`. */
export function fileStats(rows: readonly Row[], schema: StructType): string {
  const minValues: StatsObject = {};
  const maxValues: StatsObject = {};
  const nullCount: StatsObject = {};
  for (const leaf of leaves(schema).slice(0, STATS_INDEXED_COLUMNS)) {
    const values: unknown[] = [];
    let nulls = 0;
    for (const row of rows) {
      const v = valueAt(row, leaf.indexes);
      if (v === null || v === undefined) nulls++;
      else values.push(v);
    }
    setPath(nullCount, leaf.path, nulls);
    const bounds = values.length > 0 ? columnBounds(values, leaf.type) : undefined;
    if (bounds?.min !== undefined) setPath(minValues, leaf.path, bounds.min);
    if (bounds?.max !== undefined) setPath(maxValues, leaf.path, bounds.max);
  }
  return JSON.stringify({ numRecords: rows.length, minValues, maxValues, nullCount });
}

function leaves(schema: StructType): Leaf[] {
  const out: Leaf[] = [];
  const walk = (t: StructType, path: string[], indexes: number[]): void => {
    t.fields.forEach((f, i) => {
      if (f.dataType.kind === 'struct') {
        walk(f.dataType, [...path, f.name], [...indexes, i]);
      } else {
        out.push({ path: [...path, f.name], indexes: [...indexes, i], type: f.dataType });
      }
    });
  };
  walk(schema, [], []);
  return out;
}

/** The value of a leaf in an engine row; a NULL struct on the way makes the leaf NULL. */
function valueAt(row: Row, indexes: readonly number[]): unknown {
  let v: unknown = row;
  for (const i of indexes) {
    if (v === null || v === undefined) return null;
    v = (v as unknown[])[i];
  }
  return v;
}

function setPath(target: StatsObject, path: readonly string[], value: unknown): void {
  let node = target;
  for (const name of path.slice(0, -1)) {
    node = (node[name] ??= {}) as StatsObject;
  }
  node[path[path.length - 1]] = value;
}

/** The JSON bounds of a column's non-NULL values, or undefined when it gets none. */
function columnBounds(
  values: unknown[],
  type: DataType,
): { min?: unknown; max?: unknown } | undefined {
  switch (type.kind) {
    case 'int':
    case 'long':
    case 'double': {
      const { min, max } = numberRange(values as number[]);
      return Number.isFinite(min) && Number.isFinite(max) ? { min, max } : undefined;
    }
    case 'date': {
      const { min, max } = numberRange(values as number[]);
      return { min: formatDate(min), max: formatDate(max) };
    }
    case 'timestamp': {
      const { min, max } = numberRange(values as number[]);
      return {
        min: new Date(Math.floor(min / 1000)).toISOString(),
        max: new Date(Math.ceil(max / 1000)).toISOString(),
      };
    }
    case 'string': {
      let min = values[0] as string;
      let max = min;
      for (const s of values as string[]) {
        if (compareUtf8(s, min) < 0) min = s;
        if (compareUtf8(s, max) > 0) max = s;
      }
      return {
        min: prefix(min),
        max: max.length <= STRING_PREFIX_LENGTH ? max : undefined,
      };
    }
    default:
      return undefined;
  }
}

/** Min and max by a loop (spreading a large file's values into Math.min would overflow the stack); NaN if any value is NaN. */
function numberRange(values: readonly number[]): { min: number; max: number } {
  let min = Infinity;
  let max = -Infinity;
  for (const n of values) {
    if (Number.isNaN(n)) return { min: NaN, max: NaN };
    if (n < min) min = n;
    if (n > max) max = n;
  }
  return { min, max };
}

/** At most STRING_PREFIX_LENGTH UTF-16 units, never splitting a surrogate pair. */
function prefix(s: string): string {
  if (s.length <= STRING_PREFIX_LENGTH) return s;
  const cut = s.slice(0, STRING_PREFIX_LENGTH);
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}

/**
 * Compares strings in UTF-8 byte order (= code point order), the order Delta readers use. JavaScript
 * compares UTF-16 units, which differs only between surrogates (U+D800-DFFF, encoding code points
 * above U+FFFF) and U+E000-FFFF; shifting those ranges past each other fixes it.
 */
function compareUtf8(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointOrder(x) - codePointOrder(y);
  }
  return a.length - b.length;
}

function codePointOrder(unit: number): number {
  if (unit < 0xd800) return unit;
  return unit >= 0xe000 ? unit - 0x800 : unit + 0x2000;
}
