import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidOptionError } from '../../core/errors.js';
import {
  compileJsonReader,
  compileJsonWriter,
  compileRowReader,
  isJsonObject,
  JsonTypeMismatch,
} from '../../core/io/json-value.js';
import {
  ArrayOf,
  BinaryType,
  BooleanType,
  type DataType,
  DateType,
  DoubleType,
  field,
  IntegerType,
  LongType,
  MapOf,
  NullType,
  StringType,
  struct,
  TimestampType,
} from '../../core/types/data-types.js';
import { parseSchema } from '../../core/types/type-names.js';
import { parseTimestamp } from '../../core/types/timestamp-text.js';

/** Reads one JSON text as a value of `type`. */
function read(type: DataType, json: string): unknown {
  return compileJsonReader(type)(JSON.parse(json));
}

/** The mismatch a reader throws for `json`, or fails the test. */
function mismatchOf(type: DataType, json: string): JsonTypeMismatch {
  try {
    read(type, json);
  } catch (e) {
    if (e instanceof JsonTypeMismatch) return e;
    throw e;
  }
  throw new Error(`expected ${json} not to fit`);
}

describe('reading atomic values', () => {
  it('reads integral numbers as int within 32 bits, as long within the safe range', () => {
    expect(read(IntegerType, '2147483647')).toBe(2147483647);
    expect(read(IntegerType, '-2147483648')).toBe(-2147483648);
    expect(mismatchOf(IntegerType, '2147483648').expected).toBe(IntegerType);
    expect(read(LongType, '9007199254740991')).toBe(9007199254740991);
    expect(() => read(LongType, '9007199254740993')).toThrow(JsonTypeMismatch);
  });

  it('refuses fractions, text and booleans for integral types', () => {
    for (const json of ['1.5', '"1"', 'true']) {
      expect(() => read(IntegerType, json)).toThrow(JsonTypeMismatch);
      expect(() => read(LongType, json)).toThrow(JsonTypeMismatch);
    }
  });

  it('reads any number as double, and the strings Spark accepts for non-finite values', () => {
    expect(read(DoubleType, '3')).toBe(3);
    expect(read(DoubleType, '2.5e3')).toBe(2500);
    expect(read(DoubleType, '"NaN"')).toBeNaN();
    expect(read(DoubleType, '"Infinity"')).toBe(Infinity);
    expect(read(DoubleType, '"+INF"')).toBe(Infinity);
    expect(read(DoubleType, '"-Infinity"')).toBe(-Infinity);
    expect(read(DoubleType, '"-INF"')).toBe(-Infinity);
    expect(() => read(DoubleType, '"1.5"')).toThrow(JsonTypeMismatch);
    expect(() => read(DoubleType, '""')).toThrow(JsonTypeMismatch);
  });

  it('keeps strings, and any other value as its JSON text, as Spark keeps the raw text', () => {
    expect(read(StringType, '"héllo"')).toBe('héllo');
    expect(read(StringType, '42')).toBe('42');
    expect(read(StringType, 'true')).toBe('true');
    expect(read(StringType, '{"a": [1, "x"]}')).toBe('{"a":[1,"x"]}');
  });

  it('reads only true and false as boolean', () => {
    expect(read(BooleanType, 'false')).toBe(false);
    expect(() => read(BooleanType, '"true"')).toThrow(JsonTypeMismatch);
    expect(() => read(BooleanType, '1')).toThrow(JsonTypeMismatch);
  });

  it('reads timestamps from text in UTC or with an offset, keeping microseconds', () => {
    expect(read(TimestampType, '"2024-01-01T10:00:00.000Z"')).toBe(Date.UTC(2024, 0, 1, 10) * 1000);
    expect(read(TimestampType, '"2024-01-01 10:00:00"')).toBe(Date.UTC(2024, 0, 1, 10) * 1000);
    expect(read(TimestampType, '"2024-01-01T12:00:00+02:00"')).toBe(
      Date.UTC(2024, 0, 1, 10) * 1000,
    );
    expect(read(TimestampType, '"2024-01-01T10:00:00.123456Z"')).toBe(
      Date.UTC(2024, 0, 1, 10) * 1000 + 123456,
    );
  });

  it('reads an integral number as seconds since the epoch, as Spark does', () => {
    expect(read(TimestampType, '1704103200')).toBe(Date.UTC(2024, 0, 1, 10) * 1000);
    expect(() => read(TimestampType, '1.5')).toThrow(JsonTypeMismatch);
  });

  it('refuses timestamp text that is not a valid instant, including the empty string', () => {
    for (const json of [
      '""',
      '"yesterday"',
      '"2024-02-30T10:00:00.000Z"',
      '"2024-01-01T24:00:00.000Z"',
    ]) {
      expect(() => read(TimestampType, json)).toThrow(JsonTypeMismatch);
    }
  });

  it('reads the common ISO form exactly as the general timestamp parser does', () => {
    const instants = fc.date({
      min: new Date('1900-01-01T00:00:00Z'),
      max: new Date('2200-12-31T23:59:59Z'),
      noInvalidDate: true,
    });
    fc.assert(
      fc.property(instants, fc.boolean(), (d, withMillis) => {
        const text = withMillis ? d.toISOString() : d.toISOString().replace(/\.\d{3}Z$/, 'Z');
        return read(TimestampType, JSON.stringify(text)) === parseTimestamp(text);
      }),
    );
  });

  it('reads dates from text as days since the epoch', () => {
    expect(read(DateType, '"1970-01-02"')).toBe(1);
    expect(read(DateType, '"2024-03-01"')).toBe(19783);
    expect(() => read(DateType, '19783')).toThrow(JsonTypeMismatch);
    expect(() => read(DateType, '"2024-13-01"')).toThrow(JsonTypeMismatch);
  });

  it('reads binary from base64 text into a plain Uint8Array', () => {
    const bytes = read(BinaryType, '"AAEC/w=="');
    expect(bytes).toEqual(new Uint8Array([0, 1, 2, 255]));
    expect(Object.getPrototypeOf(bytes)).toBe(Uint8Array.prototype);
    expect(() => read(BinaryType, '"not base64!"')).toThrow(JsonTypeMismatch);
  });

  it('reads anything as null for the null type', () => {
    expect(read(NullType, '"x"')).toBeNull();
  });
});

