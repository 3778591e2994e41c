/**
 * The columnar from_json kernel against the row kernel (the row evaluator over each row), on random
 * schemas, valid and malformed JSON, in every mode, over text and over the UTF-8 bytes of
 * `cast(value as string)`, with and without pruning: the same values, the same rows dropped and
 * counted, the same FAILFAST error; and a query through the planner gives what from_json gives row
 * by row.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Column } from '../../../core/api/column.js';
import { from_json } from '../../../core/api/json-functions.js';
import { col } from '../../../core/api/functions.js';
import { type ColumnBatch, valueAt } from '../../../core/columnar/column-batch.js';
import { executeBatch } from '../../../core/exec/batch-execution.js';
import { bindExpression } from '../../../core/expr/binder.js';
import { DropRow } from '../../../core/expr/drop-row.js';
import type { Expression } from '../../../core/expr/expression.js';
import { genericKernel } from '../../../core/expr/kernels/generic-kernel.js';
import { type Kernel, KernelInput } from '../../../core/expr/kernels/kernel.js';
import { schemaScope } from '../../../core/expr/scope.js';
import { builtinFunctions } from '../../../core/functions/builtin-functions.js';
import type { JsonParseOptions } from '../../../core/io/json-record.js';
import { SluiceSession } from '../../../core/index.js';
import {
  BinaryType,
  field,
  StringType,
  struct,
  type StructType,
} from '../../../core/types/data-types.js';
import type { Row } from '../../../core/types/row.js';
import { decodingCase, utf8Bytes } from '../../io/json-arbitraries.js';

type JsonRecord = string | Uint8Array | null;

/** from_json over `value` (text, or bytes through a cast), told to read `readFields` when given. */
function fromJsonCall(
  schema: StructType,
  options: JsonParseOptions,
  asBytes: boolean,
  readFields: readonly string[] | undefined,
): Expression {
  const value = asBytes ? col('value').cast('string') : col('value');
  const call = from_json(value, schema, options).expr;
  if (call.kind !== 'call') throw new Error('from_json() is a call');
  return readFields === undefined ? call : { ...call, options: { ...call.options, readFields } };
}

function inputSchema(asBytes: boolean): StructType {
  return struct([field('value', asBytes ? BinaryType : StringType)]);
}

/** What a kernel did with a batch: its values at the rows it evaluated, the rows dropped, or its error. */
type KernelRun =
  | { readonly values: unknown[]; readonly dropped: number[]; readonly reasons: [string, number][] }
  | { readonly error: string };

function runKernel(
  kernel: Kernel,
  batch: ColumnBatch,
  active: Uint8Array | null,
  droppedBefore: readonly number[],
  keep: (value: unknown) => unknown,
): KernelRun {
  const input = new KernelInput(batch);
  for (const i of droppedBefore) input.drop(i, 'earlier');
  let column;
  try {
    column = kernel(input, active);
  } catch (e) {
    return { error: `${(e as Error).constructor.name}: ${(e as Error).message}` };
  }
  const values: unknown[] = [];
  const dropped: number[] = [];
  for (let i = 0; i < batch.numRows; i++) {
    if (input.isDropped(i)) dropped.push(i);
    else if (active === null || active[i] === 1) values.push([i, keep(valueAt(column, i))]);
  }
  return { values, dropped, reasons: [...input.dropReasons] };
}

/** A case of the kernel test: records as text or bytes, rows selected and rows an earlier kernel dropped. */
const kernelCase = fc.boolean().chain((asBytes) =>
  decodingCase.chain((c) =>
    fc.record({
      c: fc.constant(c),
      asBytes: fc.constant(asBytes),
      records: fc.tuple(
        ...c.records.map((r): fc.Arbitrary<JsonRecord> =>
          r === null ? fc.constant(null) : asBytes ? utf8Bytes(r) : fc.constant(r),
        ),
      ),
      active: fc.option(
        fc.array(fc.boolean(), { minLength: c.records.length, maxLength: c.records.length }),
        { nil: undefined },
      ),
      droppedBefore: fc.subarray(c.records.map((_, i) => i)),
    }),
  ),
);

