import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { batchToRows, columnKindOf, isValid } from '../../core/columnar/column-batch.js';
import {
  DictionaryBuilder,
  rowsToBatch,
  StructBuilder,
} from '../../core/columnar/column-builder.js';
import { parseSchema } from '../../core/types/type-names.js';
import type { DataType, StructType } from '../../core/types/data-types.js';
import type { Row } from '../../core/types/row.js';

const SCHEMA = parseSchema(
  'i INT, d DATE, l LONG, x DOUBLE, t TIMESTAMP, b BOOLEAN, s STRING, a ARRAY<INT>, st STRUCT<n: INT, m: STRING>',
);

/** Engine values of type `t`, null among them. */
function valueOf(t: DataType): fc.Arbitrary<unknown> {
  const value = ((): fc.Arbitrary<unknown> => {
    switch (t.kind) {
      case 'int':
      case 'date':
        return fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });
      case 'long':
      case 'timestamp':
        return fc.maxSafeInteger();
      case 'double':
        return fc.double({ noNaN: true });
      case 'boolean':
        return fc.boolean();
      case 'string':
        return fc.constantFrom('a', 'b', 'c', '', 'é', 'long string value');
      case 'array':
        return fc.array(fc.integer());
      case 'struct':
        return fc.tuple(...t.fields.map((f) => valueOf(f.dataType)));
      default:
        throw new Error(`no generator for ${t.kind}`);
    }
  })();
  return fc.option(value, { nil: null, freq: 4 });
}

function rowsOf(schema: StructType): fc.Arbitrary<Row[]> {
  return fc.array(fc.tuple(...schema.fields.map((f) => valueOf(f.dataType))), { maxLength: 70 });
}

describe('column batches', () => {
  it('give back exactly the rows they were built from, nulls included', () => {
    fc.assert(
      fc.property(rowsOf(SCHEMA), (rows) => {
        const batch = rowsToBatch(SCHEMA, rows);
        expect(batch.numRows).toBe(rows.length);
        expect(batch.columns.map((c) => c.length)).toEqual(SCHEMA.fields.map(() => rows.length));
        expect(batchToRows(batch)).toEqual(rows);
      }),
    );
  });

  it('hold each type in the column kind of its Arrow layout', () => {
    const batch = rowsToBatch(SCHEMA, [[1, 2, 3, 4.5, 6, true, 's', [1], [1, 'm']]]);
    expect(batch.columns.map((c) => c.kind)).toEqual(
      SCHEMA.fields.map((f) => columnKindOf(f.dataType)),
    );
    expect(batch.columns.map((c) => c.kind)).toEqual([
      'int32',
      'int32',
      'float64',
      'float64',
      'float64',
      'boolean',
      'dictionary',
      'values',
      'struct',
    ]);
  });

  it('have no validity bitmap when no row is null, and unset padding bits when one is', () => {
    const allValid = rowsToBatch(parseSchema('n INT'), [[1], [2], [3]]);
    expect(allValid.columns[0]).toMatchObject({ validity: null });
    const withNull = rowsToBatch(parseSchema('n INT'), [[1], [null], [3]]);
    const validity = (withNull.columns[0] as { validity: Uint8Array }).validity;
    expect(Array.from(validity)).toEqual([0b101]);
    expect([0, 1, 2].map((i) => isValid(validity, i))).toEqual([true, false, true]);
  });

  it('store each distinct string once in a dictionary column', () => {
    const builder = new DictionaryBuilder(2);
    for (const s of ['x', 'y', 'x', 'x', 'y']) builder.appendString(s);
    const column = builder.finish();
    expect(column.dictionary).toEqual(['x', 'y']);
    expect(Array.from(column.indices)).toEqual([0, 1, 0, 0, 1]);
  });

  it('refuse a struct whose field columns were filled to different lengths', () => {
    const builder = new StructBuilder(parseSchema('n INT, m INT'));
    builder.children[0].append(1);
    builder.appendValid();
    expect(() => builder.finish()).toThrow(/Internal error: a struct column of 1 rows/);
  });
});
