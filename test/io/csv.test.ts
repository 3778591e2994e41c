import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AnalysisError,
  ExecutionError,
  InputLimitError,
  InvalidOptionError,
} from '../../core/errors.js';
import {
  type CsvReadOptions,
  CsvReader,
  CsvSchemaInference,
  formatCsv,
  parseCsv,
} from '../../core/io/csv.js';
import { type StructType, typeName } from '../../core/types/data-types.js';
import { parseSchema } from '../../core/types/type-names.js';
import { parseTimestamp } from '../../core/types/timestamp-text.js';

/** The schema as a DDL-like string, to compare schemas at a glance. */
function ddl(schema: StructType): string {
  return schema.fields.map((f) => `${f.name} ${typeName(f.dataType)}`).join(', ');
}

describe('parseCsv without a schema', () => {
  it('names columns _c0, _c1, ... and reads every field as a string when there is no header', () => {
    const { schema, rows, malformed } = parseCsv('a,b\n1,2\n');
    expect(ddl(schema)).toBe('_c0 string, _c1 string');
    expect(schema.fields.every((f) => f.nullable)).toBe(true);
    expect(rows).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
    expect(malformed).toBe(0);
  });

  it('takes column names from the header and does not return it as a row', () => {
    const { schema, rows } = parseCsv('id,name\n1,ann\n2,bob\n', { header: true });
    expect(ddl(schema)).toBe('id string, name string');
    expect(rows).toEqual([
      ['1', 'ann'],
      ['2', 'bob'],
    ]);
  });

  it('names an empty header _c<i> and suffixes duplicated names with their index, as Spark does', () => {
    const { schema } = parseCsv('a,,A,b\n1,2,3,4\n', { header: true });
    expect(schema.fields.map((f) => f.name)).toEqual(['a0', '_c1', 'A2', 'b']);
  });

  it('returns an empty schema and no rows for empty text', () => {
    expect(parseCsv('')).toEqual({
      schema: { kind: 'struct', fields: [] },
      rows: [],
      malformed: 0,
    });
  });

  it('skips blank lines and accepts CRLF line endings', () => {
    expect(parseCsv('a,b\r\n\r\n1,2\r\n').rows).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
  });
});

describe('parseCsv tokenizing', () => {
  it('splits on a custom delimiter, including tabs and several characters', () => {
    expect(parseCsv('1;2\n', { delimiter: ';' }).rows).toEqual([['1', '2']]);
    expect(parseCsv('1\t2\n', { delimiter: '\t' }).rows).toEqual([['1', '2']]);
    expect(parseCsv('1||2\n', { delimiter: '||' }).rows).toEqual([['1', '2']]);
  });

  it('keeps delimiters and line breaks inside quoted fields', () => {
    const { rows } = parseCsv('1,"a,b"\n2,"line one\nline two"\n3,x\n');
    expect(rows).toEqual([
      ['1', 'a,b'],
      ['2', 'line one\nline two'],
      ['3', 'x'],
    ]);
  });

  it('unescapes \\" inside quotes by default (Spark escape) and "" when escape is set to the quote', () => {
    expect(parseCsv('"say \\"hi\\""\n').rows).toEqual([['say "hi"']]);
    expect(parseCsv('"say ""hi"""\n', { escape: '"' }).rows).toEqual([['say "hi"']]);
  });

  it('keeps a quote inside an unquoted field and a backslash outside quotes as literal characters', () => {
    expect(parseCsv('a"b,c\\d\n').rows).toEqual([['a"b', 'c\\d']]);
  });

  it('honours a custom quote character, and no quoting at all with quote ""', () => {
    expect(parseCsv("'a,b',c\n", { quote: "'" }).rows).toEqual([['a,b', 'c']]);
    expect(parseCsv('"a,b"\n', { quote: '' }).rows).toEqual([['"a', 'b"']]);
  });
});

