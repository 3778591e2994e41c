/**
 * The collection, struct, JSON and generator functions of the reference:
 * core/functions/collection-functions.ts and json-functions.ts, and `explode`, which SQL builds.
 */
import { type FunctionDocs, NULL_IN_NULL_OUT } from './function-doc.js';

/** Collection, struct and JSON functions. */
export const COLLECTION_FUNCTIONS: FunctionDocs = {
  size: {
    signatures: ['size(c ARRAY | MAP) → INT'],
    column: 'size',
    does: 'The number of elements or entries.',
    nulls: '-1 for null (Spark without ANSI mode).',
    example: { sql: "size(split('a,b,c', ','))", result: '3' },
  },
  array_contains: {
    signatures: ['array_contains(array ARRAY<T>, value T) → BOOLEAN'],
    column: 'array_contains',
    does: 'Whether the array holds the value.',
    nulls:
      'Null when the array or value is null, or when the value is absent and the array holds a null.',
    example: { sql: "array_contains(split('a,b', ','), 'b')", result: 'true' },
  },
  element_at: {
    signatures: [
      'element_at(array ARRAY<T>, index INT) → T',
      'element_at(map MAP<K, V>, key K) → V',
    ],
    column: 'element_at',
    does: 'The element at the 1-based index (negative counts from the end), or the value of the key.',
    nulls:
      'Null when an argument is null, the index is out of range or the key absent; index 0 is an error.',
    example: { sql: "element_at(split('a,b,c', ','), -1)", result: 'c' },
  },
  array_distinct: {
    signatures: ['array_distinct(array ARRAY<T>) → ARRAY<T>'],
    column: 'array_distinct',
    does: 'The array without repeated elements, in first-seen order.',
    nulls: 'Null for a null array; one null element is kept.',
    example: { sql: "array_distinct(split('b,a,b', ','))", result: '[b, a]' },
  },
  map_keys: {
    signatures: ['map_keys(map MAP<K, V>) → ARRAY<K>'],
    column: 'map_keys',
    does: "The map's keys.",
    nulls: NULL_IN_NULL_OUT,
    example: {
      sql: 'map_keys(from_json(\'{"a":1,"b":2}\', \'MAP<STRING, INT>\'))',
      result: '[a, b]',
    },
  },
  map_values: {
    signatures: ['map_values(map MAP<K, V>) → ARRAY<V>'],
    column: 'map_values',
    does: "The map's values.",
    nulls: NULL_IN_NULL_OUT,
    example: {
      sql: 'map_values(from_json(\'{"a":1,"b":2}\', \'MAP<STRING, INT>\'))',
      result: '[1, 2]',
    },
  },
  struct: {
    signatures: ['struct(c1, c2, ...) → STRUCT'],
    column: 'structOf',
    does: 'A struct of the values, its fields named after the columns (`col1`, `col2`, ... for other expressions).',
    nulls: 'Never null; null values are null fields.',
    example: { sql: "struct(1, 'a', NULL)", result: '{1, a, null}' },
  },
  named_struct: {
    signatures: ['named_struct(name1 STRING, value1, ...) → STRUCT'],
    column: 'named_struct',
    does: 'A struct of the values under the names (constants).',
    nulls: 'Never null; null values are null fields.',
    example: { sql: "named_struct('a', 1, 'b', 'x').b", result: 'x' },
  },
  from_json: {
    signatures: ['from_json(json STRING, schema STRING) → STRUCT | ARRAY | MAP'],
    column: 'from_json',
    does: "The JSON text parsed against the schema (a constant, in DDL: `'a INT, b STRING'`, `'ARRAY<INT>'`); the column API also takes Spark's parse options.",
    nulls: 'Null for null text; malformed text gives a struct of nulls (PERMISSIVE mode).',
    example: { sql: 'from_json(\'{"a":1,"b":"x"}\', \'a INT, b STRING\')', result: '{1, x}' },
  },
  to_json: {
    signatures: ['to_json(value STRUCT | ARRAY | MAP) → STRING'],
    column: 'to_json',
    does: 'The value as JSON text; null fields are left out.',
    nulls: NULL_IN_NULL_OUT,
    example: { sql: "to_json(named_struct('a', 1, 'b', CAST(NULL AS STRING)))", result: '{"a":1}' },
  },
  explode: {
    signatures: [
      'explode(array ARRAY<T>) → T (one row each)',
      'explode(map MAP<K, V>) → key K, value V (one row each)',
    ],
    column: 'explode',
    does: 'One row per element of the array (column `col`) or entry of the map (`key`, `value`).',
    nulls: 'A null or empty collection gives no row.',
    example: { sql: "explode(split('a,b', ','))", result: 'a; b' },
  },
  explode_outer: {
    signatures: [
      'explode_outer(array ARRAY<T>) → T',
      'explode_outer(map MAP<K, V>) → key K, value V',
    ],
    column: 'explode_outer',
    does: 'As `explode`, but a null or empty collection gives one row of nulls.',
    nulls: 'A null or empty collection gives one row of nulls.',
    example: { sql: "explode_outer(from_json('[]', 'ARRAY<INT>'))", result: 'NULL' },
  },
};
