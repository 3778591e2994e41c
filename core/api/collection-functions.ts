/**
 * The collection functions of the DataFrame API: size, array_contains, element_at, array_distinct,
 * map_keys, map_values, structOf (Spark's struct), named_struct. Each builds a call expression;
 * core/functions/collection-functions.ts binds and evaluates it, and its module doc states the
 * semantics (Spark's non-ANSI defaults).
 */
import type { Expression } from '../expr/expression.js';
import { Column, type ColumnLike, columnOrName, toExpr } from './column.js';
import { toLiteral } from './literal.js';

/** The number of elements of an array or entries of a map, an int; -1 for null. */
export function size(c: Column | string): Column {
  return call('size', [columnOrName(c)]);
}

/** True when the array holds `value`; null when the array or value is null, or when not found and the array holds a null. */
export function array_contains(c: Column | string, value: ColumnLike): Column {
  return call('array_contains', [columnOrName(c), toExpr(value)]);
}

/**
 * The element at 1-based `extraction` of an array (negative counts from the end; null past the end),
 * or the value of the key `extraction` in a map (null when absent).
 */
export function element_at(c: Column | string, extraction: ColumnLike): Column {
  return call('element_at', [columnOrName(c), toExpr(extraction)]);
}

/** The array without repeated elements, first occurrences in order. */
export function array_distinct(c: Column | string): Column {
  return call('array_distinct', [columnOrName(c)]);
}

/** The keys of a map, as an array. */
export function map_keys(c: Column | string): Column {
  return call('map_keys', [columnOrName(c)]);
}

/** The values of a map, as an array. */
export function map_values(c: Column | string): Column {
  return call('map_values', [columnOrName(c)]);
}

/**
 * Spark's `struct(cols...)`: a struct of the columns, its fields named after them (`colN` for
 * unnamed expressions). Called `structOf` because `struct` builds a schema (core/types/data-types.ts).
 */
export function structOf(...columns: (Column | string)[]): Column {
  return call('struct', columns.map(columnOrName));
}

/** A struct from alternating constant names and values: `named_struct('x', col('a'), 'y', lit(1))`. */
export function named_struct(...namesAndValues: (string | Column)[]): Column {
  return call(
    'named_struct',
    namesAndValues.map((v, i) =>
      i % 2 === 0 && typeof v === 'string' ? toLiteral(v) : columnOrName(v),
    ),
  );
}

function call(name: string, args: Expression[]): Column {
  return new Column({ kind: 'call', name, args });
}
