import { describe, expect, it } from 'vitest';
import { Column } from '../../core/api/column.js';
import { col, lit } from '../../core/api/functions.js';
import { concat_ws, initcap, lpad, rpad } from '../../core/api/string-functions.js';
import { AnalysisError } from '../../core/errors.js';
import {
  ArrayOf,
  field,
  IntegerType,
  MapOf,
  StringType,
  struct,
} from '../../core/types/data-types.js';
import { bind, evaluate } from '../expr/evaluate.js';

const schema = struct([
  field('s', StringType),
  field('n', IntegerType),
  field('tags', ArrayOf(StringType)),
  field('m', MapOf(StringType, StringType)),
]);

describe('concat_ws', () => {
  it('joins with the separator, skipping nulls and flattening string arrays', () => {
    const row = ['a', 7, ['x', null, 'y'], null];
    expect(evaluate(concat_ws('-', 's', 'n', 'tags'), schema, row)).toBe('a-7-x-y');
    expect(evaluate(concat_ws(',', 's', lit(null), 's'), schema, row)).toBe('a,a');
  });

  it('is null only for a null separator, and empty when every value is null', () => {
    expect(evaluate(concat_ws(',', lit(null), lit(null)))).toBe('');
    const nullSeparator = new Column({
      kind: 'call',
      name: 'concat_ws',
      args: [lit(null).expr, lit('a').expr],
    });
    expect(evaluate(nullSeparator)).toBeNull();
  });

  it('rejects a map argument when the query is analysed', () => {
    expect(() => bind(concat_ws(',', 'm'), schema)).toThrow(AnalysisError);
    expect(() => bind(concat_ws(',', 'm'), schema)).toThrow(/concat_ws\(\) needs string/);
  });
});

describe('lpad and rpad', () => {
  it('pad to the length with the pad repeated, counting characters', () => {
    expect(evaluate(lpad(lit('hi'), 5, 'ab'))).toBe('abahi');
    expect(evaluate(rpad(lit('hi'), 5, 'ab'))).toBe('hiaba');
    expect(evaluate(lpad(lit('é'), 3))).toBe('  é');
    expect(evaluate(rpad(lit('😀'), 2, '.'))).toBe('😀.');
  });

  it('cut a longer string to the length, and only cut with an empty pad', () => {
    expect(evaluate(lpad(lit('hello'), 2, '*'))).toBe('he');
    expect(evaluate(rpad(lit('hello'), 2, '*'))).toBe('he');
    expect(evaluate(lpad(lit('hi'), 5, ''))).toBe('hi');
    expect(evaluate(rpad(lit('hi'), -1, '*'))).toBe('');
  });

  it('give null when the string or the pad is null', () => {
    expect(evaluate(lpad(col('s'), 3, '*'), schema, [null, null, null, null])).toBeNull();
    expect(evaluate(rpad(lit('a'), 3, null as unknown as string))).toBeNull();
  });
});

describe('initcap', () => {
  it('upper-cases the first letter of each space-separated word and lower-cases the rest', () => {
    expect(evaluate(initcap(lit('hELLO wORLD')))).toBe('Hello World');
    expect(evaluate(initcap(lit('a-b c_d  e')))).toBe('A-b C_d  E');
  });

  it('gives null for null', () => {
    expect(evaluate(initcap(lit(null)))).toBeNull();
  });
});
