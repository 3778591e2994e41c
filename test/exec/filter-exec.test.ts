import { describe, expect, it } from 'vitest';
import { rowsToValuesBatch } from '../../core/columnar/batch-rows.js';
import { batchToRows } from '../../core/columnar/column-batch.js';
import { rowsToBatch } from '../../core/columnar/column-builder.js';
import { FilterExec } from '../../core/exec/filter-exec.js';
import { col, SluiceSession } from '../../core/index.js';
import type { Filter } from '../../core/plan/logical-plan.js';
import { batchContext, batchesOperator, producedBatches } from './batch-operator.js';

const session = new SluiceSession();
const clock = { batchTimestampMicros: 0 };
const numbers = session.createDataFrame([], 'n INT, s STRING');
const positive = numbers.filter(col('n').gt(0)).plan as Filter;

describe('FilterExec on column batches', () => {
  it.each([
    ['typed', rowsToBatch],
    ['values', rowsToValuesBatch],
  ] as const)(
    'keeps the rows whose condition is true, not false or null, of %s columns',
    (_kind, make) => {
      const batch = make(positive.input.schema, [
        [1, 'a'],
        [-1, 'b'],
        [null, 'c'],
        [2, null],
      ]);
      const out = producedBatches(
        new FilterExec(positive, batchesOperator(batch), clock),
        batchContext(),
      );
      expect(out.flatMap(batchToRows)).toEqual([
        [1, 'a'],
        [2, null],
      ]);
    },
  );

  it('passes a batch whose rows all pass on as it is', () => {
    const batch = rowsToBatch(positive.input.schema, [
      [1, 'a'],
      [2, 'b'],
    ]);
    const [out] = producedBatches(
      new FilterExec(positive, batchesOperator(batch), clock),
      batchContext(),
    );
    expect(out).toBe(batch);
  });

  it('pushes no batch when no row passes', () => {
    const batch = rowsToBatch(positive.input.schema, [[-1, 'a']]);
    expect(
      producedBatches(new FilterExec(positive, batchesOperator(batch), clock), batchContext()),
    ).toEqual([]);
  });
});