describe('parseCsv nulls', () => {
  it('reads empty fields, quoted or not, as NULL by default', () => {
    expect(parseCsv('a,,""\n').rows).toEqual([['a', null, null]]);
  });

  it('reads nullValue as NULL; then an unquoted empty field is still NULL but "" is an empty string', () => {
    const { rows } = parseCsv('NA,,""\n', { nullValue: 'NA' });
    expect(rows).toEqual([[null, null, '']]);
  });

  it('reads NULL into typed columns', () => {
    const schema = parseSchema('i INT, d DOUBLE, t TIMESTAMP');
    expect(parseCsv(',,\n', { schema }).rows).toEqual([[null, null, null]]);
  });
});

describe('parseCsv inferSchema', () => {
  it('infers int, long, double, boolean, timestamp and string columns', () => {
    const text = [
      'i,l,d,b,t,s',
      '1,2147483648,1.5,true,2024-01-01 10:00:00,x',
      '-2,3,2,FALSE,2024-01-02T00:00:00Z,1',
    ].join('\n');
    const { schema, rows } = parseCsv(text, { header: true, inferSchema: true });
    expect(ddl(schema)).toBe('i integer, l long, d double, b boolean, t timestamp, s string');
    expect(rows).toEqual([
      [1, 2147483648, 1.5, true, parseTimestamp('2024-01-01 10:00:00'), 'x'],
      [-2, 3, 2, false, parseTimestamp('2024-01-02T00:00:00Z'), '1'],
    ]);
  });

  it('widens int to long to double and falls back to string for mixed kinds', () => {
    const text = 'a,b,c,d\n1,1,1,true\n5000000000,2.5,x,1\n';
    const { schema } = parseCsv(text, { header: true, inferSchema: true });
    expect(ddl(schema)).toBe('a long, b double, c string, d string');
  });

  it('ignores NULLs when inferring, and types an all-NULL column as string', () => {
    const { schema, rows } = parseCsv('a,b\n,\n7,\n', { header: true, inferSchema: true });
    expect(ddl(schema)).toBe('a integer, b string');
    expect(rows).toEqual([
      [null, null],
      [7, null],
    ]);
  });

  it('infers a double for integers beyond the safe range, where Spark would infer a decimal', () => {
    const { schema } = parseCsv('12345678901234567890\n', { inferSchema: true });
    expect(ddl(schema)).toBe('_c0 double');
  });

  it('reads NaN, Inf and -Inf as doubles', () => {
    const { schema, rows } = parseCsv('NaN\nInf\n-Inf\n1e3\n', { inferSchema: true });
    expect(ddl(schema)).toBe('_c0 double');
    expect(rows).toEqual([[NaN], [Infinity], [-Infinity], [1000]]);
  });
});

