import { describe, expect, it } from 'vitest';
import { columnKindOf, valueAt } from '../../core/columnar/column-batch.js';
import { nullColumn } from '../../core/columnar/null-column.js';
import { parseSchema } from '../../core/types/type-names.js';

const schema = parseSchema(
  'i INT, l BIGINT, b BOOLEAN, s STRING, t TIMESTAMP, st STRUCT<x: INT>, a ARRAY<INT>',
);

describe('nullColumn', () => {
  it.each(schema.fields.map((f) => [f.name, f.dataType] as const))(
    'gives a column of nulls for %s, of the kind its type is built as',
    (_name, type) => {
      const column = nullColumn(type, 10);
      expect(column.kind).toBe(columnKindOf(type));
      expect(column.length).toBe(10);
      expect(Array.from({ length: 10 }, (_, i) => valueAt(column, i))).toEqual(
        new Array(10).fill(null),
      );
    },
  );

  it('gives a struct column whose fields are null columns of their own types', () => {
    const column = nullColumn(schema, 3);
    expect(column.kind === 'struct' && column.children.map((c) => [c.kind, c.length])).toEqual(
      schema.fields.map((f) => [columnKindOf(f.dataType), 3]),
    );
  });
});
