import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { col } from '../../core/api/functions.js';
import { type Column, valueAt } from '../../core/columnar/column-batch.js';
import { columnBuilder } from '../../core/columnar/column-builder.js';
import { DropRow } from '../../core/expr/drop-row.js';
import { from_json } from '../../core/api/json-functions.js';
import {
  compileJsonColumnDecoder,
  type DecodedJsonColumn,
} from '../../core/io/json-column-decoder.js';
import {
  asNullable,
  type JsonParseOptions,
  type ParseMode,
  resolveJsonParseOptions,
} from '../../core/io/json-record.js';
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
  StringType,
  struct,
  type StructType,
  TimestampType,
} from '../../core/types/data-types.js';
import { parseSchema } from '../../core/types/type-names.js';
import { bind } from '../expr/evaluate.js';

/** What from_json made of one row, evaluated row by row as the operators do today. */
type Outcome = { readonly value: unknown } | { readonly dropped: true };

/** from_json row by row over text (or over bytes, through `cast(value as string)`): the reference. */
function fromJsonRowByRow(
  schema: StructType,
  options: JsonParseOptions,
  records: readonly (string | Uint8Array | null)[],
  asBytes: boolean,
): { readonly outcomes: Outcome[]; readonly error?: unknown } {
  const expression = asBytes
    ? from_json(col('value').cast('string'), schema, options)
    : from_json(col('value'), schema, options);
  const bound = bind(expression, struct([field('value', asBytes ? BinaryType : StringType)]));
  const outcomes: Outcome[] = [];
  for (const record of records) {
    try {
      outcomes.push({ value: bound.eval([record]) });
    } catch (e) {
      if (e instanceof DropRow) outcomes.push({ dropped: true });
      else return { outcomes, error: e };
    }
  }
  return { outcomes };
}

/** The column the reference's rows make, with the fields the query does not read left null. */
function expectedColumn(
  schema: StructType,
  outcomes: readonly Outcome[],
  read: readonly string[],
): Column {
  const builder = columnBuilder(asNullable(schema), outcomes.length);
  for (const outcome of outcomes) {
    if (!('value' in outcome) || outcome.value === null) {
      builder.appendNull();
      continue;
    }
    const row = outcome.value as unknown[];
    builder.append(schema.fields.map((f, i) => (read.includes(f.name) ? row[i] : null)));
  }
  return builder.finish();
}

/** Decodes `records` both ways and checks the decoder against from_json row by row; returns the decoded column. */
function checkAgainstFromJson(
  schema: StructType,
  options: JsonParseOptions,
  records: readonly (string | Uint8Array | null)[],
  projection: readonly string[] | undefined,
  asBytes: boolean,
): DecodedJsonColumn | undefined {
  const reference = fromJsonRowByRow(schema, options, records, asBytes);
  const decoder = compileJsonColumnDecoder(
    schema,
    resolveJsonParseOptions(options, 'from_json()'),
    projection,
  );
  const input: Column = { kind: 'values', length: records.length, values: records };
  if (reference.error !== undefined) {
    const error = reference.error as Error;
    expect(() => decoder.decode(input)).toThrow(error.constructor as new () => Error);
    expect(() => decoder.decode(input)).toThrow(error.message);
    return undefined;
  }
  const decoded = decoder.decode(input);
  const read = projection ?? schema.fields.map((f) => f.name);
  const expected = expectedColumn(schema, reference.outcomes, read);
  expect(decoded.column.length).toBe(records.length);
  for (let i = 0; i < records.length; i++) {
    expect({ row: i, value: valueAt(decoded.column, i) }).toEqual({
      row: i,
      value: valueAt(expected, i),
    });
  }
  if (expected.kind === 'struct') {
    expect(decoded.column.children.map((c) => c.kind)).toEqual(
      expected.children.map((c) => c.kind),
    );
  }
  const dropped = reference.outcomes.flatMap((o, i) => ('dropped' in o ? [i] : []));
  expect([...decoded.dropped]).toEqual(dropped);
  expect(decoded.malformedRecords).toBe(dropped.length);
  return decoded;
}

// ---- random schemas ----

