import { describe, expect, it } from 'vitest';
import { Column } from '../../core/api/column.js';
import { col, lit } from '../../core/api/functions.js';
import { AnalysisError } from '../../core/errors.js';
import {
  concat,
  length,
  lower,
  ltrim,
  regexp_extract,
  rtrim,
  split,
  substring,
  trim,
  upper,
} from '../../core/api/string-functions.js';
import {
  ArrayOf,
  field,
  IntegerType,
  StringType,
  struct,
  typeName,
} from '../../core/types/data-types.js';
import { bind, evaluate } from '../expr/evaluate.js';

const schema = struct([
  field('s', StringType),
  field('n', IntegerType),
  field('tags', ArrayOf(StringType)),
]);

/** Evaluates against one row of `schema`: s, n, tags. */
function onRow(column: Parameters<typeof evaluate>[0], s: string | null, n: number | null = null) {
  return evaluate(column, schema, [s, n, null]);
}

describe('lower and upper', () => {
  it('change the case of every character', () => {
    expect(onRow(lower('s'), 'Hello ÄÖ')).toBe('hello äö');
    expect(onRow(upper(col('s')), 'Hello straße')).toBe('HELLO STRASSE');
  });

  it('give null for null', () => {
    expect(onRow(lower('s'), null)).toBeNull();
    expect(evaluate(upper(lit(null)))).toBeNull();
  });

  it('read numbers as their text, as Spark casts them implicitly', () => {
    expect(onRow(lower('n'), null, 42)).toBe('42');
  });

  it('reject arrays at bind time, naming the function and the type', () => {
    expect(() => bind(lower('tags'), schema)).toThrow(AnalysisError);
    expect(() => bind(lower('tags'), schema)).toThrow(
      /lower\(\) needs string .* got array<string>/,
    );
  });

  it('return a string', () => {
    expect(bind(upper('s'), schema).dataType).toEqual(StringType);
  });
});

describe('length', () => {
  it('counts characters, not UTF-16 units', () => {
    expect(onRow(length('s'), 'héllo')).toBe(5);
    expect(onRow(length('s'), '😀a')).toBe(2);
    expect(onRow(length('s'), '')).toBe(0);
  });

  it('is an int, null for null', () => {
    expect(bind(length('s'), schema).dataType).toEqual(IntegerType);
    expect(onRow(length('s'), null)).toBeNull();
  });

  it('rejects arrays', () => {
    expect(() => bind(length('tags'), schema)).toThrow(/length\(\) needs string/);
  });
});

describe('concat', () => {
  it('joins its arguments', () => {
    expect(onRow(concat('s', lit('-'), 'n'), 'a', 7)).toBe('a-7');
  });

  it('is null when any argument is null, as in Spark', () => {
    expect(onRow(concat('s', lit('x')), null)).toBeNull();
    expect(onRow(concat(lit('x'), 'n'), 'a', null)).toBeNull();
  });

  it('of no arguments is the empty string', () => {
    expect(evaluate(concat())).toBe('');
  });

  it('rejects an array argument, naming its position', () => {
    expect(() => bind(concat('s', 'tags'), schema)).toThrow(
      /concat\(\) needs string as argument 2/,
    );
  });
});

describe('substring', () => {
  it('counts positions from 1', () => {
    expect(onRow(substring('s', 1, 3), 'Spark SQL')).toBe('Spa');
    expect(onRow(substring('s', 7, 100), 'Spark SQL')).toBe('SQL');
  });

  it('treats position 0 as 1', () => {
    expect(onRow(substring('s', 0, 2), 'Spark')).toBe('Sp');
  });

  it('counts a negative position from the end', () => {
    expect(onRow(substring('s', -3, 2), 'Spark SQL')).toBe('SQ');
    expect(onRow(substring('s', -3, 10), 'Spark SQL')).toBe('SQL');
  });

  it('keeps only the part of a window that starts before the string', () => {
    // Position -10 of a 5-character string starts 5 characters early; 7 characters reach 'Sp'.
    expect(onRow(substring('s', -10, 7), 'Spark')).toBe('Sp');
  });

  it('gives an empty string past the end or for a non-positive length', () => {
    expect(onRow(substring('s', 10, 2), 'Spark')).toBe('');
    expect(onRow(substring('s', 1, 0), 'Spark')).toBe('');
    expect(onRow(substring('s', 1, -1), 'Spark')).toBe('');
  });

  it('counts characters beyond the basic plane as one', () => {
    expect(onRow(substring('s', 2, 1), '😀ab')).toBe('a');
  });

  it('gives null for a null string', () => {
    expect(onRow(substring('s', 1, 2), null)).toBeNull();
  });

  it('rejects a fractional position at bind time', () => {
    expect(() => bind(substring('s', 1.5, 2), schema)).toThrow(
      /substring\(\) needs integer as argument 2/,
    );
  });
});