describe('parseCsv with a schema', () => {
  const schema = parseSchema(
    'id INT, price DOUBLE, ok BOOLEAN, day DATE, at TIMESTAMP, name STRING',
  );

  it('converts fields by position, skipping the header line', () => {
    const text = 'ignored,header,names,here,x,y\n7,2.5,TRUE,2024-03-01,2024-03-01 12:30:00.5,ann\n';
    const { schema: out, rows } = parseCsv(text, { schema, header: true });
    expect(out).toBe(schema);
    expect(rows).toEqual([[7, 2.5, true, 19783, parseTimestamp('2024-03-01 12:30:00.5'), 'ann']]);
  });

  it('PERMISSIVE keeps a malformed record, with NULL for the fields that do not convert', () => {
    const { rows, malformed } = parseCsv('x,2.5,maybe,2024-13-01,never,ann\n', { schema });
    expect(rows).toEqual([[null, 2.5, null, null, null, 'ann']]);
    expect(malformed).toBe(1);
  });

  it('PERMISSIVE puts the text of malformed records into _corrupt_record, wherever it is in the schema', () => {
    const withCorrupt = parseSchema('_corrupt_record STRING, a INT, b INT');
    const { rows, malformed } = parseCsv('1,2\nx,2\n3\n4,5,6\n', { schema: withCorrupt });
    expect(rows).toEqual([
      [null, 1, 2],
      ['x,2', null, 2],
      ['3', 3, null],
      ['4,5,6', 4, 5],
    ]);
    expect(malformed).toBe(3);
  });

  it('uses columnNameOfCorruptRecord to find the corrupt-record column', () => {
    const withCorrupt = parseSchema('a INT, bad STRING');
    const { rows } = parseCsv('x\n', { schema: withCorrupt, columnNameOfCorruptRecord: 'bad' });
    expect(rows).toEqual([[null, 'x']]);
  });

  it('treats a record with too few or too many fields as malformed', () => {
    const two = parseSchema('a STRING, b STRING');
    const { rows, malformed } = parseCsv('1\n1,2,3\n1,2\n', { schema: two });
    expect(rows).toEqual([
      ['1', null],
      ['1', '2'],
      ['1', '2'],
    ]);
    expect(malformed).toBe(2);
  });

  it('treats an empty field of a non-nullable column as malformed', () => {
    const strict = parseSchema('a INT NOT NULL, b INT');
    const { rows, malformed } = parseCsv(',1\n', { schema: strict, mode: 'DROPMALFORMED' });
    expect(rows).toEqual([]);
    expect(malformed).toBe(1);
  });

  it('rejects integers outside the column type and text that is not strictly an integer', () => {
    const ints = parseSchema('i INT, l LONG');
    const { rows, malformed } = parseCsv('2147483648,1\n1.5,9007199254740992\n 3,+4\n', {
      schema: ints,
    });
    expect(rows).toEqual([
      [null, 1],
      [null, null],
      [null, 4],
    ]);
    expect(malformed).toBe(3);
  });

  it('DROPMALFORMED drops malformed records and counts them', () => {
    const { rows, malformed } = parseCsv('1,1.5,true,2024-01-01,2024-01-01,a\nx\n', {
      schema,
      mode: 'DROPMALFORMED',
    });
    expect(rows).toEqual([[1, 1.5, true, 19723, parseTimestamp('2024-01-01'), 'a']]);
    expect(malformed).toBe(1);
  });

  it('FAILFAST throws an ExecutionError naming the source and the line where the record starts', () => {
    const ints = parseSchema('a INT, b STRING');
    const text = 'a,b\n1,ok\n\n2,"two\nlines"\nthree,x\n';
    const run = () =>
      parseCsv(text, { schema: ints, header: true, mode: 'FAILFAST', source: 'in/data.csv' });
    expect(run).toThrow(ExecutionError);
    expect(run).toThrow(/in\/data\.csv at line 6: 'three' is not an integer \(column 'a'\)/);
  });

  it('treats an unclosed quote as a malformed record in every mode', () => {
    const two = parseSchema('a STRING, b STRING, _corrupt_record STRING');
    const text = '1,2\n3,"open\n';
    expect(parseCsv(text, { schema: two })).toMatchObject({
      rows: [
        ['1', '2', null],
        [null, null, '3,"open'],
      ],
      malformed: 1,
    });
    expect(parseCsv(text, { schema: two, mode: 'DROPMALFORMED' }).rows).toEqual([['1', '2', null]]);
    expect(() => parseCsv(text, { schema: two, mode: 'FAILFAST', source: 'f.csv' })).toThrow(
      /f\.csv at line 2: Quote Not Closed/,
    );
  });

  it('refuses types CSV cannot hold, naming the column', () => {
    expect(() => parseCsv('', { schema: parseSchema('tags ARRAY<STRING>') })).toThrow(
      AnalysisError,
    );
    expect(() => parseCsv('', { schema: parseSchema('raw BINARY') })).toThrow(/column 'raw'/);
  });

  it('refuses a corrupt-record column that is not a string', () => {
    expect(() => parseCsv('1\n', { schema: parseSchema('a INT, _corrupt_record INT') })).toThrow(
      AnalysisError,
    );
  });
});