describe('the columnar from_json kernel', () => {
  it('gives the row kernel’s values, drops and errors on the rows it is asked to evaluate', () => {
    fc.assert(
      fc.property(kernelCase, ({ c, asBytes, records, active, droppedBefore }) => {
        const expression = fromJsonCall(c.schema, c.options, asBytes, c.projection);
        const scope = schemaScope(inputSchema(asBytes), builtinFunctions);
        const bound = bindExpression(expression, scope);
        expect(bound.kernel).toBeDefined();
        const batch: ColumnBatch = {
          schema: inputSchema(asBytes),
          numRows: records.length,
          columns: [{ kind: 'values', length: records.length, values: records }],
        };
        const selection = active === undefined ? null : Uint8Array.from(active, (a) => (a ? 1 : 0));
        const read = c.projection ?? c.schema.fields.map((f) => f.name);
        // the row kernel builds every field; the query reads only those it was told of
        const keep = (v: unknown) =>
          v === null
            ? null
            : c.schema.fields.map((f, i) => (read.includes(f.name) ? (v as Row)[i] : null));
        const columnar = runKernel(bound.kernel!, batch, selection, droppedBefore, keep);
        const rows = runKernel(genericKernel(bound.eval), batch, selection, droppedBefore, keep);
        expect(columnar).toEqual(rows);
      }),
      { numRuns: 500 },
    );
  });
});

/** A case of the query test: the kernel case's records, and what the query selects of the struct. */
const queryCase = kernelCase.map(({ c, asBytes, records }) => ({ c, asBytes, records }));

/** from_json's result row by row, then the selected fields: the rows of the query, or its error. */
function rowByRow(
  expression: Expression,
  asBytes: boolean,
  records: readonly JsonRecord[],
  selected: (value: Row | null) => Row,
): { rows: Row[] } | { error: string } {
  const bound = bindExpression(expression, schemaScope(inputSchema(asBytes), builtinFunctions));
  const rows: Row[] = [];
  for (const record of records) {
    try {
      rows.push(selected(bound.eval([record]) as Row | null));
    } catch (e) {
      if (e instanceof DropRow) continue;
      return { error: `${(e as Error).constructor.name}: ${(e as Error).message}` };
    }
  }
  return { rows };
}

describe('a query with from_json', () => {
  it('gives what from_json gives row by row, selecting the whole struct or some of its fields', async () => {
    await fc.assert(
      fc.asyncProperty(queryCase, async ({ c, asBytes, records }) => {
        const session = new SluiceSession();
        const input = session.createDataFrame(
          records.map((value) => ({ value })),
          inputSchema(asBytes),
        );
        const call = fromJsonCall(c.schema, c.options, asBytes, undefined);
        const parsed = input.select(new Column({ kind: 'alias', name: 'e', child: call }));
        const names = c.projection;
        const query =
          names === undefined
            ? parsed.select('e')
            : parsed.select(
                ...names.map(
                  (n, i) =>
                    new Column({
                      kind: 'alias',
                      name: `f${i}`,
                      child: { kind: 'column', path: ['e', n] },
                    }),
                ),
              );
        const selected = (value: Row | null): Row =>
          names === undefined
            ? [value]
            : names.map((n) =>
                value === null ? null : value[c.schema.fields.findIndex((f) => f.name === n)],
              );
        const expected = rowByRow(call, asBytes, records, selected);
        let actual: { rows: Row[] } | { error: string };
        try {
          actual = { rows: await executeBatch(query.plan) };
        } catch (e) {
          actual = { error: `${(e as Error).constructor.name}: ${(e as Error).message}` };
        }
        expect(actual).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});
