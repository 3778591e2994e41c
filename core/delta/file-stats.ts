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
    const { nulls, min, max } = leafStats(rows, leaf);
    setPath(nullCount, leaf.path, nulls);
    if (min !== undefined) setPath(minValues, leaf.path, min);
    if (max !== undefined) setPath(maxValues, leaf.path, max);
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

/** The statistics of one leaf column: its NULL count and JSON bounds (undefined when it gets none). */
interface LeafStats {
  readonly nulls: number;
  readonly min?: unknown;
  readonly max?: unknown;
}

/**
 * One pass over the rows per leaf, specialized by type: a file of a batch holds up to millions of
 * rows, so no value is copied or boxed on the way.
 */
function leafStats(rows: readonly Row[], leaf: Leaf): LeafStats {
  const value = leafReader(leaf.indexes);
  switch (leaf.type.kind) {
    case 'int':
    case 'long':
    case 'double':
    case 'date':
    case 'timestamp':
      return numberStats(rows, value, leaf.type.kind);
    case 'string':
      return stringStats(rows, value);
    default: {
      let nulls = 0;
      for (const row of rows) if (isNull(value(row))) nulls++;
      return { nulls };
    }
  }
}

/** Reads a leaf's value from an engine row; a NULL struct on the way makes the leaf NULL. */
function leafReader(indexes: readonly number[]): (row: Row) => unknown {
  if (indexes.length === 1) {
    const [i] = indexes;
    return (row) => row[i];
  }
  return (row) => {
    let v: unknown = row;
    for (const i of indexes) {
      if (isNull(v)) return null;
      v = (v as unknown[])[i];
    }
    return v;
  };
}

function isNull(v: unknown): v is null | undefined {
  return v === null || v === undefined;
}

/** Min and max by comparisons in a loop; any NaN (or an infinity in a number column) drops both. */
function numberStats(
  rows: readonly Row[],
  value: (row: Row) => unknown,
  kind: 'int' | 'long' | 'double' | 'date' | 'timestamp',
): LeafStats {
  let nulls = 0;
  let min = Infinity;
  let max = -Infinity;
  let nan = false;
  for (const row of rows) {
    const v = value(row);
    if (isNull(v)) {
      nulls++;
      continue;
    }
    const n = v as number;
    if (n < min) min = n;
    if (n > max) max = n;
    if (n !== n) nan = true;
  }
  if (nan || !Number.isFinite(min) || !Number.isFinite(max)) return { nulls };
  switch (kind) {
    case 'date':
      return { nulls, min: formatDate(min), max: formatDate(max) };
    case 'timestamp':
      return {
        nulls,
        min: new Date(Math.floor(min / 1000)).toISOString(),
        max: new Date(Math.ceil(max / 1000)).toISOString(),
      };
    default:
      return { nulls, min, max };
  }
}

function stringStats(rows: readonly Row[], value: (row: Row) => unknown): LeafStats {
  let nulls = 0;
  let min: string | undefined;
  let max: string | undefined;
  for (const row of rows) {
    const v = value(row);
    if (isNull(v)) {
      nulls++;
      continue;
    }
    const s = v as string;
    if (min === undefined || max === undefined) {
      min = max = s;
    } else if (s !== min && s !== max) {
      // Most values of a low-cardinality column equal a bound already; they skip the comparisons.
      if (compareUtf8(s, min) < 0) min = s;
      else if (compareUtf8(s, max) > 0) max = s;
    }
  }
  if (min === undefined || max === undefined) return { nulls };
  return {
    nulls,
    min: prefix(min),
    max: max.length <= STRING_PREFIX_LENGTH ? max : undefined,
  };
}

function setPath(target: StatsObject, path: readonly string[], value: unknown): void {
  let node = target;
  for (const name of path.slice(0, -1)) {
    node = (node[name] ??= {}) as StatsObject;
  }
  node[path[path.length - 1]] = value;
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
