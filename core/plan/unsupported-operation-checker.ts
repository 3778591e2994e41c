/**
 * Spark's rules for which streaming query shapes each output mode supports, checked when a query
 * starts, so an unsupported query fails at once with a message naming the operator and the mode,
 * never mid-stream.
 */
import { UnsupportedOperationError } from '../errors.js';
import { containsExpression } from '../expr/expression.js';
import { expressionName } from '../expr/expression-name.js';
import type { OutputMode } from '../sinks/sink.js';
import { joinStateEviction } from './join-state-watermark.js';
import {
  type Aggregate,
  allNodes,
  isStatefulAggregate,
  type Deduplicate,
  type Join,
  type LogicalPlan,
  type TransformWithState,
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
  checkProcessors(plan, mode);
  const aggregates = allNodes(plan).filter(isStatefulAggregate);
  if (aggregates.length > 1 && mode !== 'append') {
    throw new UnsupportedOperationError(
      `Multiple streaming aggregations are not supported with ${mode} output mode (operators: ${aggregates.map(operatorText).join(', ')}); ` +
        "only append mode, where each aggregation emits final rows, can chain them. Use append mode with a watermark, or compute the second aggregation on the sink's output.",
    );
  }
  for (const agg of aggregates) checkAggregate(agg, mode);
  if (aggregates.length === 0 && mode === 'complete') {
    throw new UnsupportedOperationError(
      'Complete output mode is not supported when there are no streaming aggregations; use append or update.',
    );
  }
  checkOperatorsAboveAggregation(plan, aggregates, mode);
  checkChainedStatefulOperators(plan, mode);
  for (const node of allNodes(plan)) checkNode(node, mode);
}

/**
 * Spark's global-watermark check (3.5 and later): a stateful operator may not run over one that, in
 * this output mode, emits rows that are not final. Such rows can be older than the watermark the
 * operator above drops late rows by, so it would silently lose them. Today only an aggregation in
 * update or complete mode emits such rows; an operator that can join the list adds a case to
 * `emitsRowsThatAreNotFinal`.
 */
function checkChainedStatefulOperators(plan: LogicalPlan, mode: OutputMode): void {
  for (const upper of allNodes(plan).filter(isStatefulOperator)) {
    const lower = allNodes(upper).find(
      (n) => n !== upper && isStatefulOperator(n) && emitsRowsThatAreNotFinal(n, mode),
    );
    if (!lower) continue;
    throw new UnsupportedOperationError(
      `A stateful operator over another one that emits rows that are not final is not supported (operator: ${operatorText(upper)} over ${operatorText(lower)}, mode: ${mode}): ` +
        `${lower.kind === 'transformWithState' ? 'a processor in update mode' : `in ${mode} mode the ${lower.kind}`} re-emits rows as they change, which can be older than the watermark and would be dropped as late by the ${upper.kind} above it. ` +
        'Chain stateful operators in append mode, with a watermark.',
    );
  }
}

/** The nodes that run as stateful operators in a stream. */
function isStatefulOperator(node: LogicalPlan): boolean {
  switch (node.kind) {
    case 'aggregate':
      return isStatefulAggregate(node);
    case 'deduplicate':
    case 'transformWithState':
      return node.isStreaming;
    case 'join':
      return node.left.isStreaming && node.right.isStreaming;
    default:
      return false;
  }
}

/**
 * Whether a stateful operator emits, in `mode`, rows that a later batch may revise: an aggregation
 * outside append mode, and a processor that declares update mode.
 */
function emitsRowsThatAreNotFinal(node: LogicalPlan, mode: OutputMode): boolean {
  if (node.kind === 'transformWithState') return node.outputMode !== 'append';
  return node.kind === 'aggregate' && mode !== 'append';
}

/** A stateful operator as a message names it: `aggregate on [window, category]`. */
function operatorText(node: LogicalPlan): string {
  switch (node.kind) {
    case 'aggregate':
      return `aggregate on [${node.groupBy.map(expressionName).join(', ')}]`;
    case 'deduplicate':
      return `${deduplicateName(node)} on [${node.keyIndexes.map((i) => node.schema.fields[i].name).join(', ')}]`;
    case 'join':
      return `join ${node.joinType}`;
    case 'transformWithState':
      return `transformWithState(${node.processorName})`;
    default:
      return node.kind;
  }
}

function deduplicateName(node: Deduplicate): string {
  return node.withinWatermark ? 'dropDuplicatesWithinWatermark' : 'dropDuplicates';
}

/**
 * transformWithState on a stream: append or update mode (as in Spark), and event-time mode needs a
 * watermark beneath it. Chained with other stateful operators it follows their rules
 * (checkChainedStatefulOperators); operators above it see event time only through its
 * eventTimeColumnName.
 */