describe('reading nested values', () => {
  const schema = parseSchema(
    'id LONG, user STRUCT<name: STRING, age: INT>, tags ARRAY<STRING>, scores MAP<STRING, DOUBLE>',
  );

  it('reads structs as positional rows, arrays as arrays and maps as Maps', () => {
    const row = compileRowReader(schema).read(
      JSON.parse(
        '{"id":1,"user":{"name":"ann","age":30},"tags":["a",null],"scores":{"x":1.5,"y":null}}',
      ),
    );
    expect(row).toEqual([
      1,
      ['ann', 30],
      ['a', null],
      new Map([
        ['x', 1.5],
        ['y', null],
      ]),
    ]);
  });

  it('gives null for missing fields and JSON nulls, and ignores fields the schema lacks', () => {
    const reader = compileRowReader(schema);
    expect(reader.read({ id: 7, extra: 'ignored' })).toEqual([7, null, null, null]);
    expect(reader.read({ id: null, user: { name: 'bo' } })).toEqual([
      null,
      ['bo', null],
      null,
      null,
    ]);
  });

  it('matches field names exactly, not case-insensitively', () => {
    expect(compileRowReader(schema).read({ ID: 1, User: { name: 'x' } })).toEqual([
      null,
      null,
      null,
      null,
    ]);
  });

  it('does not mistake members of Object.prototype for fields', () => {
    const reader = compileRowReader(
      parseSchema('constructor STRING, toString STRING, `__proto__` STRING'),
    );
    expect(reader.read({})).toEqual([null, null, null]);
    expect(reader.read(JSON.parse('{"constructor":"c","__proto__":"p"}'))).toEqual([
      'c',
      null,
      'p',
    ]);
  });

  it('reads an array of structs and a map of arrays', () => {
    const type = struct([
      field('items', ArrayOf(struct([field('sku', StringType), field('qty', IntegerType)]))),
      field('groups', MapOf(StringType, ArrayOf(LongType))),
    ]);
    expect(read(type, '{"items":[{"sku":"a","qty":2},null],"groups":{"g":[1,2]}}')).toEqual([
      [['a', 2], null],
      new Map([['g', [1, 2]]]),
    ]);
  });

  it('names the path of a value that does not fit: a.b for fields, [] for elements, {} for map values', () => {
    const nested = (json: string) => mismatchOf(schema, json).path;
    expect(nested('{"user":{"age":"old"}}')).toBe('user.age');
    expect(nested('{"scores":{"x":"high"}}')).toBe('scores{}');
    expect(nested('{"tags":"a"}')).toBe('tags');
    expect(mismatchOf(ArrayOf(IntegerType), '[1,"2"]').path).toBe('[]');
  });

  it('describes a mismatch with the field, the expected type and the value found', () => {
    expect(mismatchOf(parseSchema('a STRUCT<b: INT>'), '{"a":{"b":"x"}}').describe()).toBe(
      `field 'a.b' expects integer but got "x"`,
    );
    expect(mismatchOf(parseSchema('a INT'), '[1]').describe()).toBe(
      'the record expects struct<a:integer> but got [1]',
    );
    expect(mismatchOf(IntegerType, JSON.stringify('x'.repeat(100))).describe()).toMatch(
      /got "x{39}\.\.\.$/,
    );
  });

  it('refuses to compile a map whose keys are not strings, since JSON keys are text', () => {
    expect(() => compileJsonReader(MapOf(IntegerType, StringType))).toThrow(InvalidOptionError);
    expect(() => compileJsonReader(parseSchema('m MAP<INT, STRING>'))).toThrow(
      /at 'm'.*map<string,string>/,
    );
  });
});

