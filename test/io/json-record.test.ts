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
  it('default to PERMISSIVE and _corrupt_record, and read the mode in any case', () => {
    expect(resolveJsonParseOptions(undefined, 'test')).toEqual({
      mode: 'PERMISSIVE',
      columnNameOfCorruptRecord: '_corrupt_record',
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