function checkProcessors(plan: LogicalPlan, mode: OutputMode): void {
  const nodes = allNodes(plan);
  const processors = nodes.filter(
    (n): n is TransformWithState => n.kind === 'transformWithState' && n.isStreaming,
  );
  for (const p of processors) {
    const what = `transformWithState(${p.processorName})`;
    if (mode === 'complete') {
      throw new UnsupportedOperationError(
        `Complete output mode is not supported with ${what}; use append or update.`,
      );
    }
    const watermarked = p.input.schema.fields.some(
      (f) => f.metadata?.eventTimeDelayMicros !== undefined,
    );
    if (p.timeMode === 'eventTime' && !watermarked) {
      throw new UnsupportedOperationError(
        `${what} with timeMode 'eventTime' needs a watermark on its input (mode: ${mode}); add withWatermark on the event-time column before groupBy.`,
      );
    }
  }
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
  aggregates: readonly Aggregate[],
  mode: OutputMode,
): void {
  for (const node of allNodes(plan)) {
    if (
      node.kind === 'sort' &&
      node.isStreaming &&
      !(mode === 'complete' && aggregates.some((agg) => allNodes(node).includes(agg)))
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
  if (node.kind === 'deduplicate') checkDeduplicate(node, mode);
  if (node.kind === 'window' && node.isStreaming) {
    throw new UnsupportedOperationError(
      `Non-time-based windows are not supported on streaming DataFrames/Datasets (operator: ${node.windowExprs.map(expressionName).join(', ')}, mode: ${mode}); ` +
        "use an event-time window(...) in groupBy, or compute the window function on the sink's output (a table).",
    );
  }
}

/** `dropDuplicatesWithinWatermark` forgets a key by the watermark, so its input must have one. */
function checkDeduplicate(node: Deduplicate, mode: OutputMode): void {
  if (!node.isStreaming || !node.withinWatermark) return;
  const watermarked = node.input.schema.fields.some(
    (f) => f.metadata?.eventTimeDelayMicros !== undefined,
  );
  if (watermarked) return;
  throw new UnsupportedOperationError(
    `dropDuplicatesWithinWatermark is not supported on a streaming DataFrame without a watermark (operator: ${operatorText(node)}, mode: ${mode}); ` +
      'declare the event-time column with withWatermark before it, or use dropDuplicates.',
  );
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
    checkStreamStreamJoin(node, mode);
    return;
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

/** Spark's names of the join types in its messages. */
const JOIN_NAMES: Record<Join['joinType'], string> = {
  inner: 'Inner',
  left: 'LeftOuter',
  right: 'RightOuter',
  full: 'FullOuter',
  left_semi: 'LeftSemi',
  left_anti: 'LeftAnti',
};

/**
 * Spark's rules for a join of two streams: append mode only; inner joins always (without a
 * watermark their state grows without bound); outer and semi joins only when the watermark can
 * evict the side whose unmatched rows they emit (a left semi join's left side), since those rows
 * are emitted when no match can come any more: a watermark on a join key, or a watermark on the
 * other side with a time range that bounds the preserved side's time. Left anti joins are refused.
 * Stateful operators may sit below the join and above it, in append mode (Spark 3.5 and later; an
 * aggregation in another mode is refused by the chain check): each drops rows as late only by its
 * input watermark of the previous batch, so the rows an operator beneath emits when this batch's
 * watermark closes them, and the unmatched rows an outer join emits at eviction (its output
 * watermark lags by the range's reach), are never late above it (watermark-propagation.ts).
 */
function checkStreamStreamJoin(node: Join, mode: OutputMode): void {
  const name = JOIN_NAMES[node.joinType];
  if (mode !== 'append') {
    throw new UnsupportedOperationError(
      `Join between two streaming DataFrames is not supported in ${mode} output mode, only in append output mode (operator: join ${name}).`,
    );
  }
  if (node.joinType === 'left_anti') {
    throw new UnsupportedOperationError(
      `${name} join between two streaming DataFrames is not supported (mode: ${mode}); use a left outer join and keep the rows whose right side is null.`,
    );
  }
  const eviction = joinStateEviction(node);
  const evicts = (side: 'left' | 'right') =>
    eviction.key !== undefined || eviction[side] !== undefined;
  const needs: ('left' | 'right')[] =
    node.joinType === 'full'
      ? ['left', 'right']
      : node.joinType === 'right'
        ? ['right']
        : node.joinType === 'inner'
          ? []
          : ['left'];
  const missing = needs.filter((side) => !evicts(side));
  if (missing.length > 0)
    throw new UnsupportedOperationError(missingBoundMessage(name, missing, mode));
}

/** What a join needs so that the watermark can evict `missing` sides, in Spark's words and ours. */
function missingBoundMessage(
  name: string,
  missing: readonly ('left' | 'right')[],
  mode: OutputMode,
): string {
  const other = (side: 'left' | 'right') => (side === 'left' ? 'right' : 'left');
  const wants = missing.map(
    (side) =>
      `a watermark on the ${other(side)} side and a range condition bounding the ${side} side's event time by it (e.g. ${side === 'left' ? 'leftTime >= rightTime - interval' : 'rightTime >= leftTime - interval'})`,
  );
  return (
    `Stream-stream ${name} join between two streaming DataFrames is not supported without a watermark in the join keys, or ${wants.join(', and ')} (mode: ${mode}): ` +
    `the ${missing.join(' and ')} side's rows are emitted only once the watermark guarantees that no match can come. ` +
    'Add withWatermark on both sides and join on an event-time range or on equal windows.'
  );
}
