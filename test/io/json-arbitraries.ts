/**
 * Random JSON records for from_json's property tests: random schemas (with the corrupt-record
 * column or not), records that fit them, records that nearly do, malformed text, UTF-8 bytes with
 * bytes that are not UTF-8, and parse options in every mode.
 */
import fc from 'fast-check';
import type { JsonParseOptions, ParseMode } from '../../core/io/json-record.js';
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

export const FIELD_NAMES = ['a', 'b', 'ts', 'x y', 'é', 'constructor', 'n\u00e9', 'k"q'];
export const ATOMIC_TYPES: readonly DataType[] = [
  StringType,
  IntegerType,
  LongType,
  DoubleType,
  BooleanType,
  TimestampType,
  DateType,
  BinaryType,
];

export function structOf(
  fieldType: fc.Arbitrary<DataType>,
  maxFields: number,
): fc.Arbitrary<StructType> {
  return fc
    .uniqueArray(fc.tuple(fc.constantFrom(...FIELD_NAMES), fieldType), {
      minLength: 1,
      maxLength: maxFields,
      selector: ([name]) => name,
    })
    .map((fields) => struct(fields.map(([name, t]) => field(name, t))));
}

export const dataType: fc.Arbitrary<DataType> = fc.letrec<{ type: DataType }>((tie) => ({
  type: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 6, arbitrary: fc.constantFrom(...ATOMIC_TYPES) },
    { weight: 1, arbitrary: structOf(tie('type'), 3) },
    { weight: 1, arbitrary: tie('type').map((t) => ArrayOf(t)) },
    { weight: 1, arbitrary: tie('type').map((t) => MapOf(StringType, t)) },
  ),
})).type;

/** A top-level schema, sometimes with the corrupt-record column (under its default name or another). */
export const schemaAndCorruptColumn: fc.Arbitrary<{ schema: StructType; corruptColumn?: string }> =
  fc
    .tuple(
      structOf(dataType, 5),
      fc.constantFrom(undefined, '_corrupt_record', 'bad'),
      fc.boolean(),
    )
    .map(([schema, corruptColumn, inSchema]) => {
      if (corruptColumn === undefined || !inSchema) return { schema, corruptColumn };
      return {
        schema: struct([...schema.fields, field(corruptColumn, StringType)]),
        corruptColumn,
      };
    });

// ---- random JSON text ----

export const whitespace = fc.constantFrom('', '', '', ' ', '\n', '\t', '\r\n', '  ');

/** Characters worth putting in strings: escapes, non-ASCII, surrogates, a byte order mark. */
export const stringChar = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...'abcXYZ019 -_:./'.split('')) },
  { weight: 2, arbitrary: fc.constantFrom('"', '\\', '/', '\n', '\t', '\u0001', '\u007f') },
  { weight: 2, arbitrary: fc.constantFrom('é', '€', '😀', '\ufeff', '\ufffd', '\ud800', '\u00a0') },
);

/** A JSON string literal of `content`, with some characters written as \u escapes or `\/`. */
export function stringLiteral(content: string): fc.Arbitrary<string> {
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

export const randomString = fc.array(stringChar, { maxLength: 8 }).map((cs) => cs.join(''));
export const jsonString = randomString.chain(stringLiteral);

/** Numbers of every form JSON has, and some beyond what a double or an int holds. */
export const jsonNumber = fc.oneof(
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
export const anyJson: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
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

export const timestampText = fc.oneof(
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
export function validJson(t: DataType, strict: boolean): fc.Arbitrary<string> {
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
export const nearlyJson = fc.constantFrom(
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
export function fieldValue(t: DataType, strict: boolean): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 8, arbitrary: validJson(t, strict) },
    { weight: 1, arbitrary: fc.constant('null') },
    { weight: strict ? 0 : 2, arbitrary: anyJson },
    { weight: strict ? 0 : 1, arbitrary: nearlyJson },
  );
}

/**
 * A JSON object for a struct: some of its fields in any order or (as one producer writes them) in
 * the schema's, keys it lacks, whitespace, and (unless strict) repeated keys, where a value that
 * does not fit may be followed by one that does.
 */
export function objectJson(t: StructType, strict: boolean): fc.Arbitrary<string> {
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
  const order = t.fields.map((f) => f.name);
  const rank = (name: string) => (names.has(name) ? order.indexOf(name) : order.length);
  const inSchemaOrder = (ms: readonly (readonly [string, string, string])[]) =>
    [...ms].sort(([a], [b]) => rank(a) - rank(b));
  return fc.tuple(members, fc.boolean(), whitespace, whitespace).map(([ms, sorted, ws1, ws2]) => {
    const listed = sorted ? inSchemaOrder(ms) : ms;
    return `{${ws1}${listed.map(([, k, v]) => `${k}${ws2}:${ws1}${v}`).join(`${ws2},${ws1}`)}${ws2}}`;
  });
}

/**
 * A value of a record of a shape: mostly one that fits, as a producer writes them, else anything,
 * numbers of every form (at the edges of int and of exact integers) and other types' values.
 */
function shapedValue(t: DataType): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 10, arbitrary: validJson(t, true) },
    { weight: 1, arbitrary: fc.constant('null') },
    { weight: 2, arbitrary: fieldValue(t, false) },
    { weight: 1, arbitrary: jsonNumber },
    { weight: 1, arbitrary: fc.constantFrom(...ATOMIC_TYPES).chain((u) => validJson(u, true)) },
  );
}