const FIELD_NAMES = ['a', 'b', 'ts', 'x y', 'é', 'constructor', 'n\u00e9', 'k"q'];
const ATOMIC_TYPES: readonly DataType[] = [
  StringType,
  IntegerType,
  LongType,
  DoubleType,
  BooleanType,
  TimestampType,
  DateType,
  BinaryType,
];

function structOf(fieldType: fc.Arbitrary<DataType>, maxFields: number): fc.Arbitrary<StructType> {
  return fc
    .uniqueArray(fc.tuple(fc.constantFrom(...FIELD_NAMES), fieldType), {
      minLength: 1,
      maxLength: maxFields,
      selector: ([name]) => name,
    })
    .map((fields) => struct(fields.map(([name, t]) => field(name, t))));
}

const dataType: fc.Arbitrary<DataType> = fc.letrec<{ type: DataType }>((tie) => ({
  type: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 6, arbitrary: fc.constantFrom(...ATOMIC_TYPES) },
    { weight: 1, arbitrary: structOf(tie('type'), 3) },
    { weight: 1, arbitrary: tie('type').map((t) => ArrayOf(t)) },
    { weight: 1, arbitrary: tie('type').map((t) => MapOf(StringType, t)) },
  ),
})).type;

/** A top-level schema, sometimes with the corrupt-record column (under its default name or another). */
const schemaAndCorruptColumn: fc.Arbitrary<{ schema: StructType; corruptColumn?: string }> = fc
  .tuple(structOf(dataType, 5), fc.constantFrom(undefined, '_corrupt_record', 'bad'), fc.boolean())
  .map(([schema, corruptColumn, inSchema]) => {
    if (corruptColumn === undefined || !inSchema) return { schema, corruptColumn };
    return { schema: struct([...schema.fields, field(corruptColumn, StringType)]), corruptColumn };
  });

// ---- random JSON text ----

const whitespace = fc.constantFrom('', '', '', ' ', '\n', '\t', '\r\n', '  ');

/** Characters worth putting in strings: escapes, non-ASCII, surrogates, a byte order mark. */
const stringChar = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...'abcXYZ019 -_:./'.split('')) },
  { weight: 2, arbitrary: fc.constantFrom('"', '\\', '/', '\n', '\t', '\u0001', '\u007f') },
  { weight: 2, arbitrary: fc.constantFrom('é', '€', '😀', '\ufeff', '\ufffd', '\ud800', '\u00a0') },
);

/** A JSON string literal of `content`, with some characters written as \u escapes or `\/`. */
function stringLiteral(content: string): fc.Arbitrary<string> {
  return fc
    .array(fc.boolean(), { minLength: content.length, maxLength: content.length })
    .map((escape) => {
      let out = '"';
      for (let i = 0; i < content.length; i++) {
        const c = content[i];
        if (escape[i] && i % 3 === 0) out += `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
        else if (escape[i] && c === '/') out += '\\/';
        else out += JSON.stringify(c).slice(1, -1);
      }
      return `${out}"`;
    });
}

const randomString = fc.array(stringChar, { maxLength: 8 }).map((cs) => cs.join(''));
const jsonString = randomString.chain(stringLiteral);

/** Numbers of every form JSON has, and some beyond what a double or an int holds. */
const jsonNumber = fc.oneof(
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
  fc.constantFrom(
    '0',
    '-0',
    '1.0',
    '1e2',
    '1E+2',
    '1e-2',
    '-1.5E-3',
    '0.5',
    '2147483647',
    '2147483648',
    '-2147483648',
    '-2147483649',
    '9007199254740991',
    '9007199254740993',
    '123456789012345678',
    '1e400',
    '-1e400',
    '1.7976931348623157e308',
    '5e-324',
    '100000000000000000000',
    '0.1',
  ),
);

/** Any JSON value. */
const anyJson: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    jsonNumber,
    jsonString,
    fc.constantFrom('true', 'false', 'null'),
    fc.array(tie('value'), { maxLength: 3 }).map((xs) => `[${xs.join(',')}]`),
    fc
      .array(fc.tuple(jsonString, tie('value')), { maxLength: 3 })
      .map((kvs) => `{${kvs.map(([k, v]) => `${k}:${v}`).join(',')}}`),
  ),
})).value;