describe('reading a top-level record', () => {
  const schema = parseSchema('a INT, b STRING, c DOUBLE');

  it('reads field by field after a mismatch, leaving null only the fields that do not fit', () => {
    const reader = compileRowReader(schema);
    const json = { a: 'one', b: 'two', c: 3 };
    expect(() => reader.read(json)).toThrow(JsonTypeMismatch);
    expect(reader.readPartial(json)).toEqual([null, 'two', 3]);
  });

  it('leaves the ignored field (the corrupt-record column) null even when the JSON has it', () => {
    const reader = compileRowReader(
      parseSchema('a INT, _corrupt_record STRING'),
      '_corrupt_record',
    );
    expect(reader.read({ a: 1, _corrupt_record: 'x' })).toEqual([1, null]);
  });

  it('refuses anything but an object', () => {
    const reader = compileRowReader(schema);
    for (const json of [[], 1, 'x', null])
      expect(() => reader.read(json)).toThrow(JsonTypeMismatch);
  });

  it('tells JSON objects from arrays and null', () => {
    expect(isJsonObject({})).toBe(true);
    expect(isJsonObject([])).toBe(false);
    expect(isJsonObject(null)).toBe(false);
  });
});

describe('writing JSON', () => {
  const write = (type: DataType, value: unknown) => compileJsonWriter(type)(value);

  it('leaves out null struct fields, as Spark does by default', () => {
    expect(write(parseSchema('a INT, b STRING, c BOOLEAN'), [1, null, false])).toBe(
      '{"a":1,"c":false}',
    );
    expect(write(parseSchema('a INT'), [null])).toBe('{}');
  });

  it('writes timestamps as ISO 8601 instants with milliseconds and dates as yyyy-MM-dd', () => {
    const ts = Date.UTC(2024, 0, 1, 10) * 1000 + 123456;
    expect(write(TimestampType, ts)).toBe('"2024-01-01T10:00:00.123Z"');
    expect(write(DateType, 19783)).toBe('"2024-03-01"');
  });

  it('writes doubles as Java prints them, and non-finite doubles as quoted text', () => {
    const cases: [number, string][] = [
      [1, '1.0'],
      [0.5, '0.5'],
      [-2.25, '-2.25'],
      [0, '0.0'],
      [-0, '-0.0'],
      [1e7, '1.0E7'],
      [12345678.9, '1.23456789E7'],
      [1e-4, '1.0E-4'],
      [1.5e-10, '1.5E-10'],
      [1e21, '1.0E21'],
      [NaN, '"NaN"'],
      [Infinity, '"Infinity"'],
      [-Infinity, '"-Infinity"'],
    ];
    for (const [value, text] of cases) expect(write(DoubleType, value)).toBe(text);
  });

  it('writes ints, longs and booleans as JSON numbers and literals', () => {
    expect(write(LongType, 9007199254740991)).toBe('9007199254740991');
    expect(write(BooleanType, true)).toBe('true');
  });

  it('escapes strings and field names', () => {
    expect(write(StringType, 'a "quoted"\nline\\')).toBe('"a \\"quoted\\"\\nline\\\\"');
    expect(write(struct([field('we"ird', StringType)]), ['x'])).toBe('{"we\\"ird":"x"}');
  });

  it('writes binary as base64, even when the bytes are a view into a larger buffer', () => {
    const buffer = new Uint8Array([9, 0, 1, 2, 255, 9]);
    expect(write(BinaryType, buffer.subarray(1, 5))).toBe('"AAEC/w=="');
  });

  it('writes null array elements and map values as null', () => {
    expect(write(ArrayOf(IntegerType), [1, null, 3])).toBe('[1,null,3]');
    expect(
      write(
        MapOf(StringType, IntegerType),
        new Map([
          ['a', 1],
          ['b', null],
        ]),
      ),
    ).toBe('{"a":1,"b":null}');
    expect(write(ArrayOf(StringType), [])).toBe('[]');
  });

  it('writes map keys of other types as their text', () => {
    expect(write(MapOf(IntegerType, StringType), new Map([[1, 'x']]))).toBe('{"1":"x"}');
    expect(write(MapOf(DateType, IntegerType), new Map([[0, 1]]))).toBe('{"1970-01-01":1}');
  });

  it('writes nested structs, arrays and maps', () => {
    const type = parseSchema(
      'u STRUCT<name: STRING, tags: ARRAY<STRING>>, m MAP<STRING, STRUCT<x: DOUBLE>>',
    );
    expect(write(type, [['ann', ['a']], new Map([['k', [2]]])])).toBe(
      '{"u":{"name":"ann","tags":["a"]},"m":{"k":{"x":2.0}}}',
    );
  });
});

