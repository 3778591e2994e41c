import { describe, expect, it } from 'vitest';
import { InvalidOptionError } from '../../core/errors.js';
import {
  ArrayOf,
  BinaryType,
  BooleanType,
  DateType,
  DoubleType,
  field,
  IntegerType,
  LongType,
  MapOf,
  StringType,
  struct,
  TimestampType,
  typeName,
} from '../../core/types/data-types.js';
import { parseSchema, parseTypeName } from '../../core/types/type-names.js';

describe('parseTypeName', () => {
  it("reads Spark's atomic type names and their SQL aliases, in any case", () => {
    expect(parseTypeName('string')).toEqual(StringType);
    expect(parseTypeName('VARCHAR')).toEqual(StringType);
    expect(parseTypeName('boolean')).toEqual(BooleanType);
    expect(parseTypeName('int')).toEqual(IntegerType);
    expect(parseTypeName('Integer')).toEqual(IntegerType);
    expect(parseTypeName('smallint')).toEqual(IntegerType);
    expect(parseTypeName('bigint')).toEqual(LongType);
    expect(parseTypeName('long')).toEqual(LongType);
    expect(parseTypeName('double')).toEqual(DoubleType);
    expect(parseTypeName('float')).toEqual(DoubleType);
    expect(parseTypeName('timestamp')).toEqual(TimestampType);
    expect(parseTypeName('date')).toEqual(DateType);
    expect(parseTypeName('binary')).toEqual(BinaryType);
  });

  it('reads decimals and sized varchars as double and string, ignoring the size', () => {
    expect(parseTypeName('decimal(10, 2)')).toEqual(DoubleType);
    expect(parseTypeName('decimal')).toEqual(DoubleType);
    expect(parseTypeName('varchar(20)')).toEqual(StringType);
  });

  it('reads nested arrays, maps and structs', () => {
    expect(parseTypeName('array<string>')).toEqual(ArrayOf(StringType));
    expect(parseTypeName('map<string, bigint>')).toEqual(MapOf(StringType, LongType));
    expect(parseTypeName('array<map<string,array<int>>>')).toEqual(
      ArrayOf(MapOf(StringType, ArrayOf(IntegerType))),
    );
    expect(parseTypeName('struct<a:int, b: string>')).toEqual(
      struct([field('a', IntegerType), field('b', StringType)]),
    );
  });

  it('reads backticked field names and NOT NULL fields inside structs', () => {
    expect(parseTypeName('struct<`a.b`:int NOT NULL>')).toEqual(
      struct([field('a.b', IntegerType, false)]),
    );
  });

  it('round-trips the names typeName gives', () => {
    for (const text of [
      'integer',
      'array<string>',
      'map<string,double>',
      'struct<a:integer,b:array<long>>',
    ]) {
      expect(typeName(parseTypeName(text))).toBe(text);
    }
  });

  it('rejects unknown types with an InvalidOptionError that shows the text and an example', () => {
    expect(() => parseTypeName('text')).toThrow(InvalidOptionError);
    expect(() => parseTypeName('text')).toThrow(
      /Invalid type or schema 'text': unknown type 'text'.*Example/,
    );
  });

  it('rejects malformed nested types and trailing text', () => {
    expect(() => parseTypeName('array<int')).toThrow(/expected '>'/);
    expect(() => parseTypeName('map<string>')).toThrow(/expected ','/);
    expect(() => parseTypeName('int int')).toThrow(/unexpected 'int'/);
    expect(() => parseTypeName('struct<`a:int>')).toThrow(/unclosed backtick/);
    expect(() => parseTypeName('')).toThrow(/expected a name/);
  });
});

describe('parseSchema', () => {
  it('reads DDL column lists with names and types', () => {
    expect(parseSchema('ts TIMESTAMP, category STRING, price DOUBLE')).toEqual(
      struct([
        field('ts', TimestampType),
        field('category', StringType),
        field('price', DoubleType),
      ]),
    );
  });

  it('accepts a colon between name and type', () => {
    expect(parseSchema('a: int, b: string')).toEqual(
      struct([field('a', IntegerType), field('b', StringType)]),
    );
  });

  it('marks NOT NULL columns as not nullable', () => {
    expect(parseSchema('id BIGINT NOT NULL, name string')).toEqual(
      struct([field('id', LongType, false), field('name', StringType)]),
    );
  });

  it('reads nested types and backticked names', () => {
    expect(parseSchema('`user id` int, tags array<string>, attrs map<string,string>')).toEqual(
      struct([
        field('user id', IntegerType),
        field('tags', ArrayOf(StringType)),
        field('attrs', MapOf(StringType, StringType)),
      ]),
    );
  });

  it('reads an empty schema', () => {
    expect(parseSchema('')).toEqual(struct([]));
  });

  it('rejects unknown types and missing commas', () => {
    expect(() => parseSchema('a INT, b TEXT')).toThrow(InvalidOptionError);
    expect(() => parseSchema('a INT b STRING')).toThrow(/unexpected 'b STRING'/);
  });
});
