import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rowsToValuesBatch } from '../../../core/columnar/batch-rows.js';
import { Column } from '../../../core/api/column.js';
import {
  type Column as BatchColumn,
  type ColumnBatch,
  type StructColumn,
  valueAt,
} from '../../../core/columnar/column-batch.js';
import { columnBuilder, rowsToBatch } from '../../../core/columnar/column-builder.js';
import { AnalysisError } from '../../../core/errors.js';
import { bindExpression } from '../../../core/expr/binder.js';
import { DropRow } from '../../../core/expr/drop-row.js';
import type { BinaryOperator, Expression } from '../../../core/expr/expression.js';
import { kernelOf } from '../../../core/expr/kernels/generic-kernel.js';
import { KernelInput } from '../../../core/expr/kernels/kernel.js';
import { evaluateColumns } from '../../../core/expr/kernels/row-order-failure.js';
import type { BoundExpression } from '../../../core/expr/bound-expression.js';
import { schemaScope } from '../../../core/expr/scope.js';
import { builtinFunctions } from '../../../core/functions/builtin-functions.js';
import { coalesce, col, from_json, upper } from '../../../core/index.js';
import { type DataType, NullType, type StructType } from '../../../core/types/data-types.js';
import { parseSchema, parseTypeName } from '../../../core/types/type-names.js';
import type { Row } from '../../../core/types/row.js';

const SCHEMA = parseSchema(
  'i INT, l LONG, x DOUBLE, t TIMESTAMP, b BOOLEAN, s STRING, j STRING, st STRUCT<n: INT, m: STRING>',
);
const COLUMNS = [['i'], ['l'], ['x'], ['t'], ['b'], ['s'], ['j'], ['st'], ['st', 'n'], ['st', 'm']];
const MINUTE = 60_000_000;

/** Values of type `t` that reach the edges: overflow, NaN, -0, text that is and is not a number. */
function valueOf(t: DataType): fc.Arbitrary<unknown> {
  const value = ((): fc.Arbitrary<unknown> => {
    switch (t.kind) {
      case 'int':
        return fc.oneof(fc.integer({ min: -5, max: 5 }), fc.constantFrom(2 ** 31 - 1, -(2 ** 31)));
      case 'long':
        return fc.oneof(fc.integer({ min: -5, max: 5 }), fc.constantFrom(2 ** 53 - 1, -(2 ** 53)));
      case 'double':
        return fc.oneof(fc.double({ min: -10, max: 10 }), fc.constantFrom(NaN, -0, 1e300));
      case 'timestamp':
        return fc.integer({ min: 0, max: 120 }).map((m) => m * MINUTE + 7);
      case 'boolean':
        return fc.boolean();
      case 'string':
        return fc.constantFrom('a', '', ' 2.5', '7', 'true', '2024-01-01 10:00:00', '{"n": 3}');
      case 'struct':
        return fc.tuple(...t.fields.map((f) => valueOf(f.dataType)));
      default:
        throw new Error(`no generator for ${t.kind}`);
    }
  })();
  return fc.option(value, { nil: null, freq: 4 });
}

/** JSON text for from_json: valid, malformed, or of the wrong type. */
const jsonText = fc.option(
  fc.constantFrom(
    '{"n": 1, "m": "a"}',
    '{"n": 2}',
    '{"n": "x"}',
    '{',
    'null',
    '[1]',
    '{"n": 1e40}',
  ),
  { nil: null, freq: 5 },
);

const rows: fc.Arbitrary<Row[]> = fc.array(
  fc.tuple(...SCHEMA.fields.map((f) => (f.name === 'j' ? jsonText : valueOf(f.dataType)))),
  { maxLength: 40 },
);

/**
 * A batch of `rows` whose columns are each built one of three ways: typed (strings in a
 * dictionary), as engine values, or, for the struct, with junk field values in its null rows.
 */
function batchOf(rows: Row[], layouts: readonly number[]): ColumnBatch {
  const typed = rowsToBatch(SCHEMA, rows);
  const values = rowsToValuesBatch(SCHEMA, rows);
  const columns = SCHEMA.fields.map((f, c): BatchColumn => {
    const layout = layouts[c] % 3;
    if (layout === 0) return typed.columns[c];
    if (layout === 1 || f.dataType.kind !== 'struct') return values.columns[c];
    return junkUnderNulls(typed.columns[c] as StructColumn, f.dataType, rows, c);
  });
  return { schema: SCHEMA, numRows: rows.length, columns };
}

/** A struct column like `column` whose field columns hold values in the rows where it is null. */
function junkUnderNulls(column: StructColumn, t: StructType, rows: Row[], c: number): BatchColumn {
  const children = t.fields.map((f, k) => {
    const builder = columnBuilder(f.dataType, rows.length);
    for (const row of rows) {
      const value = row[c] as unknown[] | null;
      builder.append(value === null ? junk(f.dataType) : value[k]);
    }
    return builder.finish();
  });
  return { ...column, children };
}

function junk(t: DataType): unknown {
  return t.kind === 'string' ? 'junk' : 99;
}

const OPERATORS: BinaryOperator[] = [
  '+',
  '-',
  '*',
  '/',
  '%',
  '=',
  '!=',
  '<',
  '<=',
  '>',
  '>=',
  '<=>',
  'and',
  'or',
];
const CAST_TYPES = ['int', 'long', 'double', 'string', 'boolean', 'timestamp', 'date'];

