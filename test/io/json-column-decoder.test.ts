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
  type JsonColumnDecoder,
} from '../../core/io/json-column-decoder.js';
import {
  asNullable,
  type JsonParseOptions,
  resolveJsonParseOptions,
} from '../../core/io/json-record.js';
import {
  BinaryType,
  DoubleType,
  field,
  StringType,
  struct,
  type StructType,
} from '../../core/types/data-types.js';
import { parseSchema } from '../../core/types/type-names.js';
import { bind } from '../expr/evaluate.js';
import {
  dataType,
  decodingCase,
  objectJson,
  shapedCase,
  structOf,
  utf8Bytes,
} from './json-arbitraries.js';

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

/**
 * Decodes `records` both ways and checks the decoder against from_json row by row; returns the
 * decoded column (undefined when from_json fails). `decoder` is a decoder of the same arguments
 * that has decoded other columns already (a new one when it is omitted).
 */
function checkAgainstFromJson(
  schema: StructType,
  options: JsonParseOptions,
  records: readonly (string | Uint8Array | null)[],
  projection: readonly string[] | undefined,
  asBytes: boolean,
  decoder: JsonColumnDecoder = compileJsonColumnDecoder(
    schema,
    resolveJsonParseOptions(options, 'from_json()'),
    projection,
  ),
): DecodedJsonColumn | undefined {
  const reference = fromJsonRowByRow(schema, options, records, asBytes);
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

  it('gives what from_json gives on records mostly of one shape, of other key orders, repeated keys and malformed, batch after batch', () => {
    const withBytes = shapedCase.chain((c) =>
      fc.record({
        c: fc.constant(c),
        asBytes: fc.boolean(),
        bytes: fc.tuple(...c.records.map((r) => (r === null ? fc.constant(null) : utf8Bytes(r)))),
      }),
    );
    let shapeRecords = 0;
    fc.assert(
      fc.property(withBytes, ({ c, asBytes, bytes }) => {
        const records = asBytes ? bytes : c.records;
        const decoder = compileJsonColumnDecoder(
          c.schema,
          resolveJsonParseOptions(c.options, 'from_json()'),
          c.projection,
        );
        for (let from = 0; from < records.length; from += c.batchSize) {
          const batch = records.slice(from, from + c.batchSize);
          const decoded = checkAgainstFromJson(
            c.schema,
            c.options,
            batch,
            c.projection,
            asBytes,
            decoder,
          );
          // a query stops at its first failing batch
          if (decoded === undefined) break;
          shapeRecords += decoded.shapeRecords;
        }
      }),
      { numRuns: 500 },
    );
    // the property is about the shape decoder: it must have read records, not left them all
    expect(shapeRecords).toBeGreaterThan(1000);
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
    ['characters beyond ASCII', '{"category":"café €","user":"ü","ts":"2026-01-01T10:03:12.345Z"}'],
    ['a surrogate pair', '{"category":"\ud83d\ude00 books","page":"/p/\ud83d\ude00"}'],
    ['a lone surrogate', '{"category":"a\ud800","user":"\udc00b","ts":null}'],
  ])(
    'reads a string record with %s exactly, whether through its UTF-8 bytes or not',
    (_name, text) => {
      for (const projection of [undefined, ['category']]) {
        checkAgainstFromJson(CLICK, {}, [text, text], projection, false);
      }
    },
  );

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

  it('learns the shape of the first record and reads the records of that shape by it, across batches', () => {
    const decoder = compileJsonColumnDecoder(CLICK, resolveJsonParseOptions({}, 'from_json()'), [
      'ts',
      'category',
    ]);
    const events = [0, 1, 2, 3].map(
      (i) =>
        `{"ts":"2026-01-01T00:00:0${i}.000Z","category":"c${i % 2}","user":"u${i}","page":"/p"}`,
    );
    for (const input of [events, events.map((e) => new TextEncoder().encode(e))]) {
      const asBytes = input !== events;
      const first = checkAgainstFromJson(CLICK, {}, input, ['ts', 'category'], asBytes, decoder);
      const second = checkAgainstFromJson(CLICK, {}, input, ['ts', 'category'], asBytes, decoder);
      expect([first?.shapeRecords, second?.shapeRecords]).toEqual([input === events ? 3 : 4, 4]);
    }
  });

  it("reads records whose keys come in another order than the first record's without the shape, exactly", () => {
    const texts = [
      '{"ts":"2026-01-01T00:00:00Z","category":"a","user":"u"}',
      '{"category":"b","ts":"2026-01-01T00:00:01Z","user":"u"}',
      '{"ts":"2026-01-01T00:00:02Z","category":"c","user":"u","category":"d"}',
      '{"ts":"2026-01-01T00:00:03Z", "category":"e","user":"u"}',
      '{"ts":"2026-01-01T00:00:04Z","category":"f","user":"u"}',
    ];
    const decoded = checkAgainstFromJson(CLICK, { mode: 'FAILFAST' }, texts, undefined, false);
    expect([decoded?.shapeRecords, decoded?.generalRecords]).toEqual([1, 0]);
    expect(valueAt(decoded!.column, 2)).toEqual([
      Date.UTC(2026, 0, 1, 0, 0, 2) * 1000,
      'd',
      'u',
      null,
    ]);
  });

  it('learns a new shape once records of the old one stop coming', () => {
    const decoder = compileJsonColumnDecoder(CLICK, resolveJsonParseOptions({}, 'from_json()'));
    const ordered = (i: number) => `{"category":"c${i}","user":"u"}`;
    const reordered = (i: number) => `{"user":"u","category":"c${i}"}`;
    const texts = [ordered(0), ...Array.from({ length: 40 }, (_, i) => reordered(i))];
    const decoded = checkAgainstFromJson(CLICK, {}, texts, undefined, false, decoder);
    // the 16th record of the new order, the 16th miss in a row, teaches the shape that reads the other 24
    expect(decoded?.shapeRecords).toBe(24);
  });

  it('refuses a projection naming a field the schema lacks, as an internal error', () => {
    expect(() =>
      compileJsonColumnDecoder(CLICK, resolveJsonParseOptions({}, 'from_json()'), ['nope']),
    ).toThrow(/Internal error: the projection of from_json\(\) names 'nope'/);
  });
});