const timestampText = fc.oneof(
  fc
    .integer({ min: Date.UTC(1900, 0, 1), max: Date.UTC(2200, 0, 1) })
    .map((ms) => new Date(ms).toISOString()),
  fc
    .integer({ min: Date.UTC(1900, 0, 1), max: Date.UTC(2200, 0, 1) })
    .map((ms) => new Date(ms).toISOString().slice(0, 19)),
  fc.constantFrom(
    '2026-12-01T10:15:30Z',
    '2026-12-01T10:15:30.123456789Z',
    '2026-12-01 10:15:30+01:00',
    '2026-12-01T10:15-0530',
    '2026-12-01',
    '2026-1-1 1:2:3',
    ' 2026-12-01T10:15:30Z ',
    '2026-13-01T00:00:00Z',
    '2026-02-30',
    '2026-01-01T24:00:00Z',
    '2026-01-01T10:15:30Zx',
    'soon',
  ),
);

/** Text valid for `t`, or (when `strict` is false) sometimes text of another form the general reading takes or refuses. */
function validJson(t: DataType, strict: boolean): fc.Arbitrary<string> {
  switch (t.kind) {
    case 'string':
      return strict
        ? fc.oneof({ weight: 4, arbitrary: jsonString }, { weight: 1, arbitrary: anyJson })
        : anyJson;
    case 'int':
      return fc.oneof(
        fc.integer().map(String),
        fc.constantFrom('-0', '1.0', '1e2', '0', '-2147483648'),
      );
    case 'long':
      return fc.oneof(
        fc.maxSafeInteger().map(String),
        fc.constantFrom('1e15', '-9007199254740991', '2.0'),
      );
    case 'double': {
      const numeric = jsonNumber;
      if (strict) return numeric;
      return fc.oneof(
        numeric,
        fc.constantFrom('"NaN"', '"Infinity"', '"-INF"', 'NaN', '-Infinity', '"1.5"'),
      );
    }
    case 'boolean':
      return fc.constantFrom('true', 'false');
    case 'timestamp': {
      const valid = fc.oneof(
        timestampText
          .filter((s) => !/[x]|soon|13-|02-30|T24/.test(s))
          .map((s) => JSON.stringify(s)),
        fc.integer({ min: -2e9, max: 4e9 }).map(String),
      );
      return strict
        ? valid
        : fc.oneof(
            valid,
            timestampText.map((s) => JSON.stringify(s)),
            fc.constant('1.5'),
          );
    }
    case 'date': {
      const valid = fc.constantFrom(
        '"2026-01-01"',
        '"2026-1-1"',
        '"1999-12-31T23:59:59Z"',
        '"2024-02-29"',
      );
      return strict ? valid : fc.oneof(valid, fc.constantFrom('"2026-02-30"', '20000', '"x"'));
    }
    case 'binary': {
      const valid = fc
        .uint8Array({ maxLength: 6 })
        .map((b) => JSON.stringify(Buffer.from(b).toString('base64')));
      return strict ? valid : fc.oneof(valid, fc.constantFrom('"abc"', '"!!!!"'));
    }
    case 'interval':
    case 'null':
      return anyJson;
    case 'array':
      return fc
        .tuple(whitespace, fc.array(fieldValue(t.elementType, strict), { maxLength: 3 }))
        .map(([ws, xs]) => `[${ws}${xs.join(`${ws},`)}]`);
    case 'map':
      return fc
        .array(fc.tuple(jsonString, fieldValue(t.valueType, strict)), { maxLength: 3 })
        .map((kvs) => `{${kvs.map(([k, v]) => `${k}:${v}`).join(',')}}`);
    case 'struct':
      return objectJson(t, strict);
  }
}

/** Tokens that are nearly JSON values: numbers, words and strings JSON.parse refuses. */
const nearlyJson = fc.constantFrom(
  '01',
  '-01',
  '-',
  '1.',
  '.5',
  '1e',
  '1e+',
  '+1',
  '0x1F',
  '1.e5',
  'tRue',
  'nul',
  'falsey',
  '"\\x"',
  '"\\u12g4"',
  '"a\u0001b"',
  '"tab\there"',
  '"open',
);

/** A field's value: mostly valid, sometimes null, and (when not strict) sometimes any JSON at all or nearly JSON. */
function fieldValue(t: DataType, strict: boolean): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 8, arbitrary: validJson(t, strict) },
    { weight: 1, arbitrary: fc.constant('null') },
    { weight: strict ? 0 : 2, arbitrary: anyJson },
    { weight: strict ? 0 : 1, arbitrary: nearlyJson },
  );
}