/** Reads `text` through a CsvReader fed the bytes between consecutive `cuts`. */
function readInChunks(text: string, cuts: readonly number[], options: CsvReadOptions) {
  const bytes = Buffer.from(text);
  const reader = new CsvReader(options.schema ?? parseCsv(text, options).schema, options);
  const ends = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  let start = 0;
  for (const end of [...ends, bytes.length]) {
    reader.add(bytes.subarray(start, end));
    start = end;
  }
  return reader.result();
}

describe('CsvReader', () => {
  const two = parseSchema('a STRING, b STRING');

  it('reads a quoted field with a line break that spans a chunk boundary as one field', () => {
    const text = '1,"first half\nsecond half"\n2,x\n';
    const cut = text.indexOf('half\n') + 2;
    expect(readInChunks(text, [cut, cut + 5], { schema: two }).rows).toEqual([
      ['1', 'first half\nsecond half'],
      ['2', 'x'],
    ]);
  });

  it('reads CSV cut into chunks at any bytes into the same rows as the whole text', () => {
    const cell = fc.oneof(
      fc.constantFrom(null, '', ',', '"', '\n', '\r\n', '\\', 'é€😀'),
      fc.string({ unit: fc.constantFrom('a', ',', '"', '\n', '\\', 'é', '😀'), maxLength: 6 }),
    );
    const rows = fc.array(fc.tuple(cell, cell), { maxLength: 8 });
    const options = fc.record({
      header: fc.boolean(),
      mode: fc.constantFrom('PERMISSIVE' as const, 'DROPMALFORMED' as const),
      escape: fc.constantFrom('\\', '"'),
    });
    fc.assert(
      fc.property(rows, options, fc.array(fc.nat(), { maxLength: 12 }), (data, opts, cuts) => {
        const text = formatCsv(data, two, { header: opts.header, escape: opts.escape });
        const whole = parseCsv(text, { ...opts, schema: two });
        expect(readInChunks(text, cuts, { ...opts, schema: two })).toEqual(whole);
      }),
    );
  });

  it('keeps an unclosed quote at the end of the input a malformed record, read in chunks', () => {
    const text = '1,2\n3,"open\n4,5\n';
    expect(readInChunks(text, [7, 12], { schema: two })).toEqual(parseCsv(text, { schema: two }));
    expect(readInChunks(text, [7, 12], { schema: two }).malformed).toBe(1);
  });

  it('reads input far longer than maxRecordBytes made of short records', () => {
    const text = '1,"a\nb"\n'.repeat(10_000);
    const { rows } = readInChunks(text, [1000, 50_000], { schema: two, maxRecordBytes: 64 });
    expect(rows.length).toBe(10_000);
  });

  it('refuses a record longer than maxRecordBytes in every mode, naming the input and the limit', () => {
    const text = `1,2\n3,"${'x'.repeat(200_000)}"\n`;
    for (const mode of ['PERMISSIVE', 'DROPMALFORMED', 'FAILFAST'] as const) {
      const options = { schema: two, mode, maxRecordBytes: 1000, source: 'in/wide.csv' };
      expect(() => readInChunks(text, [10], options)).toThrow(InputLimitError);
      expect(() => readInChunks(text, [10], options)).toThrow(
        'in/wide.csv has a CSV record longer than maxRecordBytes (1000 bytes)',
      );
    }
  });

  it('refuses an unclosed quote that makes the rest of a long input one record', () => {
    const text = `1,"open\n${'2,3\n'.repeat(1000)}`;
    expect(() => readInChunks(text, [], { schema: two, maxRecordBytes: 1000 })).toThrow(
      /a quote left open makes the rest of the file one record/,
    );
  });
});

