/**
 * The streaming sink interface. `addBatch` must be idempotent per batchId: the commit protocol may
 * call it again for a batch whose commit did not land (a crash between sink and commit), and the sink
 * must then leave its content as if it had been called once.
 */
import { SinkError } from '../errors.js';
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

/** What a sink lacks when a batch reaches it before a query opened it, and what else would do. */
export interface NotOpened {
  /** The sink, as its description names it. */
  readonly sink: string;
  readonly batchId: number;
  /** What the sink cannot do without `open`, e.g. "it has no appId for its txn". */
  readonly consequence?: string;
  /** Another way to give the sink what `open` would, e.g. "give the option appId". */
  readonly alternative?: string;
}

/**
 * What a sink's `open` prepared, which every batch needs: `prepared`, or a SinkError for a batch that
 * reached the sink before a query opened it (a sink called directly rather than through a query).
 */
export function openedSink<T>(prepared: T | undefined, batch: NotOpened): T {
  if (prepared !== undefined) return prepared;
  const so = batch.consequence ? `, so ${batch.consequence}` : '';
  const or = batch.alternative ? `, or ${batch.alternative}` : '';
  throw new SinkError(
    `${batch.sink} got batch ${batch.batchId} before a query opened it${so}; start it with writeStream.sink(...)${or}.`,
  );
}
