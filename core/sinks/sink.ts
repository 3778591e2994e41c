/**
 * The streaming sink interface. `addBatch` must be idempotent per batchId: the commit protocol may
 * call it again for a batch whose commit did not land (a crash between sink and commit), and the sink
 * must then leave its content as if it had been called once.
 */
import type { StructType } from '../types/data-types.js';
import type { Row } from '../types/row.js';

/** How a query's result is written after each batch: only final new rows, changed rows, or everything. */
export type OutputMode = 'append' | 'update' | 'complete';

/** What a sink learns when its query starts. */
export interface SinkContext {
  /** The query's id: fixed when its checkpoint was created, the same after every restart. */
  readonly queryId: string;
  /** The query's output mode. */
  readonly outputMode: OutputMode;
  /** The schema of the rows every batch writes. */
  readonly schema: StructType;
  /**
   * The output columns that identify a row of the result, when the query has them: an aggregation's
   * grouping keys. A sink that upserts by key (DynamoDB) keys its items on them unless told otherwise.
   */
  readonly keyColumns?: readonly string[];
}

/** A streaming sink. */
export interface Sink {
  /** A short description for progress reports. */
  readonly description: string;
  /**
   * Called once when the query starts, before its first batch. A sink that cannot write the output
   * mode or the schema throws here, so the query fails at start rather than mid-stream; a sink that
   * tags its output with the query (Delta's txn appId) learns its id. Optional.
   */
  open?(context: SinkContext): Promise<void>;
  /** Writes the output of batch `batchId` (engine rows of `schema`); idempotent per batchId. */
  addBatch(
    batchId: number,
    rows: readonly Row[],
    schema: StructType,
    outputMode: OutputMode,
  ): Promise<void>;
  /**
   * Called when the query stops (and when a serverless invocation ends), so a sink that keeps
   * connections open across batches (Kafka's producer) releases them. A sink must accept batches
   * again after close, reconnecting on demand. Optional.
   */
  close?(): Promise<void>;
}
