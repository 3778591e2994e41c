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
 * An operator drops input rows as late against a second watermark (`lateRowWatermarks`): rows from
 * a watermark node are late at or below the watermark in force, but rows from a stateful operator
 * beneath it only at or below the watermark that operator ran under in the previous batch. In a
 * chain, the operator beneath emits in batch N exactly what N's watermark closed (a window whose end
 * it just passed, whose `window_time` is therefore below it); judged by N's watermark, every such row
 * would be late downstream. This is Spark's fix for chained stateful operators (3.4 and later).
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

/**
 * The late-rows watermark of each stateful operator (by operatorId; undefined: no row is late),
 * given what feeds each one, the watermark each watermark node emits now, and each operator's input
 * watermark in this batch (`current`) and in the previous one (`previous`, from operatorWatermarks).
 * An operator beneath that has a watermark now but had none in the previous batch may emit rows of
 * any age, so an operator it feeds drops nothing as late.
 */
export function lateRowWatermarks(
  watermarkInputs: readonly (readonly WatermarkInput[])[],
  nodeWatermark: (watermarkId: number) => number | undefined,
  current: readonly (number | undefined)[],
  previous: readonly (number | undefined)[],
): (number | undefined)[] {
  return watermarkInputs.map((inputs) => {
    const values: number[] = [];
    for (const input of inputs) {
      if (input.kind === 'watermark') {
        const w = nodeWatermark(input.watermarkId);
        if (w !== undefined) values.push(w);
        continue;
      }
      const before = previous[input.operatorId];
      if (before !== undefined) values.push(before);
      else if (current[input.operatorId] !== undefined) return undefined;
    }
    return values.length === 0 ? undefined : Math.min(...values);
  });
}