/** Random expressions over SCHEMA; many do not type-check, and are left out when binding fails. */
const expressions: fc.Arbitrary<Expression> = fc.letrec<{ e: Expression }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(...COLUMNS).map((path): Expression => ({ kind: 'column', path })),
    fc
      .constantFrom<[unknown, string]>([1, 'int'], [0, 'int'], [2.5, 'double'], ['7', 'string'])
      .map(([value, t]): Expression => ({ kind: 'literal', value, dataType: parseTypeName(t) })),
    fc.constant<Expression>({ kind: 'literal', value: null, dataType: NullType }),
    fc
      .tuple(fc.constantFrom(...OPERATORS), tie('e'), tie('e'))
      .map(([op, left, right]): Expression => ({ kind: 'binary', op, left, right })),
    tie('e').map((child): Expression => ({ kind: 'not', child })),
    fc
      .tuple(tie('e'), fc.boolean())
      .map(([child, negated]): Expression => ({ kind: 'isNull', child, negated })),
    fc
      .tuple(tie('e'), fc.constantFrom(...CAST_TYPES))
      .map(([child, to]): Expression => ({ kind: 'cast', child, to: parseTypeName(to) })),
    fc
      .tuple(tie('e'), tie('e'))
      .map(([when, then]): Expression => ({ kind: 'caseWhen', branches: [{ when, then }] })),
    fc.tuple(tie('e'), tie('e')).map(([a, b]) => coalesce(new Column(a), new Column(b)).expr),
    tie('e').map((a) => upper(new Column(a)).expr),
    fc
      .constantFrom('PERMISSIVE', 'DROPMALFORMED', 'FAILFAST')
      .map((mode) => from_json(col('j'), 'n INT, m STRING', { mode }).expr),
    fc
      .tuple(fc.constantFrom('n', 'm'), fc.constantFrom('DROPMALFORMED', 'FAILFAST'))
      .map(
        ([field, mode]) => from_json(col('j'), 'n INT, m STRING', { mode }).getField(field).expr,
      ),
    fc.integer({ min: 1, max: 30 }).map((minutes): Expression => ({
      kind: 'window',
      timeColumn: { kind: 'column', path: ['t'] },
      durationMicros: minutes * MINUTE,
      slideMicros: minutes * MINUTE,
      startMicros: 0,
    })),
  ),
})).e;

/** What evaluating a select list over rows gives: the value lists of rows kept, drops, or a failure. */
type Outcome =
  | { readonly kept: unknown[][]; readonly dropped: Record<string, number> }
  | { readonly failed: string };

/** A failure as the test compares it: its class and message. */
function failureOf(e: unknown): string {
  return e instanceof Error ? `${e.constructor.name}: ${e.message}` : String(e);
}

function rowByRow(evaluators: readonly ((row: Row) => unknown)[], rows: readonly Row[]): Outcome {
  const kept: unknown[][] = [];
  const dropped: Record<string, number> = {};
  try {
    for (const row of rows) {
      try {
        kept.push(evaluators.map((e) => e(row) ?? null));
      } catch (e) {
        if (!(e instanceof DropRow)) throw e;
        dropped[e.reason] = (dropped[e.reason] ?? 0) + 1;
      }
    }
  } catch (e) {
    return { failed: failureOf(e) };
  }
  return { kept, dropped };
}

function byKernels(bound: readonly BoundExpression[], batch: ColumnBatch): Outcome {
  const input = new KernelInput(batch);
  let columns: BatchColumn[];
  try {
    columns = evaluateColumns(
      input,
      bound.map(kernelOf),
      bound.map((b) => b.eval),
    );
  } catch (e) {
    return { failed: failureOf(e) };
  }
  const kept: unknown[][] = [];
  for (let i = 0; i < batch.numRows; i++) {
    if (!input.isDropped(i)) kept.push(columns.map((c) => valueAt(c, i)));
  }
  return { kept, dropped: Object.fromEntries(input.dropReasons) };
}

describe('expression kernels', () => {
  it('compute what the row evaluator computes: values, nulls, dropped rows, and the first failure in row order', () => {
    let compared = 0;
    let withDrops = 0;
    let failures = 0;
    fc.assert(
      fc.property(
        rows,
        fc.array(fc.nat(), { minLength: SCHEMA.fields.length, maxLength: SCHEMA.fields.length }),
        fc.array(expressions, { minLength: 1, maxLength: 3 }),
        (input, layouts, exprs) => {
          let bound;
          try {
            bound = exprs.map((e) => bindExpression(e, schemaScope(SCHEMA, builtinFunctions)));
          } catch (e) {
            if (e instanceof AnalysisError) return;
            throw e;
          }
          compared++;
          const expected = rowByRow(
            bound.map((b) => b.eval),
            input,
          );
          const actual = byKernels(bound, batchOf(input, layouts));
          if ('failed' in expected) failures++;
          else if (Object.keys(expected.dropped).length > 0) withDrops++;
          expect(actual).toEqual(expected);
        },
      ),
      { numRuns: 3000 },
    );
    // the comparison is not vacuous: most cases bind, and some drop rows or fail
    expect(compared).toBeGreaterThan(1000);
    expect(withDrops).toBeGreaterThan(20);
    expect(failures).toBeGreaterThan(20);
  });
});
