/**
 * Per-operator watermarks, propagated through the plan as Spark (3.5 and later) does: a pure
 * function over the physical plan's structure (`PhysicalPlan.watermarkInputs`).
 *
 * Every watermark node emits the query's watermark in force (watermark-tracker.ts), its origin. The
 * watermark of a stateful operator's input is the minimum over what feeds it event time: the
 * watermark nodes beneath it and the outputs of the stateful operators beneath it. An operator with
 * nothing beneath it has no watermark (it neither drops late rows nor evicts on event time). A
 * streaming aggregation's output carries its input watermark on, so in a chain of stateful operators
 * each one sees the minimum over everything beneath it; a stream-stream join's output carries the
 * lower of its two sides' state watermarks (rows still in its state may yet be emitted), as in
 * Spark 3.5.
 *
 * An operator drops input rows as late against a second watermark, the one for late rows: its input
 * watermark of the previous batch, propagated the same way from the previous batch's watermark in
 * force (Spark's `eventTimeWatermarkForLateEvents`, 3.5 and later), while it evicts and emits by the
 * current one (`eventTimeWatermarkForEviction`). Rows from an operator beneath are thereby judged by
 * what that operator's OUTPUT watermark was: an operator beneath emits in batch N what N's watermark
 * closed (an aggregation's window whose end it just passed; an outer join's unmatched row, whose
 * time may lie as far below the join's input watermark as the join's range bound reaches), and
 * judged by N's watermark every such row would be late above it. Rows straight from a source are
 * judged the same way, by the previous batch's watermark in force: none of them can belong to
 * state the operator evicted, since it evicted by that watermark at most.
 */
import type { WatermarkInput } from '../exec/physical-planner.js';
import { ExecutionError } from '../errors.js';

/**
 * The input watermark of each stateful operator (by operatorId; undefined: none), given what feeds
 * each one (`watermarkInputs`, by operatorId) and the watermark each watermark node emits.
 */
export function operatorWatermarks(
  watermarkInputs: readonly (readonly WatermarkInput[])[],
  nodeWatermark: (watermarkId: number) => number | undefined,
  outputWatermark: OutputWatermark = (_, inputMicros) => inputMicros,
): (number | undefined)[] {
  const result: (number | undefined)[] = [];
  const outputs: (number | undefined)[] = [];
  watermarkInputs.forEach((inputs, operatorId) => {
    const values = inputs
      .map((input) => inputWatermark(input, operatorId, outputs, nodeWatermark))
      .filter((w): w is number => w !== undefined);
    const input = values.length === 0 ? undefined : Math.min(...values);
    result.push(input);
    outputs.push(outputWatermark(operatorId, input));
  });
  return result;
}

/**
 * The watermark stateful operator `operatorId` emits given its input watermark
 * (StatefulOperator.outputWatermark): an aggregation carries its input on; a stream-stream join
 * emits the lower of its sides' state watermarks.
 */
export type OutputWatermark = (
  operatorId: number,
  inputMicros: number | undefined,
) => number | undefined;

/** What one input feeds operator `operatorId` (`done`: the outputs of the operators beneath it, first in plan order). */
function inputWatermark(
  input: WatermarkInput,
  operatorId: number,
  done: readonly (number | undefined)[],
  nodeWatermark: (watermarkId: number) => number | undefined,
): number | undefined {
  if (input.kind === 'watermark') return nodeWatermark(input.watermarkId);
  if (input.operatorId >= operatorId) {
    throw new ExecutionError(
      `Internal error: stateful operator ${operatorId} is fed by operator ${input.operatorId}, which is not beneath it in plan order.`,
    );
  }
  return done[input.operatorId];
}