describe('round trips', () => {
  const schema = parseSchema(
    's STRING, b BOOLEAN, i INT, l LONG, d DOUBLE, ts TIMESTAMP, day DATE, bin BINARY, ' +
      'arr ARRAY<STRING>, m MAP<STRING, LONG>, nested STRUCT<x: DOUBLE, y: ARRAY<INT>>',
  );
  const nullable = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null });
  const millis = fc.integer({ min: Date.UTC(1900, 0, 1), max: Date.UTC(2200, 0, 1) });
  const rows = fc.tuple(
    nullable(fc.string()),
    nullable(fc.boolean()),
    nullable(fc.integer()),
    nullable(fc.maxSafeInteger()),
    nullable(fc.double()),
    nullable(millis.map((ms) => ms * 1000)),
    nullable(fc.integer({ min: -25567, max: 84000 })),
    nullable(fc.uint8Array()),
    nullable(fc.array(nullable(fc.string()))),
    nullable(
      fc
        .dictionary(fc.string(), nullable(fc.maxSafeInteger()))
        .map((o) => new Map(Object.entries(o))),
    ),
    nullable(fc.tuple(nullable(fc.double()), nullable(fc.array(nullable(fc.integer()))))),
  );

  it('reads back every value it writes (timestamps at millisecond precision)', () => {
    const write = compileJsonWriter(schema);
    const reader = compileRowReader(schema);
    fc.assert(
      fc.property(rows, (row) => {
        expect(reader.read(JSON.parse(write(row)))).toEqual(row);
      }),
    );
  });
});
