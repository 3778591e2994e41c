/**
 * The stateful-operator framework: what every operator that keeps state across micro-batches
 * (aggregation today; deduplication, session windows, stream-stream joins and arbitrary state
 * next) offers the micro-batch execution, so the execution drives them all alike.
 *
 * An operator keeps its state in named state stores (Spark's `storeName`; one called `default`
 * when it needs one map), which the execution opens for each batch at the version of the last
 * commit, and commits or aborts with the batch (versioned-state-store.ts). The operator reads the
 * watermark in force from the context, drops late rows and evicts by it, and reports what it did
 * in its own figures, which become its entry of the progress's `stateOperators`.
 *
 * Timers: an operator that must act at a time without new data (a processor's timers, a TTL
 * expiry) says when, at the end of each batch (`nextTimer`). The commit records it, so the plan of
 * the next batch knows whether a batch without data is due without loading any state.
 */
import type { OutputMode } from '../sinks/sink.js';
import type { StreamingExecution } from './execution-context.js';
import type { PhysicalOperator } from './physical-operator.js';

/**
 * When an operator must next act without new data: in the first batch whose watermark is at least
 * `dueAtWatermarkMicros`, or whose processing time is at least `dueAtProcessingTimeMs`.
 */
export interface NextTimer {
  readonly dueAtWatermarkMicros?: number;
  readonly dueAtProcessingTimeMs?: number;
}

/** True when `timer` is due in a batch running under `watermarkMicros` at `batchTimestampMs`. */
export function isTimerDue(
  timer: NextTimer | undefined,
  watermarkMicros: number | undefined,
  batchTimestampMs: number,
): boolean {
  if (!timer) return false;
  const byWatermark =
    timer.dueAtWatermarkMicros !== undefined &&
    watermarkMicros !== undefined &&
    watermarkMicros >= timer.dueAtWatermarkMicros;
  const byClock =
    timer.dueAtProcessingTimeMs !== undefined && batchTimestampMs >= timer.dueAtProcessingTimeMs;
  return byWatermark || byClock;
}

/** An operator whose results depend on the rows of earlier micro-batches. */
export interface StatefulOperator extends PhysicalOperator {
  /** Stable id (the operator's position in plan order): it names the operator's state. */
  readonly operatorId: number;
  /** Spark's name for the operator in progress reports, e.g. `stateStoreSave`. */
  readonly operatorName: string;
  /** The names of the stores it keeps; fixed once a checkpoint holds them. */
  readonly storeNames: readonly string[];
  /** What its state holds, as the plan fingerprint records it. */
  readonly stateDescription: string;
  /**
   * Whether a batch without new data must run because the watermark moved from `lastMicros` (the
   * one the last batch ran with) to `nextMicros`: it would evict state or emit rows.
   */
  shouldRunAnotherBatch(
    outputMode: OutputMode,
    lastMicros: number | undefined,
    nextMicros: number | undefined,
  ): boolean;
  /**
   * The watermark of the operator's output, given its input watermark, for the operators above it;
   * without this method the output carries the input watermark on (an aggregation emits under it).
   */
  outputWatermark?(inputMicros: number | undefined): number | undefined;
  /**
   * The operator's next timer as this batch leaves its stores (read while they are open, after it
   * ran); operators without timers leave it out.
   */
  nextTimer?(streaming: StreamingExecution): NextTimer | undefined;
  /** The names of its own figures that progress reports as `customMetrics` (Spark's names). */
  readonly customMetricNames?: readonly string[];
}

/** The watermark `op` emits for the operators above it, given its input watermark. */
export function outputWatermarkOf(
  op: StatefulOperator,
  inputMicros: number | undefined,
): number | undefined {
  return op.outputWatermark ? op.outputWatermark(inputMicros) : inputMicros;
}