/**
 * A JSON object for a struct: some of its fields in any order, keys it lacks, whitespace, and
 * (unless strict) repeated keys, where a value that does not fit may be followed by one that does.
 */
function objectJson(t: StructType, strict: boolean): fc.Arbitrary<string> {
  const names = new Set(t.fields.map((f) => f.name));
  const known = fc
    .constantFrom(...t.fields)
    .chain((f) =>
      fc.tuple(fc.constant(f.name), stringLiteral(f.name), fieldValue(f.dataType, strict)),
    );
  const unknown = fc
    .tuple(jsonString, anyJson)
    .filter(([k]) => !strict || !names.has(JSON.parse(k) as string))
    .map(([k, v]) => [JSON.parse(k) as string, k, v] as const);
  const member = fc.oneof({ weight: 4, arbitrary: known }, { weight: 1, arbitrary: unknown });
  const members = strict
    ? fc.uniqueArray(member, { maxLength: 6, selector: ([name]) => name })
    : fc.array(member, { maxLength: 6 });
  return fc
    .tuple(members, whitespace, whitespace)
    .map(
      ([ms, ws1, ws2]) =>
        `{${ws1}${ms.map(([, k, v]) => `${k}${ws2}:${ws1}${v}`).join(`${ws2},${ws1}`)}${ws2}}`,
    );
}

/** Text that is not quite a record: cut short, with garbage, comments, single quotes, a BOM, nested too deep. */
function malformed(record: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const at = (text: string, position: number): number => position % (text.length + 1);
  return fc.oneof(
    fc.tuple(record, fc.nat()).map(([r, p]) => r.slice(0, at(r, p))),
    fc
      .tuple(record, fc.nat(), fc.constantFrom(...'{}[],:"\'\\/x0eE+.-'.split('')))
      .map(([r, p, c]) => r.slice(0, at(r, p)) + c + r.slice(at(r, p))),
    fc.tuple(record, fc.nat()).map(([r, p]) => r.slice(0, at(r, p)) + r.slice(at(r, p) + 1)),
    fc
      .tuple(record, fc.nat(), fc.constantFrom('/* c */', '// c\n', '#c\n'))
      .map(([r, p, c]) => r.slice(0, at(r, p)) + c + r.slice(at(r, p))),
    record.map((r) => r.replace(/"/g, "'")),
    record.map((r) => `\ufeff${r}`),
    record.map((r) => `${r} x`),
    record.map((r) => `${r}\u00a0`),
    fc.constantFrom(
      '',
      '  ',
      '\n',
      'null',
      '1',
      '"s"',
      '[]',
      '[{}]',
      'tru',
      '{"a":NaN}',
      "{'a':'b'}",
    ),
    fc.constant(`{"a":${'['.repeat(1001)}${']'.repeat(1001)}}`),
  );
}

/** Bytes of a text, sometimes with a byte that is not UTF-8 or a byte order mark put in. */
function utf8Bytes(text: string): fc.Arbitrary<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  return fc.oneof(
    { weight: 6, arbitrary: fc.constant(bytes) },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.nat(), fc.constantFrom(0xff, 0xc3, 0x80, 0xe2)).map(([p, b]) => {
        const i = p % (bytes.length + 1);
        return Uint8Array.from([...bytes.slice(0, i), b, ...bytes.slice(i)]);
      }),
    },
    { weight: 1, arbitrary: fc.constant(Uint8Array.from([0xef, 0xbb, 0xbf, ...bytes])) },
  );
}

const parseOptions: fc.Arbitrary<JsonParseOptions> = fc.record({
  mode: fc.constantFrom<ParseMode>('PERMISSIVE', 'DROPMALFORMED', 'FAILFAST'),
  allowSingleQuotes: fc.boolean(),
  allowNonNumericNumbers: fc.boolean(),
});

