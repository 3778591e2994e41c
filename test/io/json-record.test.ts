import { InvalidOptionError } from '../../core/errors.js';
import { describe, expect, it } from 'vitest';
import {
  asNullable,
  MalformedRecord,
  parseJsonText,
  permissiveRow,
  resolveJsonParseOptions,
} from '../../core/io/json-record.js';
import {
  ArrayOf,
  field,
  IntegerType,
  MapOf,
  StringType,
  struct,
} from '../../core/types/data-types.js';

describe('parse options', () => {
  it("default to PERMISSIVE, _corrupt_record and Spark's JSON syntax, and read the mode in any case", () => {
    expect(resolveJsonParseOptions(undefined, 'test')).toEqual({
      mode: 'PERMISSIVE',
      columnNameOfCorruptRecord: '_corrupt_record',
      syntax: { allowSingleQuotes: true, allowNonNumericNumbers: true },
    });
    expect(resolveJsonParseOptions({ mode: 'dropMalformed' as 'DROPMALFORMED' }, 'test').mode).toBe(
      'DROPMALFORMED',
    );
  });
});

describe('parsing a record', () => {
  it('gives the JSON value, undefined for blank text, and a MalformedRecord for anything else', () => {
    expect(parseJsonText('{"a":[1]}')).toEqual({ a: [1] });
    expect(parseJsonText(' \t\r')).toBeUndefined();
    expect(parseJsonText('\u00a0')).toBeInstanceOf(MalformedRecord); // JSON whitespace only
    expect(parseJsonText('{')).toEqual(new MalformedRecord('{', null, null));
  });
});

describe("parsing a record with Spark's JSON syntax options", () => {
  const spark = resolveJsonParseOptions(undefined, 'test').syntax;

  it("reads single-quoted strings and field names by default (allowSingleQuotes), with \\' escapes", () => {
    expect(parseJsonText(`{'a': 'it\\'s', "b": ['x', "y\\'s"], 'q': '"'}`, spark)).toEqual({
      a: "it's",
      b: ['x', "y's"],
      q: '"',
    });
  });

  it('reads NaN and the infinities by default (allowNonNumericNumbers) as the texts doubles take', () => {
    expect(parseJsonText('[NaN, Infinity, -Infinity, +INF, -INF, +Infinity]', spark)).toEqual([
      'NaN',
      'Infinity',
      '-Infinity',
      '+INF',
      '-INF',
      '+Infinity',
    ]);
  });

  it('refuses both when they are turned off', () => {
    const strict = resolveJsonParseOptions(
      { allowSingleQuotes: 'false', allowNonNumericNumbers: false },
      'test',
    ).syntax;
    expect(parseJsonText("{'a': 1}", strict)).toBeInstanceOf(MalformedRecord);
    expect(parseJsonText('{"a": NaN}', strict)).toBeInstanceOf(MalformedRecord);
  });

  it('says where lenient text stops being JSON', () => {
    const bad = parseJsonText("{'a': 'x' 'b'}", spark) as MalformedRecord;
    expect(bad.describe()).toContain(`is not valid JSON: unexpected ''' at position 10`);
  });

  it('refuses the extensions it does not implement, and values that are not booleans, by name', () => {
    for (const name of [
      'allowUnquotedFieldNames',
      'allowNumericLeadingZeros',
      'allowBackslashEscapingAnyCharacter',
      'allowComments',
      'allowUnquotedControlChars',
    ]) {
      expect(() => resolveJsonParseOptions({ [name]: true }, 'test')).toThrow(
        new RegExp(`test: option ${name}=true is not supported`),
      );
      expect(resolveJsonParseOptions({ [name]: 'false' }, 'test').mode).toBe('PERMISSIVE');
    }
    expect(() => resolveJsonParseOptions({ allowSingleQuotes: 'yes' }, 'test')).toThrow(
      InvalidOptionError,
    );
  });
});

describe('the PERMISSIVE row of a malformed record', () => {
  it('is its partial row, or nulls, with its text in the corrupt-record column', () => {
    expect(permissiveRow(new MalformedRecord('x', null, null), 3, 1)).toEqual([null, 'x', null]);
    expect(permissiveRow(new MalformedRecord('x', null, [1, null]), 2, -1)).toEqual([1, null]);
  });
});

describe('asNullable', () => {
  it('makes every field, element and map value nullable', () => {
    const strict = struct([
      field('a', ArrayOf(struct([field('b', IntegerType, false)]), false), false),
      field('m', MapOf(StringType, IntegerType, false), false),
    ]);
    expect(asNullable(strict)).toEqual(
      struct([
        field('a', ArrayOf(struct([field('b', IntegerType)]))),
        field('m', MapOf(StringType, IntegerType)),
      ]),
    );
  });
});
