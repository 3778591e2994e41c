/**
 * The progress record of one micro-batch, after Spark's StreamingQueryProgress
 * (docs/architecture.md section 6), and its one-line rendering for local runs. Its JSON has Spark's
 * field names and shape, so tools that read Spark's progress read it; Sluice's own figures
 * (`stateLoad`, `stateBytesWritten`, the protocol steps in `durationMs`) are fields Spark's lack.
 */
import { formatIsoInstant } from '../types/timestamp-text.js';

/**
 * Time spent in each step of the commit protocol, in milliseconds, and the same time under Spark's
 * names: `latestOffset` (asking the sources) and `walCommit` (writing the intent) make up `plan`,
 * `addBatch` is `run` + `persist` + `sink`, `commitOffsets` is `commit`.
 */
export interface DurationBreakdown {
  lease: number;
  plan: number;
  load: number;
  run: number;
  persist: number;
  sink: number;
  commit: number;
  latestOffset: number;
  walCommit: number;
  addBatch: number;
  commitOffsets: number;
  triggerExecution: number;
}

/** Progress of one source in one batch. */
export interface SourceProgress {
  readonly description: string;
  readonly startOffset: unknown;
  readonly endOffset: unknown;
  /** The latest offset available when the batch was planned, when the source reports it. */
  readonly latestOffset?: unknown;
  readonly numInputRows: number;
  readonly inputRowsPerSecond: number;
  readonly processedRowsPerSecond: number;
  /** The source's own figures about this batch, when it reports any (Source.metrics). */
  readonly metrics?: Readonly<Record<string, number>>;
  /** Problems that did not fail the batch (Source.warnings), when there were any. */
  readonly warnings?: readonly string[];
}

/** Progress of one stateful operator in one batch, summed over its state stores (Spark's names). */
export interface StateOperatorProgress {
  readonly operatorId: number;
  /** e.g. `stateStoreSave` for an aggregation. */
  readonly operatorName: string;
  /** Keys held after the batch. */
  readonly numRowsTotal: number;
  /** Keys the batch wrote. */
  readonly numRowsUpdated: number;
  /** Keys the batch removed (evicted by the watermark, for an aggregation). */
  readonly numRowsRemoved: number;
  /**
   * The estimated bytes its stores' keys and values take in memory after the batch, kept up to date
   * on every put and remove (core/state/state-size-estimate.ts), not measured by a scan.
   */
  readonly memoryUsedBytes: number;
  /** Input rows the operator dropped as later than the watermark. */
  readonly numRowsDroppedByWatermark: number;
  /** The query's state partitions. */
  readonly numShufflePartitions: number;
  /** State stores the operator keeps, over all partitions. */
  readonly numStateStoreInstances: number;
  /** The operator's own figures, by Spark's names (e.g. a processor's `numExpiredTimers`). */
  readonly customMetrics?: Readonly<Record<string, number>>;
}

/** Everything a batch reports. */
export interface StreamingQueryProgress {
  readonly id: string;
  readonly runId: string;
  readonly name: string | null;
  /** When the batch started (ISO 8601). */
  readonly timestamp: string;
  readonly batchId: number;
  /** Milliseconds the batch took, as `durationMs.triggerExecution`. */
  readonly batchDuration: number;
  readonly numInputRows: number;
  readonly inputRowsPerSecond: number;
  readonly processedRowsPerSecond: number;
  readonly durationMs: DurationBreakdown;
  /**
   * The watermark in force for this batch and the max event time this batch saw, as ISO 8601
   * instants with milliseconds (`2026-01-01T10:20:00.000Z`), as Spark writes them.
   */
  readonly eventTime: { readonly watermark?: string; readonly max?: string };
  readonly stateOperators: readonly StateOperatorProgress[];
  /** 'warm': state reused from memory; 'cold': loaded from the checkpoint; 'none': stateless query. */
  readonly stateLoad: 'warm' | 'cold' | 'none';
  /** Bytes of state files written this batch. */
  readonly stateBytesWritten: number;
  readonly lateRowsDropped: number;
  readonly malformedRecordsDropped: number;
  readonly sources: readonly SourceProgress[];
  readonly sink: { readonly description: string; readonly numOutputRows: number };
  /** In a backfill (`availableNow`): input processed so far and in all, in the sources' units. */
  readonly backfill?: { readonly done: number; readonly total: number };
}

/** A readable one-line summary of a batch. */
export function progressLine(p: StreamingQueryProgress): string {
  const parts = [
    `batch ${p.batchId}`,
    `${p.numInputRows} rows in`,
    `${p.sink.numOutputRows} out`,
    `${Math.round(p.processedRowsPerSecond)} rows/s`,
    `${p.durationMs.triggerExecution} ms`,
    `watermark ${p.eventTime.watermark ?? '-'}`,
    `state ${p.stateOperators.reduce((n, s) => n + s.numRowsTotal, 0)} keys (${p.stateLoad})`,
  ];
  if (p.lateRowsDropped > 0) parts.push(`${p.lateRowsDropped} late dropped`);
  if (p.malformedRecordsDropped > 0) parts.push(`${p.malformedRecordsDropped} malformed dropped`);
  if (p.backfill) parts.push(progressBar(p.backfill.done, p.backfill.total));
  return parts.join(' | ');
}

/** `[########------------] 40%`: how much of a backfill is done. */
export function progressBar(done: number, total: number, width = 20): string {
  const fraction = total <= 0 ? 1 : Math.min(1, done / total);
  const filled = Math.round(fraction * width);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${Math.round(fraction * 100)}%`;
}

/** Formats an event time for progress (ISO 8601, milliseconds, UTC), or undefined. */
export function eventTimeText(micros: number | null | undefined): string | undefined {
  return micros === null || micros === undefined ? undefined : formatIsoInstant(micros);
}

/**
 * The rates of a batch that read `numInputRows` in `triggerExecutionMs`. Spark's input rate is over
 * the time since the previous trigger; Sluice's, like the processing rate, is over the batch itself,
 * since a batch in Lambda may follow one that ran in another container.
 */
export function rowsPerSecond(numInputRows: number, triggerExecutionMs: number) {
  const perSecond = numInputRows / (Math.max(triggerExecutionMs, 1) / 1000);
  return { inputRowsPerSecond: perSecond, processedRowsPerSecond: perSecond };
}

/** `progress` with the commit's time added, once the commit returned: its rates follow. */
export function withCommitDuration(
  progress: StreamingQueryProgress,
  commitMs: number,
  triggerExecutionMs: number,
): StreamingQueryProgress {
  const durationMs = {
    ...progress.durationMs,
    commit: commitMs,
    commitOffsets: commitMs,
    triggerExecution: triggerExecutionMs,
  };
  return {
    ...progress,
    batchDuration: triggerExecutionMs,
    ...rowsPerSecond(progress.numInputRows, triggerExecutionMs),
    durationMs,
    sources: progress.sources.map((s) => ({
      ...s,
      ...rowsPerSecond(s.numInputRows, triggerExecutionMs),
    })),
  };
}
