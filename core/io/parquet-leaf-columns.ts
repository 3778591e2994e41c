/**
 * Engine rows shredded into the leaf columns of a Parquet file: per leaf, a row range's values and
 * definition (and repetition) levels, the form hyparquet-writer's column writer takes.
 *
 * A top-level column without lists or maps (an atomic column, or structs of such, however deep) is
 * shredded straight from the rows: one pass per leaf, the definition level counted along the struct
 * path, no object built per row. hyparquet-writer's Dremel encoder walks the schema tree for every
 * value and needs structs as objects keyed by name; for the canonical query's output (a window
 * struct) that took a third of the time to write a file. A column with a list or a map anywhere
 * still goes through that encoder, from values in the writer's form (objects, arrays, Maps).
 *
 * Values are in the writer's form too: INT64 as BigInt, structs as objects for the Dremel encoder; a
 * flat leaf's chunk also comes with the encoding its values call for (parquet-chunk-values.ts).
 *
 * A NULL where the schema says NOT NULL is an ExecutionError naming the column and the row.
 */
import type { SchemaElement } from 'hyparquet-writer';
import { encodeNestedValues } from 'hyparquet-writer/src/dremel.js';
import { schemaPathResolver } from 'hyparquet-writer/src/schema.js';
import { ExecutionError } from '../errors.js';
import type { DataType, StructField, StructType } from '../types/data-types.js';
import type { Row } from '../types/row.js';
import { type ChunkEncoding, chunkValues } from './parquet-chunk-values.js';

/** A leaf's values and levels for a row range. */
export type PageData = ReturnType<typeof encodeNestedValues>;

/** One leaf column's data for a row range. */
export interface LeafData {
  /** The schema elements from the root to the leaf. */
  readonly schemaPath: SchemaElement[];
  readonly pageData: PageData;
  /** The encoding the values call for; undefined leaves the choice to the writer. */
  readonly encoding?: ChunkEncoding;
}

/** Shreds rows `start` (inclusive) to `end` (exclusive) of one top-level column into its leaves. */
export type ColumnShredder = (rows: readonly Row[], start: number, end: number) => LeafData[];

/** A node of the Parquet schema tree (hyparquet-writer bundles its own hyparquet, so its own type). */
type SchemaTree = ReturnType<ReturnType<typeof schemaPathResolver>>[number];

/** Converts one non-null engine value to the writer's form; null means it is in that form. */
type WriterForm = ((value: unknown) => unknown) | null;

/** A leaf reached through structs only. */
interface FlatLeaf {
  readonly schemaPath: SchemaElement[];
  /** The dotted column name, for messages. */
  readonly name: string;
  /** The field index at each level, from the top-level column down to the leaf. */
  readonly indexes: readonly number[];
  /** Whether each level may be NULL (adds to the definition level when it is not). */
  readonly optional: readonly boolean[];
  readonly maxDefinitionLevel: number;
  readonly type: DataType;
}

/**
 * One shredder per top-level field of `schema`, whose Parquet schema elements (root first, depth
 * first) are `elements`.
 */
export function columnShredders(schema: StructType, elements: SchemaElement[]): ColumnShredder[] {
  const resolve = schemaPathResolver(elements);
  return schema.fields.map((f, i) => {
    const treePath = resolve([f.name]);
    if (!hasListOrMap(f.dataType)) {
      const leaves = flatLeaves(treePath, f, [i], [], f.name);
      return (rows, start, end) => leaves.map((leaf) => shredFlat(rows, start, end, leaf));
    }
    const leafPaths = leafTreePaths(treePath);
    return (rows, start, end) => {
      const values = writerFormColumn(rows, start, end, i, f);
      return leafPaths.map((path) => ({
        schemaPath: path.map((node) => node.element),
        pageData: encodeNestedValues(path, values),
      }));
    };
  });
}

function hasListOrMap(t: DataType): boolean {
  if (t.kind === 'array' || t.kind === 'map') return true;
  return t.kind === 'struct' && t.fields.some((f) => hasListOrMap(f.dataType));
}