describe('split', () => {
  it('splits around every match of a regular expression', () => {
    expect(onRow(split('s', '[,;]'), 'a,b;c')).toEqual(['a', 'b', 'c']);
    expect(onRow(split('s', '\\s+'), 'one  two three')).toEqual(['one', 'two', 'three']);
  });

  it('keeps empty strings, including trailing ones', () => {
    expect(onRow(split('s', ','), 'a,,b,,')).toEqual(['a', '', 'b', '', '']);
    expect(onRow(split('s', ','), ',a')).toEqual(['', 'a']);
  });

  it('gives the whole string when nothing matches, and [""] for an empty string', () => {
    expect(onRow(split('s', ','), 'abc')).toEqual(['abc']);
    expect(onRow(split('s', ','), '')).toEqual(['']);
  });

  it('with a positive limit, caps the parts and leaves the rest in the last one', () => {
    expect(onRow(split('s', ',', 2), 'a,b,c')).toEqual(['a', 'b,c']);
    expect(onRow(split('s', ',', 1), 'a,b,c')).toEqual(['a,b,c']);
    expect(onRow(split('s', ',', 5), 'a,b')).toEqual(['a', 'b']);
  });

  it('with a limit of zero or less, splits at every match', () => {
    expect(onRow(split('s', ',', 0), 'a,b,')).toEqual(['a', 'b', '']);
    expect(onRow(split('s', ',', -1), 'a,b,')).toEqual(['a', 'b', '']);
  });

  it('splits into characters on the empty pattern, without a trailing empty string', () => {
    expect(onRow(split('s', ''), 'abc')).toEqual(['a', 'b', 'c']);
    expect(onRow(split('s', '', 2), 'abc')).toEqual(['a', 'b']);
    expect(onRow(split('s', ''), '')).toEqual(['']);
  });

  it('gives no leading empty string for a zero-width match at the start', () => {
    expect(onRow(split('s', '(?=[A-Z])'), 'HelloWorld')).toEqual(['Hello', 'World']);
  });

  it("honours Java's leading inline flags", () => {
    expect(onRow(split('s', '(?i)x'), 'aXbxc')).toEqual(['a', 'b', 'c']);
  });

  it('is an array of strings, null for null', () => {
    expect(typeName(bind(split('s', ','), schema).dataType)).toBe('array<string>');
    expect(onRow(split('s', ','), null)).toBeNull();
  });

  it('rejects an invalid regular expression at bind time', () => {
    expect(() => bind(split('s', '(a'), schema)).toThrow(AnalysisError);
    expect(() => bind(split('s', '(a'), schema)).toThrow(
      /split\(\) cannot use the regular expression '\(a'/,
    );
  });

  it('rejects a pattern given as a column', () => {
    const byColumn = new Column({
      kind: 'call',
      name: 'split',
      args: [col('s').expr, col('s').expr],
    });
    expect(() => bind(byColumn, schema)).toThrow(
      /split\(\) needs a constant, non-null pattern as argument 2/,
    );
  });
});

describe('trim, ltrim and rtrim', () => {
  it('remove spaces from both ends, the start, or the end', () => {
    expect(onRow(trim('s'), '  a b  ')).toBe('a b');
    expect(onRow(ltrim('s'), '  a b  ')).toBe('a b  ');
    expect(onRow(rtrim('s'), '  a b  ')).toBe('  a b');
  });

  it('remove only the space character, as Spark does', () => {
    expect(onRow(trim('s'), '\t a \n')).toBe('\t a \n');
  });

  it('remove the characters of a trim string instead when given one', () => {
    expect(onRow(trim('s', 'xy'), 'xyaxby yx')).toBe('axby ');
    expect(onRow(ltrim('s', '-]'), ']-a-')).toBe('a-');
    expect(onRow(rtrim('s', '^\\'), 'a^\\')).toBe('a');
  });

  it('give an empty string for an all-space string and null for null', () => {
    expect(onRow(trim('s'), '   ')).toBe('');
    expect(onRow(trim('s'), null)).toBeNull();
  });

  it('reject arrays', () => {
    expect(() => bind(rtrim('tags'), schema)).toThrow(/rtrim\(\) needs string/);
  });
});

describe('regexp_extract', () => {
  it('extracts a group of the first match', () => {
    expect(onRow(regexp_extract('s', '(\\d+)-(\\d+)', 1), 'id 100-200, 300-400')).toBe('100');
    expect(onRow(regexp_extract('s', '(\\d+)-(\\d+)', 2), 'id 100-200')).toBe('200');
  });

  it('gives the whole match for group 0', () => {
    expect(onRow(regexp_extract('s', '\\d+', 0), 'ab12cd')).toBe('12');
  });

  it('gives an empty string when nothing matches, as Spark does', () => {
    expect(onRow(regexp_extract('s', '(\\d+)', 1), 'no digits')).toBe('');
  });

  it('gives an empty string for a group that took no part in the match', () => {
    expect(onRow(regexp_extract('s', '(a)|(b)', 1), 'b')).toBe('');
  });

  it('gives null for null', () => {
    expect(onRow(regexp_extract('s', '(a)', 1), null)).toBeNull();
  });

  it('rejects a group index beyond the pattern’s groups at bind time', () => {
    expect(() => bind(regexp_extract('s', '(a)', 2), schema)).toThrow(
      /regexp_extract\(\) asks for group 2 but '\(a\)' has 1 group/,
    );
    expect(() => bind(regexp_extract('s', '(a)', -1), schema)).toThrow(AnalysisError);
  });

  it('rejects an invalid regular expression at bind time', () => {
    expect(() => bind(regexp_extract('s', '[a', 0), schema)).toThrow(AnalysisError);
  });
});

describe('function lookup', () => {
  it("does not mistake Object.prototype's members for functions", () => {
    const odd = new Column({ kind: 'call', name: 'constructor', args: [] });
    expect(() => bind(odd)).toThrow(/Unknown function 'constructor'/);
  });
});
