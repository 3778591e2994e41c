import { describe, expect, it } from 'vitest';
import type { Column } from '../../core/api/column.js';
import { col, lit } from '../../core/api/functions.js';
import { AnalysisError, ExecutionError, InvalidOptionError } from '../../core/errors.js';
import { DROP_MALFORMED } from '../../core/expr/drop-row.js';
import { from_json, to_json } from '../../core/api/json-functions.js';
import {
  ArrayOf,
  field,
  IntegerType,
  MapOf,
  StringType,
  struct,
  type StructType,
  TimestampType,
  typeName,
} from '../../core/types/data-types.js';
import { parseSchema } from '../../core/types/type-names.js';
import { bind, evaluate } from '../expr/evaluate.js';

const input = struct([field('value', StringType), field('n', IntegerType)]);

/** Evaluates `column` on a row whose `value` column holds `text`. */
function onText(column: Column, text: string | null): unknown {
  return evaluate(column, input, [text, 1]);
}

/** The error `column` throws on `text`, or fails the test. */
function thrownOn(column: Column, text: string): unknown {
  try {
    onText(column, text);
  } catch (e) {
    return e;
  }
  throw new Error(`expected evaluation on ${text} to throw`);
}

const events = parseSchema('id INT, user STRING, ts TIMESTAMP');

describe('from_json', () => {
  it('parses a JSON object into a struct of the schema', () => {
    expect(
      onText(from_json(col('value'), events), '{"id":1,"user":"ann","ts":"2024-01-01T10:00:00Z"}'),
    ).toEqual([1, 'ann', Date.UTC(2024, 0, 1, 10) * 1000]);
  });

  it('takes the schema as DDL text, or as a type name for arrays and maps', () => {
    expect(onText(from_json('value', 'a INT, b ARRAY<STRING>'), '{"a":1,"b":["x"]}')).toEqual([
      1,
      ['x'],
    ]);
    expect(onText(from_json('value', 'struct<a:int>'), '{"a":2}')).toEqual([2]);
    expect(onText(from_json('value', 'array<int>'), '[1,null,3]')).toEqual([1, null, 3]);
    expect(onText(from_json('value', 'map<string,int>'), '{"k":1}')).toEqual(new Map([['k', 1]]));
  });

  it('gives a nullable version of the schema as its type', () => {
    const strict = struct([
      field('a', IntegerType, false),
      field('b', ArrayOf(IntegerType, false), false),
    ]);
    const bound = bind(from_json('value', strict), input);
    expect(bound.nullable).toBe(true);
    expect(bound.dataType).toEqual(
      struct([field('a', IntegerType), field('b', ArrayOf(IntegerType))]),
    );
  });

  it('gives null for null input and for blank text', () => {
    expect(onText(from_json('value', events), null)).toBeNull();
    expect(onText(from_json('value', events), '  ')).toBeNull();
    expect(evaluate(from_json(lit(null), events), input, [null, 1])).toBeNull();
  });

  it('gives null for missing fields and ignores extra ones', () => {
    expect(onText(from_json('value', events), '{"user":"bo","other":true}')).toEqual([
      null,
      'bo',
      null,
    ]);
  });

  it('reads a lone object as a one-element array when the schema is an array of structs, as Spark does', () => {
    expect(onText(from_json('value', 'array<struct<a:int>>'), '{"a":1}')).toEqual([[1]]);
  });

  it('reads what to_json writes', () => {
    const schema = struct([field('s', parseSchema('id INT, tags ARRAY<STRING>, ts TIMESTAMP'))]);
    const row = [[7, ['a', null], Date.UTC(2024, 0, 1) * 1000]];
    const roundTrip = from_json(to_json('s'), schema.fields[0].dataType);
    expect(evaluate(roundTrip, schema, row)).toEqual(row[0]);
  });
});

