/**
 * The repartition stage's row encoding: every engine type round-trips, nulls included, at any
 * nesting, one row alone or many in a page; bad input fails with a RowEncodingError naming the
 * column.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeRow,
  decodeRowPage,
  encodeRow,
  RowEncodingError,
  ReusedRowEncoder,
  RowPageEncoder,
} from '../../core/io/row-binary-codec.js';
import {
  ArrayOf,
  type DataType,
  field,
  LongType,
  MapOf,
  StringType,
  struct,
  type StructType,
  TimestampType,
} from '../../core/types/data-types.js';
import type { Row } from '../../core/types/row.js';

const ATOMIC_KINDS = [
  'string',
  'boolean',
  'int',
  'long',
  'double',
  'timestamp',
  'date',
  'binary',
  'interval',
  'null',
] as const;

/** Any data type, nested up to a few levels. */
const dataType: fc.Arbitrary<DataType> = fc.letrec<{ type: DataType; struct: StructType }>(
  (tie) => ({
    type: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constantFrom(...ATOMIC_KINDS).map((kind) => ({ kind }) as DataType),
      tie('type').map((t) => ArrayOf(t)),
      fc
        .tuple(fc.constantFrom('string', 'int', 'long'), tie('type'))
        .map(([k, v]) => MapOf({ kind: k } as DataType, v)),
      tie('struct'),
    ),
    struct: fc
      // past 8 fields a struct's null bitmap takes a second byte
      .array(tie('type'), { minLength: 0, maxLength: 10 })
      .map((types) => struct(types.map((t, i) => field(`f${i}`, t)))),
  }),
).type;

const safeInteger = fc.oneof(
  fc.integer(),
  fc.maxSafeInteger(),
  fc.constant(Number.MIN_SAFE_INTEGER),
);

/** A non-null value of `type`, as the engine holds it. */
function value(type: DataType): fc.Arbitrary<unknown> {
  switch (type.kind) {
    case 'string':
      return fc.string({ unit: 'grapheme' });
    case 'boolean':
      return fc.boolean();
    case 'int':
      return fc.integer();
    case 'long':
    case 'timestamp':
    case 'date':
      return safeInteger;
    case 'double':
      return fc.double();
    case 'binary':
      return fc.uint8Array();
    case 'interval':
      return fc.record({ months: fc.integer(), days: fc.integer(), micros: safeInteger });
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(nullable(type.elementType), { maxLength: 10 });
    case 'map':
      return fc
        .uniqueArray(fc.tuple(value(type.keyType), nullable(type.valueType)), {
          selector: ([k]) => k,
          maxLength: 5,
        })
        .map((entries) => new Map(entries));
    case 'struct':
      return rowOf(type);
  }
}

function nullable(type: DataType): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 3, arbitrary: value(type) },
  );
}

function rowOf(schema: StructType): fc.Arbitrary<Row> {
  return fc.tuple(...schema.fields.map((f) => nullable(f.dataType))) as fc.Arbitrary<Row>;
}

const schemaAndRow = dataType
  .map((t) => (t.kind === 'struct' ? t : struct([field('only', t)])))
  .chain((schema) => rowOf(schema).map((row) => ({ schema, row })));

