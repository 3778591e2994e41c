/**
 * The sink of `writeStream.foreachBatch(fn)`: hands each batch to user code as a DataFrame of its
 * output rows, with its batchId, as Spark does, so the function can write it with any batch writer
 * (`batch.write.format(...)`), query it, or `collect()` it. Exactly-once is the function's to make:
 * after a crash a batch may be delivered again, with the same batchId and rows.
 */
import type { OutputMode, Sink } from '../sinks/sink.js';
import { inMemoryRelation } from '../plan/plan-builder.js';
import type { StructType } from '../types/data-types.js';
import type { Row } from '../types/row.js';
import { DataFrame } from './dataframe.js';
import type { SluiceSession } from './session.js';

/** The user function of `foreachBatch`: a batch's output as a static DataFrame, and its batchId. */
export type ForeachBatchFunction = (batch: DataFrame, batchId: number) => void | Promise<void>;

/** Calls a user function with each batch's output. */
export class ForeachBatchSink implements Sink {
  readonly description = 'ForeachBatchSink';

  constructor(
    private readonly session: SluiceSession,
    private readonly fn: ForeachBatchFunction,
  ) {}

  async addBatch(
    batchId: number,
    rows: readonly Row[],
    schema: StructType,
    _mode: OutputMode,
  ): Promise<void> {
    const batch = new DataFrame(
      this.session,
      inMemoryRelation(`ForeachBatch[batch ${batchId}, ${rows.length} rows]`, schema, () =>
        Promise.resolve(rows as Row[]),
      ),
    );
    await this.fn(batch, batchId);
  }
}
