/**
 * Watermark: passes batches through and, in a stream, records the max event time of the batch, from
 * which the runner derives the next watermark (max event time - delay). In a batch query it does nothing.
 */
import type { Column } from '../columnar/column-batch.js';
import { readerOf } from '../columnar/column-reader.js';
import type { ExecutionContext } from './execution-context.js';
import type { BatchConsumer, PhysicalOperator } from './physical-operator.js';

/** Runs a Watermark node. */
export class WatermarkExec implements PhysicalOperator {
  constructor(
    /** Stable id of this watermark among the query's watermarks (its position in plan order). */
    readonly watermarkId: number,
    readonly delayMicros: number,
    private readonly columnIndex: number,
    private readonly input: PhysicalOperator,
  ) {}

  produceBatches(ctx: ExecutionContext, consume: BatchConsumer): void {
    const streaming = ctx.streaming;
    if (!streaming) {
      this.input.produceBatches(ctx, consume);
      return;
    }
    let max = streaming.eventTimeMax.get(this.watermarkId) ?? -Infinity;
    this.input.produceBatches(ctx, (batch) => {
      max = maxEventTime(batch.columns[this.columnIndex], max);
      consume(batch);
    });
    if (max > -Infinity) streaming.eventTimeMax.set(this.watermarkId, max);
  }
}

/** The larger of `max` and the largest non-null time in `column`. */
function maxEventTime(column: Column, max: number): number {
  const n = column.length;
  if (column.kind === 'values') {
    const values = column.values;
    for (let i = 0; i < n; i++) {
      const t = values[i] as number | null;
      if (t !== null && t > max) max = t;
    }
    return max;
  }
  if (column.kind === 'float64' && column.validity === null) {
    const values = column.values;
    for (let i = 0; i < n; i++) if (values[i] > max) max = values[i];
    return max;
  }
  const read = readerOf(column);
  for (let i = 0; i < n; i++) {
    const t = read(i) as number | null;
    if (t !== null && t > max) max = t;
  }
  return max;
}