describe('CsvSchemaInference', () => {
  /** The given chunks, then a failure: inference must not read past what it needs. */
  function* chunksThenFailure(...chunks: string[]): Generator<Uint8Array> {
    for (const chunk of chunks) yield Buffer.from(chunk);
    throw new Error('read past the first record');
  }

  it('reads only up to the first record when it does not infer types', () => {
    const inference = new CsvSchemaInference({ header: true });
    inference.addFile('a.csv', chunksThenFailure('id,na', 'me\n1,ann\n'));
    expect(inference.wantsMore).toBe(false);
    expect(ddl(inference.schema())).toBe('id string, name string');
  });

  it("types columns from every file, skipping each file's header", () => {
    const inference = new CsvSchemaInference({ header: true, inferSchema: true });
    inference.addFile('a.csv', [Buffer.from('id,v\n1,'), Buffer.from('x\n')]);
    inference.addFile('b.csv', [Buffer.from('id,v\n2.5,y\n')]);
    expect(ddl(inference.schema())).toBe('id double, v string');
  });
});

describe('parseCsv options', () => {
  it('rejects invalid options with InvalidOptionError naming the option', () => {
    expect(() => parseCsv('', { delimiter: '' })).toThrow(InvalidOptionError);
    expect(() => parseCsv('', { delimiter: '\n' })).toThrow(/delimiter/);
    expect(() => parseCsv('', { quote: '""' })).toThrow(/quote/);
    expect(() => parseCsv('', { escape: '' })).toThrow(/escape/);
    expect(() => parseCsv('', { mode: 'LENIENT' as 'PERMISSIVE' })).toThrow(/mode 'LENIENT'/);
  });
});

describe('formatCsv', () => {
  const schema = parseSchema(
    's STRING, i INT, l LONG, d DOUBLE, b BOOLEAN, day DATE, at TIMESTAMP',
  );
  const at = parseTimestamp('2024-01-02 03:04:05.678')!;

  it('writes values as Spark does: doubles with a fraction, ISO timestamps in UTC with milliseconds', () => {
    const text = formatCsv([['x', 1, 2, 3, true, 19724, at]], schema);
    expect(text).toBe('x,1,2,3.0,true,2024-01-02,2024-01-02T03:04:05.678Z\n');
  });

  it('writes a header line when asked, and nothing for no rows', () => {
    expect(formatCsv([], parseSchema('a INT, b STRING'), { header: true })).toBe('a,b\n');
    expect(formatCsv([], parseSchema('a INT'))).toBe('');
  });

  it('quotes values containing the delimiter, a quote or a line break, escaping quotes with \\', () => {
    const one = parseSchema('s STRING');
    const rows = [['a,b'], ['say "hi"'], ['two\nlines'], ['back\\slash'], ['both \\ "']];
    expect(formatCsv(rows, one)).toBe(
      '"a,b"\n"say \\"hi\\""\n"two\nlines"\nback\\slash\n"both \\\\ \\""\n',
    );
  });

  it('doubles quotes when the escape is the quote character (RFC 4180)', () => {
    expect(formatCsv([['say "hi"']], parseSchema('s STRING'), { escape: '"' })).toBe(
      '"say ""hi"""\n',
    );
  });

  it('writes NULL as nullValue and an empty string as ""', () => {
    const two = parseSchema('a STRING, b STRING');
    expect(formatCsv([[null, '']], two)).toBe(',""\n');
    expect(formatCsv([[null, '']], two, { nullValue: 'NA' })).toBe('NA,""\n');
  });

  it('uses the delimiter and quotes a value that contains it', () => {
    expect(formatCsv([['a;b', 1]], parseSchema('s STRING, i INT'), { delimiter: ';' })).toBe(
      '"a;b";1\n',
    );
  });

  it('round-trips through parseCsv with the same schema', () => {
    const rows = [
      ['a,"b"\nc \\ d', -5, 9007199254740991, -0.25, false, -1, -1_000],
      [null, null, null, null, null, null, null],
    ];
    const text = formatCsv(rows, schema, { header: true });
    expect(parseCsv(text, { schema, header: true }).rows).toEqual(rows);
  });

  it('refuses types CSV cannot hold, naming the column', () => {
    expect(() => formatCsv([], parseSchema('m MAP<STRING,INT>'))).toThrow(/column 'm'/);
  });

  it('refuses an empty quote character, which would make the output ambiguous', () => {
    expect(() => formatCsv([], parseSchema('a INT'), { quote: '' })).toThrow(InvalidOptionError);
  });
});