/** A schema, options and a projection, with records of every kind for it. */
const decodingCase = schemaAndCorruptColumn.chain(({ schema, corruptColumn }) =>
  fc.record({
    schema: fc.constant(schema),
    options: parseOptions.map((o) =>
      corruptColumn === undefined ? o : { ...o, columnNameOfCorruptRecord: corruptColumn },
    ),
    projection: fc.option(fc.subarray(schema.fields.map((f) => f.name)), { nil: undefined }),
    records: fc.array(
      fc.oneof(
        { weight: 5, arbitrary: objectJson(schema, false) },
        { weight: 3, arbitrary: objectJson(schema, true) },
        { weight: 2, arbitrary: malformed(objectJson(schema, true)) },
        { weight: 1, arbitrary: fc.constant(null) },
      ),
      { minLength: 1, maxLength: 8 },
    ),
  }),
);

describe('the columnar JSON decoder', () => {
  it('gives what from_json gives row by row, on random schemas, records and malformed text, in every mode', () => {
    fc.assert(
      fc.property(decodingCase, ({ schema, options, projection, records }) => {
        checkAgainstFromJson(schema, options, records, projection, false);
      }),
      { numRuns: 600 },
    );
  });

  it('gives what from_json(cast(value as string)) gives on the UTF-8 bytes of the same records', () => {
    const withBytes = decodingCase.chain((c) =>
      fc.record({
        c: fc.constant(c),
        bytes: fc.tuple(...c.records.map((r) => (r === null ? fc.constant(null) : utf8Bytes(r)))),
      }),
    );
    fc.assert(
      fc.property(withBytes, ({ c, bytes }) => {
        checkAgainstFromJson(c.schema, c.options, bytes, c.projection, true);
      }),
      { numRuns: 600 },
    );
  });

  it('reads every standard record that fits its schema without JSON.parse of the record', () => {
    const fitting = structOf(dataType, 5).chain((schema) =>
      fc.record({
        schema: fc.constant(schema),
        records: fc.array(objectJson(schema, true), { minLength: 1, maxLength: 8 }),
      }),
    );
    fc.assert(
      fc.property(fitting, ({ schema, records }) => {
        const texts = records.filter((r) => standardAndFitting(schema, r));
        const bytes = texts.map((t) => new TextEncoder().encode(t));
        for (const [input, asBytes] of [
          [texts, false],
          [bytes, true],
        ] as const) {
          const decoded = checkAgainstFromJson(
            schema,
            { mode: 'FAILFAST' },
            input,
            undefined,
            asBytes,
          );
          expect(decoded?.generalRecords).toBe(0);
        }
      }),
      { numRuns: 400 },
    );
  });
});

/** True when from_json reads `text` without error under standard JSON: the records the fast path must take. */
function standardAndFitting(schema: StructType, text: string): boolean {
  const strict = {
    mode: 'FAILFAST',
    allowSingleQuotes: false,
    allowNonNumericNumbers: false,
  } as const;
  return (
    fromJsonRowByRow(schema, strict, [text], false).error === undefined &&
    !hasDoubleFromString(schema, text)
  );
}

/** Records giving a double field a string (`"NaN"`) fit, but are left to the general reading. */
function hasDoubleFromString(schema: StructType, text: string): boolean {
  return (
    JSON.stringify(schema).includes('"double"') &&
    /"(NaN|Infinity|-Infinity|\+Infinity|-INF|\+INF)"/.test(text)
  );
}

const CLICK = parseSchema('ts TIMESTAMP, category STRING, user STRING, page STRING');
const ALL = parseSchema(
  'i INT, l BIGINT, d DOUBLE, b BOOLEAN, t TIMESTAMP, dt DATE, s STRING, bin BINARY, arr ARRAY<INT>, m MAP<STRING, DOUBLE>, st STRUCT<x: INT, y: STRUCT<z: STRING>>',
);