/** One member of a record of a shape: its key as written, and its value's arbitrary. */
type ShapeMember = readonly [key: string, value: fc.Arbitrary<string>];

/**
 * Records of one producer, as the columnar decoder's learned shape (json-shape-decoder.ts) sees
 * them: a template (some of the schema's fields and keys it lacks, in one order, with one spacing)
 * whose values change from record to record (values that fit, nulls, values that do not fit,
 * nearly JSON), and among them records of other shapes: its keys in another order, a key repeated
 * (the last one winning), a key left out, other spacing, and malformed text.
 */
export function shapedRecords(t: StructType): fc.Arbitrary<(string | null)[]> {
  const names = new Set(t.fields.map((f) => f.name));
  const known = fc
    .constantFrom(...t.fields)
    .chain((f) =>
      fc.tuple(fc.constant(f.name), stringLiteral(f.name), fc.constant(shapedValue(f.dataType))),
    );
  const unknown = jsonString
    .filter((k) => !names.has(JSON.parse(k) as string))
    .map((k) => [JSON.parse(k) as string, k, anyJson] as const);
  const template = fc.tuple(
    fc.uniqueArray(fc.oneof({ weight: 4, arbitrary: known }, { weight: 1, arbitrary: unknown }), {
      minLength: 1,
      maxLength: 6,
      selector: ([name]) => name,
    }),
    whitespace,
    whitespace,
  );
  return template.chain(([members, ws1, ws2]) => {
    const shape: ShapeMember[] = members.map(([, key, value]) => [key, value]);
    const write = (ms: readonly ShapeMember[], a = ws1, b = ws2) =>
      fc
        .tuple(...ms.map(([, value]) => value))
        .map((vs) => `{${a}${ms.map(([k], i) => `${k}${b}:${a}${vs[i]}`).join(`${b},${a}`)}${b}}`);
    const same = write(shape);
    const reordered = fc
      .shuffledSubarray(shape, { minLength: shape.length, maxLength: shape.length })
      .chain((ms) => write(ms));
    const repeated = fc.tuple(fc.nat(), fc.nat()).chain(([from, to]) => {
      const ms = [...shape];
      ms.splice(to % (ms.length + 1), 0, shape[from % shape.length]);
      return write(ms);
    });
    const missing = fc.nat().chain((i) => write(shape.filter((_, k) => k !== i % shape.length)));
    const respaced = fc.tuple(whitespace, whitespace).chain(([a, b]) => write(shape, a, b));
    return fc.array(
      fc.oneof(
        { weight: 12, arbitrary: same },
        { weight: 2, arbitrary: reordered },
        { weight: 1, arbitrary: repeated },
        { weight: 1, arbitrary: missing },
        { weight: 1, arbitrary: respaced },
        { weight: 2, arbitrary: malformed(same) },
        { weight: 1, arbitrary: fc.constant(null) },
      ),
      { minLength: 10, maxLength: 40 },
    );
  });
}

/** Text that is not quite a record: cut short, with garbage, comments, single quotes, a BOM, nested too deep. */
export function malformed(record: fc.Arbitrary<string>): fc.Arbitrary<string> {
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
export function utf8Bytes(text: string): fc.Arbitrary<Uint8Array> {
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

export const parseOptions: fc.Arbitrary<JsonParseOptions> = fc.record({
  mode: fc.constantFrom<ParseMode>('PERMISSIVE', 'DROPMALFORMED', 'FAILFAST'),
  allowSingleQuotes: fc.boolean(),
  allowNonNumericNumbers: fc.boolean(),
});

/** A schema, options and a projection, with records of one shape mostly, cut into batches decoded one after the other. */
export const shapedCase = schemaAndCorruptColumn.chain(({ schema, corruptColumn }) =>
  fc.record({
    schema: fc.constant(schema),
    options: parseOptions.map((o) =>
      corruptColumn === undefined ? o : { ...o, columnNameOfCorruptRecord: corruptColumn },
    ),
    projection: fc.option(fc.subarray(schema.fields.map((f) => f.name)), { nil: undefined }),
    records: shapedRecords(schema),
    batchSize: fc.integer({ min: 1, max: 40 }),
  }),
);

/** A schema, options and a projection, with records of every kind for it. */
export const decodingCase = schemaAndCorruptColumn.chain(({ schema, corruptColumn }) =>
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