/** The leaves under `treePath`'s last node, whose engine type is `f`, with their struct paths. */
function flatLeaves(
  treePath: SchemaTree[],
  f: StructField,
  indexes: number[],
  optional: boolean[],
  name: string,
): FlatLeaf[] {
  const levels = [...optional, f.nullable];
  const t = f.dataType;
  if (t.kind === 'struct') {
    const node = treePath[treePath.length - 1];
    return t.fields.flatMap((g, j) =>
      flatLeaves([...treePath, node.children[j]], g, [...indexes, j], levels, `${name}.${g.name}`),
    );
  }
  return [
    {
      schemaPath: treePath.map((node) => node.element),
      name,
      indexes,
      optional: levels,
      maxDefinitionLevel: levels.filter((nullable) => nullable).length,
      type: t,
    },
  ];
}

/** Every path from the root to a leaf under `treePath`'s last node. */
function leafTreePaths(treePath: SchemaTree[]): SchemaTree[][] {
  const node = treePath[treePath.length - 1];
  if (node.children.length === 0) return [treePath];
  return node.children.flatMap((child) => leafTreePaths([...treePath, child]));
}

/** A flat leaf's values (NULLs in place) and definition levels, in one pass over the rows. */
function shredFlat(rows: readonly Row[], start: number, end: number, leaf: FlatLeaf): LeafData {
  const { indexes, optional, maxDefinitionLevel } = leaf;
  const chunk = chunkValues(leaf.type, end - start);
  const values = new Array<unknown>(end - start);
  const definitionLevels: number[] = maxDefinitionLevel === 0 ? [] : new Array<number>(end - start);
  for (let r = start; r < end; r++) {
    let v: unknown = rows[r];
    let level = 0;
    let depth = 0;
    for (; depth < indexes.length; depth++) {
      v = (v as unknown[])[indexes[depth]];
      if (v === null || v === undefined) break;
      if (optional[depth]) level++;
    }
    if (depth < indexes.length) {
      if (!optional[depth]) throw nullInRequired(leaf.name, r);
      values[r - start] = null;
    } else {
      values[r - start] = chunk.add(v);
    }
    if (maxDefinitionLevel !== 0) definitionLevels[r - start] = level;
  }
  return {
    schemaPath: leaf.schemaPath,
    pageData: { values, definitionLevels, repetitionLevels: [], maxDefinitionLevel },
    encoding: chunk.encoding(),
  };
}

/** A top-level column's values in the writer's form, for hyparquet-writer's Dremel encoder. */
function writerFormColumn(
  rows: readonly Row[],
  start: number,
  end: number,
  index: number,
  f: StructField,
): unknown[] {
  const convert = writerForm(f.dataType);
  const out = new Array<unknown>(end - start);
  for (let r = start; r < end; r++) {
    const v = rows[r][index];
    if (v === null || v === undefined) {
      if (!f.nullable) throw nullInRequired(f.name, r);
      out[r - start] = null;
    } else {
      out[r - start] = convert === null ? v : convert(v);
    }
  }
  return out;
}

function nullInRequired(column: string, row: number): ExecutionError {
  return new ExecutionError(
    `Cannot write NULL to the non-nullable Parquet column '${column}' (row ${row}); make the column nullable or filter out the NULLs.`,
  );
}

/**
 * Engine value to the writer's form for the Dremel encoder: INT64 values as BigInt, structs as
 * objects keyed by name, lists as arrays, maps as Maps.
 */
function writerForm(t: DataType): WriterForm {
  switch (t.kind) {
    case 'long':
      return (v) => BigInt(v as number);
    case 'struct': {
      const parts = t.fields.map((f) => ({ name: f.name, convert: writerForm(f.dataType) }));
      return (v) => {
        const row = v as Row;
        const object: Record<string, unknown> = {};
        parts.forEach(({ name, convert }, i) => {
          const x = row[i];
          object[name] = x === null || x === undefined ? null : convert === null ? x : convert(x);
        });
        return object;
      };
    }
    case 'array': {
      const element = writerForm(t.elementType);
      if (element === null) return null;
      return (v) =>
        (v as unknown[]).map((x) => (x === null || x === undefined ? null : element(x)));
    }
    case 'map': {
      const key = writerForm(t.keyType);
      const value = writerForm(t.valueType);
      if (key === null && value === null) return null;
      return (v) =>
        new Map(
          [...(v as Map<unknown, unknown>)].map(([k, x]) => [
            key === null ? k : key(k),
            x === null || x === undefined || value === null ? x : value(x),
          ]),
        );
    }
    default:
      return null;
  }
}
