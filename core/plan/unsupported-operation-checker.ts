/**
 * Spark's rules for which streaming query shapes each output mode supports, checked when a query
 * starts, so an unsupported query fails at once with a message naming the operator and the mode,
 * never mid-stream.
 */
import { UnsupportedOperationError } from '../errors.js';
import { containsExpression } from '../expr/expression.js';
import { expressionName } from '../expr/expression-name.js';
import type { OutputMode } from '../sinks/sink.js';
import {
  type Aggregate,
  allNodes,
  type Join,
  type LogicalPlan,
  type Union,
} from './logical-plan.js';
import { sessionWindowKey } from './session-window-key.js';

/** Throws UnsupportedOperationError when `plan` cannot run as a stream in `mode`. */
export function checkStreamingPlan(plan: LogicalPlan, mode: OutputMode): void {
  if (!plan.isStreaming) {
    throw new UnsupportedOperationError(
      'writeStream needs a streaming DataFrame (one read with readStream); use write for a batch DataFrame.',
    );
  }
  const aggregates = allNodes(plan).filter(
    (n): n is Aggregate => n.kind === 'aggregate' && n.isStreaming,
  );
  if (aggregates.length > 1) {
    throw new UnsupportedOperationError(
      `Multiple streaming aggregations are not supported with ${mode} output mode; compute the second aggregation on the sink's output.`,
    );
  }
  const agg = aggregates[0];
  if (agg) checkAggregate(agg, mode);
  if (!agg && mode === 'complete') {
    throw new UnsupportedOperationError(
      'Complete output mode is not supported when there are no streaming aggregations; use append or update.',
    );
  }
  checkOperatorsAboveAggregation(plan, agg, mode);
  for (const node of allNodes(plan)) checkNode(node, mode);
}

function checkAggregate(agg: Aggregate, mode: OutputMode): void {
  const distinct = agg.aggregates.find((e) =>
    containsExpression(e, (x) => x.kind === 'aggregate' && x.distinct),
  );
  if (distinct) {
    throw new UnsupportedOperationError(
      `Distinct aggregation ${expressionName(distinct)} is not supported on streaming DataFrames (operator: aggregate, mode: ${mode}).`,
    );
  }
  checkSessionWindow(agg, mode);
  if (mode !== 'append') return;
  const watermarked = agg.schema.fields
    .slice(0, agg.groupBy.length)
    .some((f) => f.metadata?.eventTimeDelayMicros !== undefined);
  if (!watermarked) {
    throw new UnsupportedOperationError(
      `Append output mode not supported when there are streaming aggregations without watermark: aggregate on [${agg.groupBy.map(expressionName).join(', ')}]. ` +
        'Add withWatermark on the event-time column and group by it (or by a window over it), or use update or complete mode.',
    );
  }
}

/**
 * A session-window aggregation runs in append mode, with a watermark to close its sessions, or in
 * complete mode. Spark refuses update mode: a session that later merged into another would stay in
 * the sink as a row that no batch corrects.
 */
function checkSessionWindow(agg: Aggregate, mode: OutputMode): void {
  const session = sessionWindowKey(agg.groupBy);
  if (!session) return;
  const time = expressionName(session.window.timeColumn);
  const operator = `operator: sessionWindowStateStoreSaveExec on session_window(${time})`;
  if (mode === 'update') {
    throw new UnsupportedOperationError(
      `Update output mode not supported for session windows on streaming DataFrames (${operator}): a session that merges into another would stay in the sink. ` +
        `Use append mode (with withWatermark on '${time}') to emit each session once it closes, or complete mode.`,
    );
  }
  const watermarked = agg.schema.fields[session.index].metadata?.eventTimeDelayMicros !== undefined;
  if (mode === 'append' && !watermarked) {
    throw new UnsupportedOperationError(
      `Append output mode not supported for session windows without a watermark (${operator}): no session would ever close. ` +
        `Add withWatermark('${time}', delay) before groupBy, or use complete mode.`,
    );
  }
}

/** Sorting is allowed only on an aggregated stream in complete mode; limit in append and complete modes. */
function checkOperatorsAboveAggregation(
  plan: LogicalPlan,
  agg: Aggregate | undefined,
  mode: OutputMode,
): void {
  for (const node of allNodes(plan)) {
    if (
      node.kind === 'sort' &&
      node.isStreaming &&
      !(agg && mode === 'complete' && allNodes(node).includes(agg))
    ) {
      throw new UnsupportedOperationError(
        `Sorting is not supported on streaming DataFrames unless it follows an aggregation in complete output mode (mode: ${mode}).`,
      );
    }
    if (node.kind === 'limit' && node.isStreaming && mode === 'update') {
      throw new UnsupportedOperationError(
        'Limit is not supported on streaming DataFrames in update output mode.',
      );
    }
  }
}

function checkNode(node: LogicalPlan, mode: OutputMode): void {
  if (node.kind === 'union') checkUnion(node, mode);
  if (node.kind === 'join') checkJoin(node, mode);
}

/**
 * A union of a stream with a static DataFrame would emit the static rows again in every batch: the
 * static side has no offsets to say which of its rows a batch already emitted.
 */
function checkUnion(node: Union, mode: OutputMode): void {
  const streaming = node.inputs.filter((p) => p.isStreaming).length;
  if (streaming === 0 || streaming === node.inputs.length) return;
  throw new UnsupportedOperationError(
    `Union between streaming and batch DataFrames is not supported (operator: union, mode: ${mode}); ` +
      'read both sides with readStream, or join the stream with the static DataFrame instead.',
  );
}

function checkJoin(node: Join, mode: OutputMode): void {
  const { left, right, joinType } = node;
  // A join of two static DataFrames inside a streaming query is an ordinary batch join.
  if (!left.isStreaming && !right.isStreaming) return;
  if (left.isStreaming && right.isStreaming) {
    throw new UnsupportedOperationError(
      `Stream-stream joins are not supported yet (operator: join ${joinType}, mode: ${mode}); join the stream with a static DataFrame.`,
    );
  }
  const streamOnLeft = left.isStreaming;
  const allowed = streamOnLeft
    ? ['inner', 'left', 'left_semi', 'left_anti'].includes(joinType)
    : ['inner', 'right'].includes(joinType);
  if (!allowed) {
    throw new UnsupportedOperationError(
      `${joinType} join with a streaming DataFrame on the ${streamOnLeft ? 'left' : 'right'} and a static DataFrame on the other side is not supported (mode: ${mode}); ` +
        'the static side cannot know which stream rows will never arrive. Use inner, or an outer join that preserves the streaming side.',
    );
  }
}