describe('from_json in PERMISSIVE mode (the default)', () => {
  const withCorrupt = parseSchema('id INT, user STRING, _corrupt_record STRING');

  it('gives a struct of nulls for text that is not JSON', () => {
    expect(onText(from_json('value', events), '{"id": 1,')).toEqual([null, null, null]);
  });

  it('puts the raw text in the _corrupt_record field when the schema has one', () => {
    expect(onText(from_json('value', withCorrupt), '{"id": 1,')).toEqual([null, null, '{"id": 1,']);
    expect(onText(from_json('value', withCorrupt), '{"id": 1}')).toEqual([1, null, null]);
  });

  it('uses the column named by columnNameOfCorruptRecord instead', () => {
    const schema = parseSchema('id INT, bad STRING');
    const column = from_json('value', schema, { columnNameOfCorruptRecord: 'bad' });
    expect(onText(column, 'oops')).toEqual([null, 'oops']);
  });

  it('keeps the top-level fields that fit when another has the wrong type, as Spark does', () => {
    expect(onText(from_json('value', withCorrupt), '{"id":"one","user":"ann"}')).toEqual([
      null,
      'ann',
      '{"id":"one","user":"ann"}',
    ]);
  });

  it('does not take the corrupt-record column from the JSON itself', () => {
    expect(onText(from_json('value', withCorrupt), '{"id":1,"_corrupt_record":"x"}')).toEqual([
      1,
      null,
      null,
    ]);
  });

  it('calls a record that is not an object malformed', () => {
    for (const text of ['[{"id":1}]', '1', '"x"', 'null']) {
      expect(onText(from_json('value', withCorrupt), text)).toEqual([null, null, text]);
    }
  });

  it('gives null for a malformed record when the schema is an array or a map', () => {
    expect(onText(from_json('value', 'array<int>'), '["x"]')).toBeNull();
    expect(onText(from_json('value', 'map<string,int>'), '[1]')).toBeNull();
    expect(onText(from_json('value', 'array<int>'), '[1,')).toBeNull();
  });
});

describe('from_json in DROPMALFORMED mode', () => {
  const column = from_json('value', events, { mode: 'DROPMALFORMED' });

  it('asks the operator to drop the row of a malformed record', () => {
    expect(thrownOn(column, '{"id":')).toBe(DROP_MALFORMED);
    expect(thrownOn(column, '{"id":"one"}')).toBe(DROP_MALFORMED);
  });

  it('passes good records and null input through', () => {
    expect(onText(column, '{"id":1}')).toEqual([1, null, null]);
    expect(onText(column, null)).toBeNull();
  });
});

describe('from_json in FAILFAST mode', () => {
  const column = from_json('value', events, { mode: 'FAILFAST' });

  it('fails on text that is not JSON, quoting it and giving the position of the error', () => {
    const error = thrownOn(column, '{"id": 1, "user": }');
    expect(error).toBeInstanceOf(ExecutionError);
    expect((error as Error).message).toBe(
      `Malformed JSON record in from_json(): '{"id": 1, "user": }' is not valid JSON: unexpected '}' at position 18. ` +
        `Fix the input, or set mode 'PERMISSIVE' (malformed records become nulls) or 'DROPMALFORMED' (they are dropped) to tolerate bad records.`,
    );
  });

  it('names the field whose value has the wrong type', () => {
    const error = thrownOn(column, '{"id": "one"}') as ExecutionError;
    expect(error.message).toContain(
      `'{"id": "one"}' does not match the schema: field 'id' expects integer but got "one"`,
    );
    expect(error.code).toBe('EXECUTION');
  });

  it('says when the text ends too early', () => {
    expect((thrownOn(column, '{"id": 1') as Error).message).toContain(
      'unexpected end of input at position 8',
    );
  });

  it('quotes only the first 100 characters of a long record', () => {
    const text = `{"user": "${'x'.repeat(200)}", "id": "one"}`;
    const message = (thrownOn(column, text) as Error).message;
    expect(message).toContain(`'${text.slice(0, 100)}...'`);
    expect(message).not.toContain(text.slice(0, 101));
  });

  it('accepts the mode in any case', () => {
    expect(
      thrownOn(from_json('value', events, { mode: 'failfast' as 'FAILFAST' }), '{'),
    ).toBeInstanceOf(ExecutionError);
  });
});

