import { describe, expect, it } from 'vitest';
import { Column } from '../../core/api/column.js';
import { coalesce, col, lit, when } from '../../core/api/functions.js';
import { AnalysisError } from '../../core/errors.js';
import {
  ArrayOf,
  DateType,
  DoubleType,
  field,
  IntegerType,
  LongType,
  StringType,
  struct,
  TimestampType,
} from '../../core/types/data-types.js';
import { bind, evaluate } from '../expr/evaluate.js';

const point = struct([field('X', IntegerType), field('label', StringType, false)]);
const schema = struct([
  field('a', IntegerType),
  field('b', LongType),
  field('s', StringType),
  field('p', point),
  field('tags', ArrayOf(StringType)),
  field('ts', TimestampType, false),
]);

describe('coalesce', () => {
  it('gives the first non-null argument', () => {
    expect(evaluate(coalesce('a', 'b'), schema, [null, 7, null, null, null, 0])).toBe(7);
    expect(evaluate(coalesce('a', 'b'), schema, [3, 7, null, null, null, 0])).toBe(3);
    expect(evaluate(coalesce(col('a'), lit(0)), schema, [null, null, null, null, null, 0])).toBe(0);
  });

  it('gives null when every argument is null', () => {
    expect(evaluate(coalesce('a', 'b'), schema, [null, null, null, null, null, 0])).toBeNull();
    expect(evaluate(coalesce(lit(null)))).toBeNull();
  });

  it('brings its arguments to their common type', () => {
    expect(bind(coalesce('a', 'b'), schema).dataType).toEqual(LongType);
    expect(bind(coalesce('a', lit(0.5)), schema).dataType).toEqual(DoubleType);
    expect(bind(coalesce('a', 's'), schema).dataType).toEqual(StringType);
    expect(evaluate(coalesce('s', 'a'), schema, [5, null, null, null, null, 0])).toBe('5');
  });

  it('widens a date to a timestamp at midnight', () => {
    const dated = struct([field('d', DateType), field('t', TimestampType)]);
    expect(bind(coalesce('d', 't'), dated).dataType).toEqual(TimestampType);
    expect(evaluate(coalesce('d', 't'), dated, [1, 5])).toBe(86_400_000_000);
  });

  it('ignores null literals when choosing the type', () => {
    expect(bind(coalesce(lit(null), 'a'), schema).dataType).toEqual(IntegerType);
  });

  it('is nullable unless some argument is not', () => {
    expect(bind(coalesce('a', 'b'), schema).nullable).toBe(true);
    expect(bind(coalesce(col('a'), lit(0)), schema).nullable).toBe(false);
  });

  it('rejects arguments with no common type, naming coalesce', () => {
    expect(() => bind(coalesce('a', 'tags'), schema)).toThrow(AnalysisError);
    expect(() => bind(coalesce('a', 'tags'), schema)).toThrow(
      /coalesce\(\) mixes incompatible types/,
    );
  });

  it('rejects a call without arguments at bind time', () => {
    const empty = new Column({ kind: 'call', name: 'coalesce', args: [] });
    expect(() => bind(empty)).toThrow(/coalesce\(\) needs at least one argument/);
  });
});

describe('get_field on a computed struct', () => {
  const computed = when(col('a').gt(0), col('p'));

  it('reads the named field', () => {
    const row = [1, null, null, [10, 'ten'], null, 0];
    expect(evaluate(computed.getField('label'), schema, row)).toBe('ten');
    expect(bind(computed.getField('label'), schema).dataType).toEqual(StringType);
  });

  it('matches the field name case-insensitively when no exact match exists', () => {
    expect(evaluate(computed.getField('x'), schema, [1, null, null, [10, 'ten'], null, 0])).toBe(
      10,
    );
  });

  it('gives null when the struct is null', () => {
    expect(
      evaluate(computed.getField('X'), schema, [0, null, null, [10, 'ten'], null, 0]),
    ).toBeNull();
    expect(bind(computed.getField('label'), schema).nullable).toBe(true);
  });

  it('rejects an unknown field, listing the fields that exist', () => {
    expect(() => bind(computed.getField('y'), schema)).toThrow(
      /getField\('y'\): no such field; the struct has: X, label/,
    );
  });

  it('rejects a value that is not a struct', () => {
    expect(() => bind(coalesce('a').getField('x'), schema)).toThrow(
      /getField\('x'\) needs a struct, got integer/,
    );
  });

  it('needs the field name in its options', () => {
    const nameless = new Column({ kind: 'call', name: 'get_field', args: [col('p').expr] });
    expect(() => bind(nameless, schema)).toThrow(
      /get_field\(\) needs the field name in options.field/,
    );
  });
});
