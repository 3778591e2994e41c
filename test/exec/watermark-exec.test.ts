import { describe, expect, it } from 'vitest';
import { rowsToValuesBatch } from '../../core/columnar/batch-rows.js';
import { rowsToBatch } from '../../core/columnar/column-builder.js';
import type { ExecutionContext } from '../../core/exec/execution-context.js';
import { WatermarkExec } from '../../core/exec/watermark-exec.js';
import { parseSchema } from '../../core/types/type-names.js';
import { batchesOperator, producedBatches } from './batch-operator.js';

const schema = parseSchema('k STRING, t TIMESTAMP');

function streamingContext(eventTimeMax: Map<number, number>): ExecutionContext {
  return {
    inputs: new Map(),
    counters: {},
    streaming: {
      batchId: 0,
      watermarkMicros: () => undefined,
      lateRowsWatermarkMicros: () => undefined,
      outputMode: 'append',
      stateStore: () => {
        throw new Error('a watermark has no state');
      },
      operatorCounters: () => {
        throw new Error('a watermark is not a stateful operator');
      },
      eventTimeMax,
    },
  };
}

describe('WatermarkExec on column batches', () => {
  it.each([
    ['typed', rowsToBatch],
    ['values', rowsToValuesBatch],
  ] as const)(
    'records the max event time over every batch of %s columns, nulls ignored, and passes them on',
    (_kind, make) => {
      const first = make(schema, [
        ['a', 30],
        ['b', null],
      ]);
      const second = make(schema, [
        ['c', 50],
        ['d', 40],
      ]);
      const eventTimeMax = new Map<number, number>();
      const op = new WatermarkExec(3, 10, 1, batchesOperator(first, second));
      expect(producedBatches(op, streamingContext(eventTimeMax))).toEqual([first, second]);
      expect(eventTimeMax).toEqual(new Map([[3, 50]]));
    },
  );

  it('keeps the max of earlier batches when a batch has only null times', () => {
    const eventTimeMax = new Map([[0, 70]]);
    const op = new WatermarkExec(0, 10, 1, batchesOperator(rowsToBatch(schema, [['a', null]])));
    producedBatches(op, streamingContext(eventTimeMax));
    expect(eventTimeMax).toEqual(new Map([[0, 70]]));
  });
});
