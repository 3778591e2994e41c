import { describe, expect, it } from 'vitest';
import { col, lit } from '../../core/api/functions.js';
import { greatest, ifnull, least, nullif, nvl } from '../../core/api/conditional-functions.js';
import { md5, sha2 } from '../../core/api/hash-functions.js';
import { AnalysisError, InvalidOptionError } from '../../core/errors.js';
import {
  ArrayOf,
  BinaryType,
  DoubleType,
  field,
  IntegerType,
  StringType,
  struct,
} from '../../core/types/data-types.js';
import { bind, evaluate } from '../expr/evaluate.js';

const schema = struct([
  field('a', IntegerType),
  field('b', DoubleType),
  field('s', StringType),
  field('xs', ArrayOf(IntegerType)),
  field('bin', BinaryType),
]);

describe('nvl and ifnull', () => {
  it('give the value unless it is null, then the replacement', () => {
    expect(evaluate(nvl('a', 5), schema, [1, null, null, null, null])).toBe(1);
    expect(evaluate(nvl('a', 5), schema, [null, null, null, null, null])).toBe(5);
    expect(evaluate(ifnull('a', col('b')), schema, [null, 2.5, null, null, null])).toBe(2.5);
    expect(evaluate(ifnull('a', lit(null)), schema, [null, null, null, null, null])).toBeNull();
  });
});

describe('nullif', () => {
  it('is null when both are equal, the first otherwise', () => {
    expect(evaluate(nullif('a', 1), schema, [1, null, null, null, null])).toBeNull();
    expect(evaluate(nullif('a', 2), schema, [1, null, null, null, null])).toBe(1);
    expect(evaluate(nullif('a', null), schema, [1, null, null, null, null])).toBe(1);
    expect(evaluate(nullif('a', 1), schema, [null, null, null, null, null])).toBeNull();
  });
});

describe('greatest and least', () => {
  it('skip nulls, in the common type of the arguments', () => {
    const r = [3, 2.5, null, null, null];
    expect(evaluate(greatest('a', 'b', lit(null)), schema, r)).toBe(3);
    expect(evaluate(least('a', 'b'), schema, r)).toBe(2.5);
    expect(bind(greatest('a', 'b'), schema).dataType).toBe(DoubleType);
  });

  it('are null only when every argument is null', () => {
    expect(evaluate(greatest('a', 'b'), schema, [null, null, null, null, null])).toBeNull();
  });

  it('put NaN above every other double, as Spark does', () => {
    expect(evaluate(greatest(lit(Number.NaN), lit(1e308)))).toBeNaN();
    expect(evaluate(least(lit(Number.NaN), lit(1)))).toBe(1);
  });

  it('need two arguments and compatible types', () => {
    expect(() => greatest('a')).toThrow(InvalidOptionError);
    expect(() => bind(least('a', 'xs'), schema)).toThrow(AnalysisError);
  });
});

describe('md5 and sha2', () => {
  it('hash the UTF-8 bytes of strings as hex', () => {
    expect(evaluate(md5(lit('Spark')))).toBe('8cde774d6f7333752ed72cacddb05126');
    expect(evaluate(sha2(lit('Spark'), 256))).toBe(
      '529bc3b07127ecb7e53a4dcf1991d9152c24537d919178022b2c42657f79a26b',
    );
    expect(evaluate(sha2(lit('Spark'), 0))).toBe(evaluate(sha2(lit('Spark'), 256)));
    expect((evaluate(sha2(lit('Spark'), 512)) as string).length).toBe(128);
  });

  it('hash binary values as they are', () => {
    const bytes = new TextEncoder().encode('Spark');
    expect(evaluate(md5('bin'), schema, [null, null, null, null, bytes])).toBe(
      '8cde774d6f7333752ed72cacddb05126',
    );
  });

  it('give null for null, and sha2 null for a bit length Spark does not know', () => {
    expect(evaluate(md5(lit(null)))).toBeNull();
    expect(evaluate(sha2(lit('Spark'), 100))).toBeNull();
  });

  it('reject arrays', () => {
    expect(() => bind(md5('xs'), schema)).toThrow(/md5\(\) needs string/);
  });
});

describe('Column.isin and Column.between', () => {
  const r = (a: number | null) => [a, null, null, null, null];
  it('isin is true on a match, null when nothing matches and a value is null', () => {
    expect(evaluate(col('a').isin(1, 2), schema, r(2))).toBe(true);
    expect(evaluate(col('a').isin(1, 2), schema, r(3))).toBe(false);
    expect(evaluate(col('a').isin(1, null), schema, r(3))).toBeNull();
    expect(evaluate(col('a').isin(1, null), schema, r(1))).toBe(true);
    expect(evaluate(col('a').isin(1), schema, r(null))).toBeNull();
    expect(() => col('a').isin()).toThrow(InvalidOptionError);
  });

  it('between includes both bounds and is null for a null value', () => {
    expect(evaluate(col('a').between(1, 3), schema, r(3))).toBe(true);
    expect(evaluate(col('a').between(1, 3), schema, r(4))).toBe(false);
    expect(evaluate(col('a').between(1, 3), schema, r(null))).toBeNull();
    expect(evaluate(col('a').between(5, null), schema, r(3))).toBe(false);
  });
});
