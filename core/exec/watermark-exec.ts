/**
 * Watermark: passes rows through and, in a stream, records the max event time of the batch, from
 * which the runner derives the next watermark (max event time - delay). In a batch query it does nothing.
 */
import type { Row } from '../types/row.js';
import type { ExecutionContext } from './execution-context.js';
import type { PhysicalOperator } from './physical-operator.js';

/** Runs a Watermark node. */
export class WatermarkExec implements PhysicalOperator {
  constructor(
    /** Stable id of this watermark among the query's watermarks (its position in plan order). */
    readonly watermarkId: number,
    readonly delayMicros: number,
    private readonly columnIndex: number,
    private readonly input: PhysicalOperator,
  ) {}

  execute(ctx: ExecutionContext): Row[] {
    const rows = this.input.execute(ctx);
    if (!ctx.streaming) return rows;
    let max = ctx.streaming.eventTimeMax.get(this.watermarkId) ?? -Infinity;
    const c = this.columnIndex;
    for (let i = 0; i < rows.length; i++) {
      const t = rows[i][c] as number | null;
      if (t !== null && t > max) max = t;
    }
    if (max > -Infinity) ctx.streaming.eventTimeMax.set(this.watermarkId, max);
    return rows;
  }
}
