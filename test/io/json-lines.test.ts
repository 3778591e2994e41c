import { describe, expect, it } from 'vitest';
import { ExecutionError, InvalidOptionError } from '../../core/errors.js';
import { formatJsonLines, parseJsonLines } from '../../core/io/json-lines.js';
import { field, IntegerType, struct, treeString, typeName } from '../../core/types/data-types.js';
import { parseSchema } from '../../core/types/type-names.js';

const schema = parseSchema('id INT, user STRING, price DOUBLE');

describe('reading JSON lines with a schema', () => {
  it('gives one row per line, in schema order, with missing fields null', () => {
    const text = '{"id":1,"user":"ann","price":9.5}\n{"user":"bo","id":2}\n';
    expect(parseJsonLines(text, { schema })).toEqual({
      schema,
      rows: [
        [1, 'ann', 9.5],
        [2, 'bo', null],
      ],
      malformed: 0,
    });
  });

  it('skips blank lines and reads Windows line ends', () => {
    const text = '\n{"id":1}\r\n   \r\n{"id":2}\r\n';
    expect(parseJsonLines(text, { schema }).rows).toEqual([
      [1, null, null],
      [2, null, null],
    ]);
  });

  it('reads each element of a top-level array as a record, as Spark does', () => {
    const { rows } = parseJsonLines('[{"id":1},{"id":2}]\n[]\n{"id":3}', { schema });
    expect(rows).toEqual([
      [1, null, null],
      [2, null, null],
      [3, null, null],
    ]);
  });

  it('makes every field of the schema nullable', () => {
    const strict = struct([field('id', IntegerType, false)]);
    expect(parseJsonLines('{"id":1}', { schema: strict }).schema).toEqual(
      struct([field('id', IntegerType)]),
    );
  });

  it('reads nothing from empty text', () => {
    expect(parseJsonLines('', { schema })).toEqual({ schema, rows: [], malformed: 0 });
  });
});

describe('malformed lines', () => {
  const text = ['{"id":1}', '{"id":', '{"id":"two","user":"bo"}', '[{"id":4}, 5]', '{"id":5}'].join(
    '\n',
  );

  it('become rows of nulls in PERMISSIVE mode, keeping the top-level fields that fit, and are counted', () => {
    const { rows, malformed } = parseJsonLines(text, { schema });
    expect(rows).toEqual([
      [1, null, null],
      [null, null, null],
      [null, 'bo', null],
      [null, null, null],
      [5, null, null],
    ]);
    expect(malformed).toBe(3);
  });

  it('keep their text in the corrupt-record column when the schema has one, without the line end', () => {
    const withCorrupt = parseSchema('id INT, _corrupt_record STRING');
    const { rows } = parseJsonLines('{"id":1}\r\n{"id":\r\n', { schema: withCorrupt });
    expect(rows).toEqual([
      [1, null],
      [null, '{"id":'],
    ]);
  });

  it('use the column named by columnNameOfCorruptRecord', () => {
    const { rows } = parseJsonLines('oops', {
      schema: parseSchema('id INT, raw STRING'),
      columnNameOfCorruptRecord: 'raw',
    });
    expect(rows).toEqual([[null, 'oops']]);
  });

  it('are dropped and counted in DROPMALFORMED mode', () => {
    expect(parseJsonLines(text, { schema, mode: 'DROPMALFORMED' })).toEqual({
      schema,
      rows: [
        [1, null, null],
        [5, null, null],
      ],
      malformed: 3,
    });
  });

  it('fail the read in FAILFAST mode, naming the source, the line and the problem', () => {
    const read = () =>
      parseJsonLines(text, { schema, mode: 'FAILFAST', source: 'events/part-0.jsonl' });
    expect(read).toThrow(ExecutionError);
    expect(read).toThrow(
      `Malformed JSON record in events/part-0.jsonl line 2: '{"id":' is not valid JSON: unexpected end of input at position 6. ` +
        `Fix the input, or set mode 'PERMISSIVE' (malformed records become nulls) or 'DROPMALFORMED' (they are dropped) to tolerate bad records.`,
    );
  });

  it('name the field of the wrong type in FAILFAST mode, and a generic source when none is given', () => {
    const read = () => parseJsonLines('{"id":1}\n\n{"id":"two"}', { schema, mode: 'FAILFAST' });
    expect(read).toThrow(
      /^Malformed JSON record in JSON input line 3: .*field 'id' expects integer but got "two"/,
    );
  });

  it('include records that are not objects', () => {
    const { rows, malformed } = parseJsonLines('1\n"x"\nnull', {
      schema: parseSchema('a INT, _corrupt_record STRING'),
    });
    expect(rows).toEqual([
      [null, '1'],
      [null, '"x"'],
      [null, 'null'],
    ]);
    expect(malformed).toBe(3);
  });
});

