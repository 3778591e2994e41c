import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  finishInferredSchema,
  inferJsonType,
  jsonSyntaxError,
  mergeJsonTypes,
} from '../../core/io/json-inference.js';
import {
  ArrayOf,
  BooleanType,
  DoubleType,
  field,
  LongType,
  NullType,
  StringType,
  struct,
  typeName,
} from '../../core/types/data-types.js';

/** The inferred type of a JSON text, in Spark's short notation. */
function inferred(text: string): string | null {
  const t = inferJsonType(text);
  return t && typeName(t);
}

describe('inferring the type of one record', () => {
  it('gives long for integers and double for numbers with a fraction or exponent, as Spark does', () => {
    expect(inferred('{"a": 10, "b": 10.0, "c": 1e3, "d": -0}')).toBe(
      'struct<a:long,b:double,c:double,d:long>',
    );
  });

  it('gives double for integers beyond the safe range, which long cannot hold', () => {
    expect(inferred('9007199254740993')).toBe('double');
    expect(inferred('9007199254740991')).toBe('long');
  });

  it('gives string for strings (no timestamp guessing), boolean, and the null type for null', () => {
    expect(inferred('"2024-01-01T10:00:00Z"')).toBe('string');
    expect(inferred('false')).toBe('boolean');
    expect(inferred('null')).toBe('void');
  });

  it('sorts object fields by name, keeps the last of repeated keys, and decodes escaped keys', () => {
    expect(inferred('{"b": 1, "a": "x", "B": true}')).toBe('struct<B:boolean,a:string,b:long>');
    expect(inferred('{"a": 1, "a": "x"}')).toBe('struct<a:string>');
    expect(inferred('{"\\u0061\\n": 1}')).toBe('struct<a\n:long>');
  });

  it('merges the types of array elements', () => {
    expect(inferred('[1, 2.5, null]')).toBe('array<double>');
    expect(inferred('[1, "x"]')).toBe('array<string>');
    expect(inferred('[]')).toBe('array<void>');
    expect(inferred('[{"a": 1}, {"b": [true]}]')).toBe('array<struct<a:long,b:array<boolean>>>');
  });

  it('gives null for text that is not JSON', () => {
    for (const text of ['', '{', '{"a":}', "{'a': 1}", '[1,]', '01', 'NaN', '{"a":1} x']) {
      expect(inferJsonType(text)).toBeNull();
    }
  });
});

/** The position of the first syntax error in `text`, or -1 when it is valid JSON. */
function jsonSyntaxErrorOffset(text: string): number {
  return jsonSyntaxError(text)?.offset ?? -1;
}

describe('locating syntax errors', () => {
  it('gives the 0-based position of the first character that cannot continue the JSON', () => {
    expect(jsonSyntaxErrorOffset('{"a":1}')).toBe(-1);
    expect(jsonSyntaxErrorOffset('{"a":}')).toBe(5);
    expect(jsonSyntaxErrorOffset('{"a" 1}')).toBe(5);
    expect(jsonSyntaxErrorOffset('[1, 2,]')).toBe(6);
    expect(jsonSyntaxErrorOffset('{"a": 1} trailing')).toBe(9);
    expect(jsonSyntaxErrorOffset('"bad \\x escape"')).toBe(6);
    expect(jsonSyntaxErrorOffset('"tab\tinside"')).toBe(4);
  });

  it('points past the end when the text stops too early', () => {
    expect(jsonSyntaxErrorOffset('{"a": [1, 2')).toBe(11);
    expect(jsonSyntaxErrorOffset('"open')).toBe(5);
    expect(jsonSyntaxErrorOffset('')).toBe(0);
  });

  it('refuses to nest deeper than 1000 levels, naming the first bracket too deep', () => {
    expect(jsonSyntaxError(`${'['.repeat(1000)}${']'.repeat(1000)}`)).toBeNull();
    expect(jsonSyntaxError(`${'['.repeat(10_000)}${']'.repeat(10_000)}`)).toEqual({
      offset: 1000,
      reason: 'too-deep',
    });
    expect(inferJsonType(`{"a":${'{"a":'.repeat(5000)}1${'}'.repeat(5001)}`)).toBeNull();
  });

  it('accepts every text JSON.stringify writes', () => {
    fc.assert(
      fc.property(
        fc.jsonValue(),
        (value) => jsonSyntaxErrorOffset(JSON.stringify(value, null, 1)) === -1,
      ),
    );
  });

  it('agrees with JSON.parse on what is valid JSON', () => {
    const jsonish = fc.stringMatching(/^[\s{}[\]",:0-9.eE+\-tfnrulsa\\]{0,20}$/);
    fc.assert(
      fc.property(fc.oneof(jsonish, fc.string(), fc.json()), (text) => {
        let valid = true;
        try {
          JSON.parse(text);
        } catch {
          valid = false;
        }
        return (jsonSyntaxErrorOffset(text) === -1) === valid;
      }),
      { numRuns: 2000 },
    );
  });
});

describe('merging inferred types', () => {
  it('widens long and double to double, and any other conflict to string', () => {
    expect(mergeJsonTypes(LongType, DoubleType)).toBe(DoubleType);
    expect(mergeJsonTypes(LongType, BooleanType)).toBe(StringType);
    expect(mergeJsonTypes(struct([]), LongType)).toBe(StringType);
    expect(mergeJsonTypes(ArrayOf(LongType), LongType)).toBe(StringType);
  });

  it('lets null merge into anything', () => {
    expect(mergeJsonTypes(NullType, BooleanType)).toBe(BooleanType);
    expect(mergeJsonTypes(ArrayOf(LongType), NullType)).toEqual(ArrayOf(LongType));
  });

  it('unites struct fields, sorted by name, merging the types of common fields', () => {
    const a = struct([field('a', LongType), field('c', StringType)]);
    const b = struct([field('b', BooleanType), field('c', LongType), field('d', NullType)]);
    expect(typeName(mergeJsonTypes(a, b))).toBe('struct<a:long,b:boolean,c:string,d:void>');
  });

  it('merges arrays by their elements', () => {
    expect(mergeJsonTypes(ArrayOf(LongType), ArrayOf(DoubleType))).toEqual(ArrayOf(DoubleType));
  });
});

describe('finishing an inferred schema', () => {
  it('makes null types string, and drops empty structs and fields without a name', () => {
    const merged = struct([
      field('', LongType),
      field('a', NullType),
      field('b', ArrayOf(NullType)),
      field('c', struct([])),
      field('d', ArrayOf(struct([]))),
      field('e', struct([field('x', struct([]))])),
      field('f', LongType),
    ]);
    expect(typeName(finishInferredSchema(merged))).toBe('struct<a:string,b:array<string>,f:long>');
  });

  it('gives an empty schema when nothing is left', () => {
    expect(finishInferredSchema(struct([field('a', struct([]))]))).toEqual(struct([]));
  });
});
