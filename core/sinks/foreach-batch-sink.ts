/**
 * ForeachBatchSink: hands each batch's output rows and batchId to user code. Exactly-once is the
 * user's to make: a batch may be delivered again after a crash, with the same batchId and rows.
 */
import type { StructType } from '../types/data-types.js';
import { type Row, toRowObject, type RowObject } from '../types/row.js';
import type { OutputMode, Sink } from './sink.js';

/** The user function of `foreachBatch`. */
export type ForeachBatchFunction = (rows: RowObject[], batchId: number) => void | Promise<void>;

/** Calls a user function per batch. */
export class ForeachBatchSink implements Sink {
  readonly description = 'ForeachBatchSink';

  constructor(private readonly fn: ForeachBatchFunction) {}

  async addBatch(
    batchId: number,
    rows: readonly Row[],
    schema: StructType,
    _mode: OutputMode,
  ): Promise<void> {
    await this.fn(
      rows.map((r) => toRowObject(r, schema)),
      batchId,
    );
  }
}
