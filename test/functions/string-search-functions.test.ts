import { describe, expect, it } from 'vitest';
import { col, lit } from '../../core/api/functions.js';
import { instr, locate, regexp_replace } from '../../core/api/string-functions.js';
import { AnalysisError } from '../../core/errors.js';
import { Column } from '../../core/api/column.js';
import { field, StringType, struct } from '../../core/types/data-types.js';
import { bind, evaluate } from '../expr/evaluate.js';

const schema = struct([field('s', StringType), field('rep', StringType)]);

describe('instr', () => {
  it('is the 1-based character position of the first occurrence, 0 when absent', () => {
    expect(evaluate(instr(lit('banana'), 'an'))).toBe(2);
    expect(evaluate(instr(lit('😀ab'), 'b'))).toBe(3);
    expect(evaluate(instr(lit('abc'), 'x'))).toBe(0);
    expect(evaluate(instr(lit('abc'), ''))).toBe(1);
  });

  it('gives null for a null string or substring', () => {
    expect(evaluate(instr(lit(null), 'a'))).toBeNull();
    expect(evaluate(instr(lit('a'), null as unknown as string))).toBeNull();
  });
});

describe('locate', () => {
  it('searches from a 1-based position', () => {
    expect(evaluate(locate('an', lit('banana')))).toBe(2);
    expect(evaluate(locate('an', lit('banana'), 3))).toBe(4);
    expect(evaluate(locate('an', lit('banana'), 5))).toBe(0);
  });

  it('gives 0 for a position below 1 or a null position, as Spark does', () => {
    expect(evaluate(locate('a', lit('abc'), 0))).toBe(0);
    const nullPos = new Column({
      kind: 'call',
      name: 'locate',
      args: [lit('a').expr, lit('abc').expr, lit(null).expr],
    });
    expect(evaluate(nullPos)).toBe(0);
  });

  it('gives null for a null string or substring', () => {
    expect(evaluate(locate('a', lit(null)))).toBeNull();
  });
});

describe('regexp_replace', () => {
  it('replaces every match, with Java group references in the replacement', () => {
    expect(evaluate(regexp_replace(lit('2026-01-15'), '(\\d+)-(\\d+)-(\\d+)', '$3/$2/$1'))).toBe(
      '15/01/2026',
    );
    expect(evaluate(regexp_replace(lit('a.b.c'), '\\.', '\\$'))).toBe('a$b$c');
    expect(evaluate(regexp_replace(lit('ab'), '(?<x>a)', '${x}${x}'))).toBe('aab');
  });

  it('takes the replacement from a column', () => {
    expect(evaluate(regexp_replace(col('s'), 'o', col('rep')), schema, ['foo', '0'])).toBe('f00');
  });

  it('replaces only from the given position on', () => {
    const from3 = new Column({
      kind: 'call',
      name: 'regexp_replace',
      args: [lit('aaaa').expr, lit('a').expr, lit('b').expr, lit(3).expr],
    });
    expect(evaluate(from3)).toBe('aabb');
  });

  it('gives null when the string or the replacement is null', () => {
    expect(evaluate(regexp_replace(col('s'), 'o', col('rep')), schema, [null, 'x'])).toBeNull();
    expect(evaluate(regexp_replace(col('s'), 'o', col('rep')), schema, ['foo', null])).toBeNull();
  });

  it('rejects a bad pattern when the query is analysed, naming it', () => {
    expect(() => bind(regexp_replace(lit('a'), '(', 'x'))).toThrow(AnalysisError);
    expect(() => bind(regexp_replace(lit('a'), '(', 'x'))).toThrow(/regexp_replace\(\).*'\('/);
  });
});
