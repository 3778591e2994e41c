/**
 * What operators see while a plan runs: the batch of every leaf, counters for progress, and, in a
 * stream, the micro-batch's state stores and watermark.
 */
import type { OutputMode } from '../sinks/sink.js';
import type { StateStore } from '../state/state-store.js';
import type { ColumnBatch } from '../columnar/column-batch.js';

/** Counters a batch reports in its progress (malformedRecords, numRowsDroppedByWatermark, ...). */
export type BatchCounters = Record<string, number>;

/** The streaming half of the context: present only when the plan runs as a micro-batch. */
export interface StreamingExecution {
  readonly batchId: number;
  /**
   * The watermark in force for stateful operator `operatorId` in this batch (computed from earlier
   * batches and propagated to it from the watermark nodes beneath it); undefined before any, or
   * when no watermark node is beneath it.
   */
  watermarkMicros(operatorId: number): number | undefined;
  /**
   * The watermark at or below which stateful operator `operatorId` drops an input row as late: its
   * input watermark of the previous batch (Spark's watermark for late events), since the operators
   * beneath it emit in this batch what the current watermark just closed. Operators evict and emit
   * by `watermarkMicros`, and filter late rows by this one. Undefined: no row is late.
   */
  lateRowsWatermarkMicros(operatorId: number): number | undefined;
  readonly outputMode: OutputMode;
  /** The state store `storeName` (default: `default`) of stateful operator `operatorId`, open at this batch's version. */
  stateStore(operatorId: number, storeName?: string): StateStore;
  /** The figures stateful operator `operatorId` reports for this batch (numRowsDroppedByWatermark, ...). */
  operatorCounters(operatorId: number): BatchCounters;
  /** Max event time seen this batch, per watermark node (keyed by its operator id). */
  readonly eventTimeMax: Map<number, number>;
}

/** Everything an operator needs to run. */
export interface ExecutionContext {
  /** The batch of each leaf, by logical plan id (loaded before execution: operators do no I/O). */
  readonly inputs: ReadonlyMap<number, ColumnBatch>;
  readonly counters: BatchCounters;
  readonly streaming?: StreamingExecution;
}

/** Adds `n` to counter `name`. */
export function count(ctx: ExecutionContext, name: string, n = 1): void {
  ctx.counters[name] = (ctx.counters[name] ?? 0) + n;
}

/** Adds `n` to counter `name` of stateful operator `operatorId`. */
export function countForOperator(
  streaming: StreamingExecution,
  operatorId: number,
  name: string,
  n = 1,
): void {
  const counters = streaming.operatorCounters(operatorId);
  counters[name] = (counters[name] ?? 0) + n;
}
