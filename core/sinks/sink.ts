/**
 * The streaming sink interface. `addBatch` must be idempotent per batchId: the commit protocol may
 * call it again for a batch whose commit did not land (a crash between sink and commit), and the sink
 * must then leave its content as if it had been called once.
 */
import type { StructType } from '../types/data-types.js';
import type { Row } from '../types/row.js';

/** How a query's result is written after each batch: only final new rows, changed rows, or everything. */
export type OutputMode = 'append' | 'update' | 'complete';

/** A streaming sink. */
export interface Sink {
  /** A short description for progress reports. */
  readonly description: string;
  /** Writes the output of batch `batchId` (engine rows of `schema`); idempotent per batchId. */
  addBatch(
    batchId: number,
    rows: readonly Row[],
    schema: StructType,
    outputMode: OutputMode,
  ): Promise<void>;
}