describe('inferring the schema', () => {
  it('unites the fields of all records, sorted by name', () => {
    const { schema: inferred, rows } = parseJsonLines('{"z":1,"a":"x"}\n{"m":true}');
    expect(typeName(inferred)).toBe('struct<a:string,m:boolean,z:long>');
    expect(rows).toEqual([
      ['x', null, 1],
      [null, true, null],
    ]);
  });

  it('infers double from a number written with a fraction, as Spark does', () => {
    const { schema: inferred, rows } = parseJsonLines('{"price":10.0}\n{"price":12.0}');
    expect(typeName(inferred)).toBe('struct<price:double>');
    expect(rows).toEqual([[10], [12]]);
  });

  it('widens long to double, and conflicting types to string', () => {
    const text = '{"a":1,"b":1,"c":{"x":1}}\n{"a":2.5,"b":"two","c":"flat"}';
    const { schema: inferred, rows } = parseJsonLines(text);
    expect(typeName(inferred)).toBe('struct<a:double,b:string,c:string>');
    expect(rows).toEqual([
      [1, '1', '{"x":1}'],
      [2.5, 'two', 'flat'],
    ]);
  });

  it('merges nested structs and arrays', () => {
    const text = '{"u":{"name":"ann"},"tags":[1]}\n{"u":{"age":3},"tags":[2.5,null]}\n{"tags":[]}';
    expect(treeString(parseJsonLines(text).schema)).toBe(
      [
        'root',
        ' |-- tags: array (nullable = true)',
        ' |    |-- element: double (containsNull = true)',
        ' |-- u: struct (nullable = true)',
        ' |    |-- age: long (nullable = true)',
        ' |    |-- name: string (nullable = true)',
      ].join('\n'),
    );
  });

  it('makes fields that are only ever null strings, and drops fields that are only empty objects', () => {
    const { schema: inferred } = parseJsonLines('{"a":null,"b":{},"c":[]}\n{"a":null}');
    expect(typeName(inferred)).toBe('struct<a:string,c:array<string>>');
  });

  it('infers from the records of top-level arrays, and ignores null records', () => {
    const { schema: inferred, rows, malformed } = parseJsonLines('[{"a":1},{"b":"x"}]\nnull\n');
    expect(typeName(inferred)).toBe('struct<a:long,b:string>');
    // Reading still calls a null record malformed, as Spark does; here it has no text column to go to.
    expect(rows).toEqual([
      [1, null],
      [null, 'x'],
      [null, null],
    ]);
    expect(malformed).toBe(1);
  });

  it('adds the corrupt-record column in PERMISSIVE mode when a record is malformed', () => {
    const { schema: inferred, rows, malformed } = parseJsonLines('{"b":1}\n{"b":\n42');
    expect(typeName(inferred)).toBe('struct<_corrupt_record:string,b:long>');
    expect(rows).toEqual([
      [null, 1],
      ['{"b":', null],
      ['42', null],
    ]);
    expect(malformed).toBe(2);
  });

  it('names the corrupt-record column after columnNameOfCorruptRecord', () => {
    const { schema: inferred } = parseJsonLines('{"b":1}\n{', { columnNameOfCorruptRecord: 'raw' });
    expect(typeName(inferred)).toBe('struct<b:long,raw:string>');
  });

  it('adds no corrupt-record column in DROPMALFORMED mode', () => {
    const result = parseJsonLines('{"b":1}\n{"b":\n42', { mode: 'DROPMALFORMED' });
    expect(typeName(result.schema)).toBe('struct<b:long>');
    expect(result.rows).toEqual([[1]]);
    expect(result.malformed).toBe(2);
  });

  it('fails at the first malformed line in FAILFAST mode', () => {
    const read = () => parseJsonLines('{"b":1}\n\n42\n{', { mode: 'FAILFAST', source: 'x.jsonl' });
    expect(read).toThrow(
      /^Malformed JSON record in x\.jsonl line 3: '42' does not match the schema: the record expects struct<b:long> but got 42/,
    );
  });

  it('gives an empty schema for input without records', () => {
    expect(parseJsonLines('\n\n')).toEqual({ schema: struct([]), rows: [], malformed: 0 });
  });
});

