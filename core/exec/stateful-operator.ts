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
 */
import type { OutputMode } from '../sinks/sink.js';
import type { PhysicalOperator } from './physical-operator.js';

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
}

/** The watermark `op` emits for the operators above it, given its input watermark. */
export function outputWatermarkOf(
  op: StatefulOperator,
  inputMicros: number | undefined,
): number | undefined {
  return op.outputWatermark ? op.outputWatermark(inputMicros) : inputMicros;
}
