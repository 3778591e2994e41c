import { describe, expect, it } from 'vitest';
import { col, lit } from '../../core/api/functions.js';
import {
  array_contains,
  array_distinct,
  element_at,
  map_keys,
  map_values,
  named_struct,
  size,
  structOf,
} from '../../core/api/collection-functions.js';
import { AnalysisError, ExecutionError } from '../../core/errors.js';
import {
  ArrayOf,
  field,
  IntegerType,
  MapOf,
  StringType,
  struct,
  typeName,
} from '../../core/types/data-types.js';
import { bind, evaluate } from '../expr/evaluate.js';

const schema = struct([
  field('xs', ArrayOf(IntegerType)),
  field('m', MapOf(StringType, IntegerType)),
  field('s', StringType),
  field('n', IntegerType),
]);
const row = (xs: (number | null)[] | null, m: Map<string, number> | null = null) => [xs, m, 'a', 1];

describe('size', () => {
  it('counts array elements and map entries, and is -1 for null (non-ANSI Spark)', () => {
    expect(evaluate(size('xs'), schema, row([1, null, 3]))).toBe(3);
    expect(evaluate(size('m'), schema, row(null, new Map([['a', 1]])))).toBe(1);
    expect(evaluate(size('xs'), schema, row(null))).toBe(-1);
  });

  it('rejects a string', () => {
    expect(() => bind(size('s'), schema)).toThrow(/size\(\) needs array or map .* got string/);
  });
});

describe('array_contains', () => {
  it('is true when found, false when not, null when not found beside a null', () => {
    expect(evaluate(array_contains('xs', 3), schema, row([1, 3]))).toBe(true);
    expect(evaluate(array_contains('xs', 2), schema, row([1, 3]))).toBe(false);
    expect(evaluate(array_contains('xs', 2), schema, row([1, null]))).toBeNull();
    expect(evaluate(array_contains('xs', 1), schema, row([1, null]))).toBe(true);
  });

  it('is null for a null array or a null value', () => {
    expect(evaluate(array_contains('xs', 1), schema, row(null))).toBeNull();
    expect(evaluate(array_contains('xs', null), schema, row([1]))).toBeNull();
  });

  it('rejects a value of an incompatible type', () => {
    expect(() => bind(array_contains('xs', lit(true)), schema)).toThrow(AnalysisError);
  });
});

describe('element_at', () => {
  it('reads arrays from 1, negative from the end, null past either end', () => {
    expect(evaluate(element_at('xs', 1), schema, row([10, 20]))).toBe(10);
    expect(evaluate(element_at('xs', -1), schema, row([10, 20]))).toBe(20);
    expect(evaluate(element_at('xs', 3), schema, row([10, 20]))).toBeNull();
    expect(evaluate(element_at('xs', -3), schema, row([10, 20]))).toBeNull();
  });

  it('fails for index 0, saying arrays start at 1', () => {
    expect(() => evaluate(element_at('xs', 0), schema, row([1]))).toThrow(ExecutionError);
    expect(() => evaluate(element_at('xs', 0), schema, row([1]))).toThrow(/start at 1/);
  });

  it('reads a map by key, null when absent', () => {
    const m = new Map([['a', 1]]);
    expect(evaluate(element_at('m', 'a'), schema, row(null, m))).toBe(1);
    expect(evaluate(element_at('m', 'b'), schema, row(null, m))).toBeNull();
    expect(evaluate(element_at('m', col('s')), schema, row(null, m))).toBe(1);
  });

  it('is null for a null collection or index', () => {
    expect(evaluate(element_at('xs', 1), schema, row(null))).toBeNull();
    expect(evaluate(element_at('xs', null), schema, row([1]))).toBeNull();
  });
});

describe('array_distinct', () => {
  it('keeps the first occurrence of each element, one null at most, in order', () => {
    expect(evaluate(array_distinct('xs'), schema, row([3, 1, 3, null, 1, null]))).toEqual([
      3,
      1,
      null,
    ]);
    expect(evaluate(array_distinct('xs'), schema, row(null))).toBeNull();
  });
});

describe('map_keys and map_values', () => {
  it('list keys and values in the map order', () => {
    const m = new Map([
      ['b', 2],
      ['a', 1],
    ]);
    expect(evaluate(map_keys('m'), schema, row(null, m))).toEqual(['b', 'a']);
    expect(evaluate(map_values('m'), schema, row(null, m))).toEqual([2, 1]);
    expect(evaluate(map_keys('m'), schema, row(null))).toBeNull();
  });

  it('reject an array', () => {
    expect(() => bind(map_keys('xs'), schema)).toThrow(/map_keys\(\) needs map/);
  });
});

describe('structOf and named_struct', () => {
  it('name the fields after the columns, colN otherwise', () => {
    const e = bind(structOf('s', col('n').plus(1), col('n').alias('k')), schema);
    expect(typeName(e.dataType)).toBe('struct<s:string,col2:integer,k:integer>');
    expect(e.eval(row(null))).toEqual(['a', 2, 1]);
  });

  it('take constant names in named_struct and keep null values', () => {
    const e = bind(named_struct('x', col('s'), 'y', lit(null)), schema);
    expect(typeName(e.dataType)).toBe('struct<x:string,y:void>');
    expect(e.eval(row(null))).toEqual(['a', null]);
  });

  it('reject an odd number of arguments to named_struct', () => {
    expect(() => bind(named_struct('x'), schema)).toThrow(/pairs of a name and a value/);
  });
});