describe('options', () => {
  it('refuses an unknown mode, naming the source', () => {
    expect(() => parseJsonLines('{}', { mode: 'STRICT' as 'FAILFAST', source: 'a.json' })).toThrow(
      /^Reading a\.json: mode 'STRICT' is not a parse mode/,
    );
  });

  it('refuses a corrupt-record column that is not a string', () => {
    expect(() => parseJsonLines('{}', { schema: parseSchema('_corrupt_record INT') })).toThrow(
      InvalidOptionError,
    );
  });

  it('refuses a schema with a map whose keys are not strings', () => {
    expect(() => parseJsonLines('{}', { schema: parseSchema('m MAP<INT, STRING>') })).toThrow(
      InvalidOptionError,
    );
  });
});

describe('writing JSON lines', () => {
  const nested = parseSchema(
    'id INT, ts TIMESTAMP, tags ARRAY<STRING>, geo STRUCT<lat: DOUBLE, lon: DOUBLE>',
  );
  const rows = [
    [1, Date.UTC(2024, 0, 1, 10) * 1000, ['a'], [48.5, 2]],
    [2, null, null, [null, 3.25]],
  ];

  it('writes one object per line, leaving out null fields, each line ending in a newline', () => {
    expect(formatJsonLines(rows, nested)).toBe(
      '{"id":1,"ts":"2024-01-01T10:00:00.000Z","tags":["a"],"geo":{"lat":48.5,"lon":2.0}}\n' +
        '{"id":2,"geo":{"lon":3.25}}\n',
    );
  });

  it('writes nothing for no rows and {} for a row of nulls', () => {
    expect(formatJsonLines([], nested)).toBe('');
    expect(formatJsonLines([[null, null, null, null]], nested)).toBe('{}\n');
  });

  it('reads back what it writes', () => {
    expect(parseJsonLines(formatJsonLines(rows, nested), { schema: nested }).rows).toEqual(rows);
  });
});

describe('a line nested deeper than Spark allows (1000 levels)', () => {
  const deep = `{"user": ${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`;
  const text = `{"id":1}\n${deep}\n{"id":3}\n`;

  it('is a corrupt record in PERMISSIVE mode, also when the schema is inferred', () => {
    const { schema: inferred, rows, malformed } = parseJsonLines(text);
    expect(inferred.fields.map((f) => f.name)).toEqual(['_corrupt_record', 'id']);
    expect(rows).toEqual([
      [null, 1],
      [deep, null],
      [null, 3],
    ]);
    expect(malformed).toBe(1);
  });

  it('is dropped and counted in DROPMALFORMED mode', () => {
    const read = parseJsonLines(text, { schema, mode: 'DROPMALFORMED' });
    expect(read.rows).toEqual([
      [1, null, null],
      [3, null, null],
    ]);
    expect(read.malformed).toBe(1);
  });

  it('fails naming the file and the line in FAILFAST mode', () => {
    expect(() => parseJsonLines(text, { mode: 'FAILFAST', source: 'deep.jsonl' })).toThrow(
      /Malformed JSON record in deep\.jsonl line 2: .* nests deeper than 1000 levels at position 5004/,
    );
  });
});

describe("JSON lines with Spark's JSON syntax defaults", () => {
  it('reads single-quoted records and non-numeric numbers, with or without a schema', () => {
    const text = `{'id': 1, 'user': 'ann', 'price': NaN}\n{"id": 2, "price": -Infinity}\n`;
    const inferred = parseJsonLines(text);
    expect(treeString(inferred.schema)).toBe(
      treeString(parseSchema('id BIGINT, price DOUBLE, user STRING')),
    );
    expect(inferred.rows).toEqual([
      [1, NaN, 'ann'],
      [2, -Infinity, null],
    ]);
    expect(parseJsonLines(text, { schema }).rows).toEqual([
      [1, 'ann', NaN],
      [2, null, -Infinity],
    ]);
  });

  it('calls them malformed when allowSingleQuotes and allowNonNumericNumbers are off', () => {
    const text = `{'id': 1}\n{"id": 2, "price": NaN}\n{"id": 3}`;
    const read = parseJsonLines(text, {
      schema,
      mode: 'DROPMALFORMED',
      allowSingleQuotes: false,
      allowNonNumericNumbers: 'false',
    });
    expect(read.rows).toEqual([[3, null, null]]);
    expect(read.malformed).toBe(2);
  });

  it('refuses an extension it does not implement, naming the source and the option', () => {
    expect(() => parseJsonLines('{}', { allowComments: true, source: 'a.jsonl' })).toThrow(
      /Reading a\.jsonl: option allowComments=true is not supported/,
    );
  });
});