describe('from_json argument checks', () => {
  it('refuses schema text that is neither a type nor DDL', () => {
    expect(() => from_json('value', 'a INT,, b')).toThrow(InvalidOptionError);
    expect(() => from_json('value', 'a WHATEVER')).toThrow(/unknown type 'whatever'/);
  });

  it('refuses a schema that is not a struct, array or map', () => {
    expect(() => from_json('value', 'string')).toThrow(InvalidOptionError);
    expect(() => from_json('value', TimestampType)).toThrow(
      /struct, array or map schema, got timestamp/,
    );
  });

  it('refuses a map whose keys are not strings', () => {
    expect(() => from_json('value', MapOf(IntegerType, StringType))).toThrow(InvalidOptionError);
  });

  it('refuses an unknown mode and an empty corrupt-record column name', () => {
    expect(() => from_json('value', events, { mode: 'LENIENT' as 'PERMISSIVE' })).toThrow(
      /mode 'LENIENT'/,
    );
    expect(() => from_json('value', events, { columnNameOfCorruptRecord: '' })).toThrow(
      InvalidOptionError,
    );
  });

  it('refuses a corrupt-record column that is not a string', () => {
    expect(() => from_json('value', 'a INT, _corrupt_record INT')).toThrow(
      /corrupt-record column '_corrupt_record' must be a string/,
    );
  });

  it('needs a string column', () => {
    expect(() => bind(from_json('n', events), input)).toThrow(AnalysisError);
  });
});

describe('to_json', () => {
  const schema: StructType = struct([
    field('s', parseSchema('id INT, name STRING, price DOUBLE, ts TIMESTAMP')),
    field('tags', ArrayOf(StringType)),
    field('attrs', MapOf(StringType, IntegerType)),
    field('n', IntegerType),
  ]);
  const row = [[1, null, 10, Date.UTC(2024, 0, 1, 10) * 1000], ['a', null], new Map([['k', 1]]), 3];

  it('renders a struct as Spark does: null fields left out, doubles with a fraction, ISO timestamps', () => {
    expect(evaluate(to_json('s'), schema, row)).toBe(
      '{"id":1,"price":10.0,"ts":"2024-01-01T10:00:00.000Z"}',
    );
  });

  it('renders arrays and maps', () => {
    expect(evaluate(to_json(col('tags')), schema, row)).toBe('["a",null]');
    expect(evaluate(to_json('attrs'), schema, row)).toBe('{"k":1}');
  });

  it('gives null for null and a string type', () => {
    expect(evaluate(to_json('s'), schema, [null, null, null, null])).toBeNull();
    expect(typeName(bind(to_json('s'), schema).dataType)).toBe('string');
  });

  it('needs a struct, array or map', () => {
    expect(() => bind(to_json('n'), schema)).toThrow(
      /to_json\(\) needs a struct, array or map argument, got integer/,
    );
  });
});

describe('from_json on a record nested deeper than Spark allows (1000 levels)', () => {
  const deep = `{"user": ${'['.repeat(10_000)}${']'.repeat(10_000)}, "id": 1}`;
  const withCorrupt = parseSchema('id INT, user STRING, _corrupt_record STRING');

  it('makes it a corrupt record in PERMISSIVE mode', () => {
    expect(onText(from_json('value', withCorrupt), deep)).toEqual([null, null, deep]);
  });

  it('drops it in DROPMALFORMED mode', () => {
    expect(thrownOn(from_json('value', events, { mode: 'DROPMALFORMED' }), deep)).toBe(
      DROP_MALFORMED,
    );
  });

  it('fails with an ExecutionError saying how deep it may nest in FAILFAST mode', () => {
    const error = thrownOn(from_json('value', events, { mode: 'FAILFAST' }), deep);
    expect(error).toBeInstanceOf(ExecutionError);
    expect((error as Error).message).toContain('nests deeper than 1000 levels at position 1008');
  });

  it('reads a record nested exactly 1000 levels deep', () => {
    const text = `{"user": ${'['.repeat(999)}${']'.repeat(999)}}`;
    expect(onText(from_json('value', events), text)).toEqual([
      null,
      JSON.stringify(JSON.parse(text).user),
      null,
    ]);
  });
});

describe("from_json with Spark's JSON syntax defaults", () => {
  it('reads single-quoted JSON, as Spark does by default', () => {
    expect(onText(from_json('value', events), "{'id': 1, 'user': 'o\\'neil'}")).toEqual([
      1,
      "o'neil",
      null,
    ]);
  });

  it('refuses single quotes with allowSingleQuotes off', () => {
    const strict = from_json('value', events, { mode: 'FAILFAST', allowSingleQuotes: 'false' });
    expect((thrownOn(strict, "{'id': 1}") as Error).message).toContain(
      "unexpected ''' at position 1",
    );
  });

  it('refuses an extension it does not implement when the column is built', () => {
    expect(() => from_json('value', events, { allowUnquotedFieldNames: true })).toThrow(
      /from_json\(\): option allowUnquotedFieldNames=true is not supported/,
    );
  });
});