describe('the fast path', () => {
  it.each([
    [
      'the canonical event',
      CLICK,
      '{"ts":"2026-01-01T10:03:12.345Z","category":"books","user":"u1","page":"/p/1"}',
    ],
    [
      'keys in another order, whitespace, keys the schema lacks',
      CLICK,
      ' {\n "page" : "/p/2",\t"extra":[1,{"q":null}], "ts":"2026-01-01 10:03:12+01:00" }\r\n',
    ],
    [
      'escapes in keys and strings',
      CLICK,
      '{"c\\u0061tegory":"b\\"ooks\\u00e9\\ud83d\\ude00","user":"\\/u"}',
    ],
    [
      'a repeated key, the last one winning',
      CLICK,
      '{"category":"a","category":"b","ts":null,"ts":1700000000}',
    ],
    [
      'every type',
      ALL,
      '{"i":-0,"l":1e15,"d":-1.5E-3,"b":true,"t":"2026-12-01","dt":"2026-12-01T10:00:00Z","s":{"k":[1, 2]},"bin":"aGk=","arr":[1,null],"m":{"2":1,"1":2.5},"st":{"x":1,"y":{"z":"é"}}}',
    ],
    [
      'numbers beyond the exact digits',
      ALL,
      '{"l":9007199254740991,"d":123456789012345678901234567890,"i":2147483647}',
    ],
    ['strings taking any value', ALL, '{"s":12.50}'],
  ])('takes %s', (_name, schema, text) => {
    for (const input of [text, new TextEncoder().encode(text)]) {
      const decoded = checkAgainstFromJson(
        schema,
        {},
        [input],
        undefined,
        typeof input !== 'string',
      );
      expect(decoded?.generalRecords).toBe(0);
    }
  });

  it.each([
    ['a value that does not fit', '{"ts":"later","category":"books"}'],
    ['a double given as text', '{"d":"NaN"}'],
    ['single quotes', "{'category':'books'}"],
    ['a bare NaN', '{"d":NaN}'],
    ['text that is not JSON', '{"category":"books"'],
    ['a null record', 'null'],
    ['blank text', '   '],
  ])('leaves %s to the general reading, with the same result', (_name, text) => {
    const schema = struct([...CLICK.fields, field('d', DoubleType)]);
    for (const mode of ['PERMISSIVE', 'DROPMALFORMED'] as const) {
      const decoded = checkAgainstFromJson(schema, { mode }, [text], undefined, false);
      expect(decoded?.generalRecords).toBe(1);
    }
  });

  it('decodes timestamps into a float64 column and strings into a dictionary', () => {
    const decoder = compileJsonColumnDecoder(CLICK, resolveJsonParseOptions({}, 'from_json()'), [
      'ts',
      'category',
    ]);
    const texts = [
      '{"ts":"2026-01-01T00:00:00Z","category":"books"}',
      '{"ts":"2026-01-01T00:00:01Z","category":"books"}',
    ];
    const { column } = decoder.decode({ kind: 'values', length: 2, values: texts });
    const [ts, category, user] = column.children;
    expect(ts.kind === 'float64' && [...ts.values]).toEqual([
      Date.UTC(2026, 0, 1) * 1000,
      Date.UTC(2026, 0, 1, 0, 0, 1) * 1000,
    ]);
    expect(category.kind === 'dictionary' && [[...category.indices], category.dictionary]).toEqual([
      [0, 0],
      ['books'],
    ]);
    expect([valueAt(user, 0), valueAt(user, 1)]).toEqual([null, null]);
  });

  it('checks the fields the query does not read, so a record is malformed as from_json finds it', () => {
    const schema = parseSchema('category STRING, n INT');
    const texts = ['{"category":"books","n":"many"}', '{"category":"toys","n":1}'];
    const decoded = checkAgainstFromJson(
      schema,
      { mode: 'DROPMALFORMED' },
      texts,
      ['category'],
      false,
    );
    expect([...(decoded?.dropped ?? [])]).toEqual([0]);
  });

  it('reads a dictionary column of texts as a values column', () => {
    const decoder = compileJsonColumnDecoder(CLICK, resolveJsonParseOptions({}, 'from_json()'));
    const input: Column = {
      kind: 'dictionary',
      length: 3,
      indices: Int32Array.from([0, 1, 0]),
      dictionary: ['{"category":"books"}', '{"category":"toys"}'],
      validity: Uint8Array.from([0b101]),
    };
    const { column } = decoder.decode(input);
    expect([0, 1, 2].map((i) => valueAt(column, i))).toEqual([
      [null, 'books', null, null],
      null,
      [null, 'books', null, null],
    ]);
  });

  it('refuses a projection naming a field the schema lacks, as an internal error', () => {
    expect(() =>
      compileJsonColumnDecoder(CLICK, resolveJsonParseOptions({}, 'from_json()'), ['nope']),
    ).toThrow(/Internal error: the projection of from_json\(\) names 'nope'/);
  });
});