describe('the row encoding of the repartition stage', () => {
  it('round-trips every row of every schema, nulls, structs, maps and -0 included', () => {
    fc.assert(
      fc.property(schemaAndRow, ({ schema, row }) => {
        expect(decodeRow(encodeRow(row, schema), schema)).toEqual(row);
      }),
      { numRuns: 500 },
    );
  });

  it('keeps a timestamp to the microsecond, far past and future included', () => {
    const schema = struct([field('ts', TimestampType)]);
    for (const micros of [1_764_590_400_123_457, -6_000_000_000_000_001, 0, 1]) {
      expect(decodeRow(encodeRow([micros], schema), schema)).toEqual([micros]);
    }
  });

  it('takes less than half the bytes of the click as JSON as to_json writes it', () => {
    const schema = struct([field('ts', TimestampType), field('category', StringType)]);
    const row = [1_764_590_400_123_457, 'books'];
    expect(encodeRow(row, schema).length).toBeLessThan(
      JSON.stringify({ ts: '2025-12-01T12:00:00.123457Z', category: 'books' }).length / 2,
    );
  });

  it('refuses a long that is no safe integer, naming the column', () => {
    const schema = struct([field('n', LongType)]);
    expect(() => encodeRow([2 ** 60], schema)).toThrow(RowEncodingError);
    expect(() => encodeRow([1.5], schema)).toThrow(/row\.n holds 1\.5/);
  });

  it('names the nested field, map key or map value that does not fit', () => {
    const inner = struct([field('n', LongType)]);
    expect(() => encodeRow([[1.5]], struct([field('s', inner)]))).toThrow(/row\.s\.n holds 1\.5/);
    const counts = struct([field('m', MapOf(StringType, LongType))]);
    expect(() => encodeRow([new Map([['a', 0.5]])], counts)).toThrow(/row\.m value holds 0\.5/);
    const byId = struct([field('m', MapOf(LongType, StringType))]);
    expect(() => encodeRow([new Map([[2.5, 'x']])], byId)).toThrow(/row\.m key holds 2\.5/);
  });

  it('refuses bytes of another schema, or of another format version', () => {
    const written = encodeRow(['a', 'b'], struct([field('x', StringType), field('y', StringType)]));
    expect(() => decodeRow(written, struct([field('x', StringType)]))).toThrow(/bytes after/);
    expect(() =>
      decodeRow(written.subarray(0, 3), struct([field('x', StringType), field('y', StringType)])),
    ).toThrow(/ends after 3 bytes/);
    expect(() => decodeRow(new Uint8Array([9, 0]), struct([]))).toThrow(/format version 9/);
  });

  it('writes a string as its UTF-8 length and bytes, at every length', () => {
    const schema = struct([field('s', StringType)]);
    const varintBytes = (n: number) => (n < 64 ? 1 : n < 64 * 128 ? 2 : 3);
    for (const unit of ['a', 'é', '€', '😀']) {
      for (const n of [0, 1, 21, 22, 63, 64, 2730, 2731, 4095, 4096, 8191, 8192, 9000]) {
        const s = unit.repeat(Math.ceil(n / unit.length));
        const utf8 = new TextEncoder().encode(s).length;
        const encoded = encodeRow([s], schema);
        expect(decodeRow(encoded, schema)).toEqual([s]);
        // the version byte, the null bitmap, the length, the bytes
        expect(encoded.length).toBe(2 + varintBytes(utf8) + utf8);
      }
    }
  });

  it('gives back the rows of a page in order, each in the bytes it takes alone', () => {
    const schemaAndRows = dataType
      .map((t) => (t.kind === 'struct' ? t : struct([field('only', t)])))
      .chain((schema) =>
        fc.array(rowOf(schema), { maxLength: 20 }).map((rows) => ({ schema, rows })),
      );
    fc.assert(
      fc.property(schemaAndRows, ({ schema, rows }) => {
        const page = new RowPageEncoder(schema);
        for (const row of rows) page.add(row);
        const bytes = page.finish();
        expect(page.rowCount).toBe(rows.length);
        expect(bytes.length).toBe(page.byteLength);
        expect(decodeRowPage(bytes, schema)).toEqual(rows);
        // one version byte and the row count for the page, where each row alone has its version byte
        const alone = rows.reduce((n, row) => n + encodeRow(row, schema).length, 0);
        expect(bytes.length).toBe(1 + 4 + alone - rows.length);
      }),
      { numRuns: 300 },
    );
  });

  it('gives back repeated strings of a page exactly, also ones that differ only inside', () => {
    const schema = struct([
      field('category', StringType),
      field('s', struct([field('t', StringType)])),
    ]);
    // equal in length and in first, middle and last character: the same slot of a string cache
    const values = ['aXbYc', 'aZbWc', 'aXbYc', 'café', 'cafe', '', 'x'.repeat(80), 'aZbWc'];
    const rows = values.map((v, i) => [v, [values[values.length - 1 - i]]]);
    const page = new RowPageEncoder(schema);
    for (let round = 0; round < 3; round++) for (const row of rows) page.add(row);
    expect(decodeRowPage(page.finish(), schema)).toEqual([...rows, ...rows, ...rows]);
  });

  it('refuses a page cut inside a row, or of another format version', () => {
    const schema = struct([field('x', StringType)]);
    const page = new RowPageEncoder(schema);
    page.add(['first']);
    page.add(['second']);
    const bytes = page.finish();
    expect(() => decodeRowPage(bytes.subarray(0, bytes.length - 2), schema)).toThrow(
      RowEncodingError,
    );
    expect(() => decodeRowPage(new Uint8Array([2, 0]), schema)).toThrow(/format version 2/);
    expect(() => decodeRowPage(Uint8Array.of(...bytes, 0), schema)).toThrow(/1 bytes after/);
  });

  it('encodes each row as encodeRow does when it reuses one buffer, longer rows before shorter', () => {
    const schemaAndRows = dataType
      .map((t) => (t.kind === 'struct' ? t : struct([field('only', t)])))
      .chain((schema) =>
        fc.array(rowOf(schema), { minLength: 1, maxLength: 10 }).map((rows) => ({ schema, rows })),
      );
    fc.assert(
      fc.property(schemaAndRows, ({ schema, rows }) => {
        const reused = new ReusedRowEncoder(schema);
        for (const row of rows) {
          expect([...reused.encode(row)]).toEqual([...encodeRow(row, schema)]);
        }
      }),
      { numRuns: 300 },
    );
  });
});
