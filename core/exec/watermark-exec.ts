/**
 * Watermark: passes rows through and, in a stream, records the max event time of the batch, from
 * which the runner derives the next watermark (max event time - delay). In a batch query it does nothing.
 */
import type { ExecutionContext } from './execution-context.js';
import type { PhysicalOperator, RowConsumer } from './physical-operator.js';

/** Runs a Watermark node. */
export class WatermarkExec implements PhysicalOperator {
  constructor(
    /** Stable id of this watermark among the query's watermarks (its position in plan order). */
    readonly watermarkId: number,
    readonly delayMicros: number,
    private readonly columnIndex: number,
    private readonly input: PhysicalOperator,
  ) {}

  produce(ctx: ExecutionContext, consume: RowConsumer): void {
    const streaming = ctx.streaming;
    if (!streaming) {
      this.input.produce(ctx, consume);
      return;
    }
    let max = streaming.eventTimeMax.get(this.watermarkId) ?? -Infinity;
    const c = this.columnIndex;
    this.input.produce(ctx, (row) => {
      const t = row[c] as number | null;
      if (t !== null && t > max) max = t;
      consume(row);
    });
    if (max > -Infinity) streaming.eventTimeMax.set(this.watermarkId, max);
  }
}
