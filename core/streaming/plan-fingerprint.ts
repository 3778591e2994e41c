/**
 * The plan fingerprint: a readable description of every parameter that shapes a query's state. It is
 * recorded when a checkpoint is created; restarting with a different one would read state of another
 * shape, or mix windows of two lengths, so it is refused.
 *
 * It lists, in the physical planner's order (the order operator ids follow):
 * - each stateful aggregation: its key expressions (a time window with its duration, slide and
 *   start; a session window with its gap, or the expression giving it) and its aggregate functions
 *   with their input expressions, each with its output type;
 * - each streaming deduplication: which kind (`dedupe`, `dedupeWithinWatermark`) and its key
 *   columns with their types;
 * - each join of two streams: its type, its condition (the keys and the time bounds) and the
 *   schema of the rows each side keeps;
 * - each stateful processor (transformWithState): its class, grouping keys, time mode and state
 *   variables (name, kind and types; the TTL may change, as in Spark);
 * - each watermark's event-time column. The delay is left out: as in Spark, it only decides how far
 *   the watermark trails the events, which a restart may change;
 * - the state partition count.
 *
 * Fingerprints are versioned (`v2 | ...`). A checkpoint of an earlier Sluice holds the first format
 * (operators' key and value columns, and the partition count); it is accepted when the query still
 * has that description, since that format cannot tell, say, window lengths apart.
 */
import { CheckpointError } from '../errors.js';
import type { PhysicalPlan } from '../exec/physical-planner.js';
import type { Expression } from '../expr/expression.js';
import { expressionName } from '../expr/expression-name.js';
import {
  type Aggregate,
  type Deduplicate,
  isStatefulAggregate,
  type Join,
  type LogicalPlan,
  type TransformWithState,
  type Watermark,
} from '../plan/logical-plan.js';
import { declarationText } from '../plan/state-variable-declarations.js';
import { typeName } from '../types/data-types.js';

const VERSION = 'v2';
const SEPARATOR = ' | ';

/** Describes what `plan` keeps in state, split into `numStatePartitions` partitions. */
export function planFingerprint(plan: LogicalPlan, numStatePartitions: number): string {
  const { operators, watermarks } = statefulNodes(plan);
  return [
    VERSION,
    ...operators.map((op, i) => `#${i} ${operatorText(op)}`),
    ...watermarks.map((w, i) => `watermark #${i} on ${w.input.schema.fields[w.columnIndex].name}`),
    `partitions: ${numStatePartitions}`,
  ].join(SEPARATOR);
}

/**
 * Refuses to run `plan` on a checkpoint recorded with another fingerprint, naming what changed.
 * `physical` is the plan as planned, for checkpoints that hold the first fingerprint format.
 */
export function checkPlanFingerprint(
  recorded: string,
  plan: LogicalPlan,
  physical: PhysicalPlan,
  numStatePartitions: number,
  location: string,
): void {
  const current = recorded.startsWith(`${VERSION}${SEPARATOR}`)
    ? planFingerprint(plan, numStatePartitions)
    : firstFormatFingerprint(physical, numStatePartitions);
  if (recorded === current) return;
  throw new CheckpointError(
    `The query's stateful operators changed since checkpoint ${location} was created (${changes(recorded, current)}): ` +
      `it holds state for [${recorded}], the query now has [${current}]. ` +
      'Start the changed query on a new checkpointLocation.',
  );
}

/** The parts of two fingerprints that differ, as `was X, now Y`. */
function changes(recorded: string, current: string): string {
  const was = recorded.split(SEPARATOR);
  const now = current.split(SEPARATOR);
  const differing: string[] = [];
  for (let i = 0; i < Math.max(was.length, now.length); i++) {
    if (was[i] !== now[i]) differing.push(`was ${was[i] ?? 'nothing'}, now ${now[i] ?? 'nothing'}`);
  }
  return differing.join('; ');
}

/** The fingerprint of checkpoints written before version 2. */
function firstFormatFingerprint(physical: PhysicalPlan, numStatePartitions: number): string {
  const operators = physical.statefulOperators.map(
    (op) => `#${op.operatorId} ${op.stateDescription}`,
  );
  return `${operators.join('; ') || 'stateless'}; partitions: ${numStatePartitions}`;
}

/**
 * The streaming nodes that keep state: aggregations, deduplications, joins of two streams, stateful
 * processors.
 */
type StatefulNode = Aggregate | Deduplicate | Join | TransformWithState;

/** Stateful nodes and watermarks, children first, as the physical planner numbers them. */
function statefulNodes(plan: LogicalPlan): {
  operators: StatefulNode[];
  watermarks: Watermark[];
} {
  const operators: StatefulNode[] = [];
  const watermarks: Watermark[] = [];
  const visit = (node: LogicalPlan): void => {
    for (const input of inputsOf(node)) visit(input);
    const keepsState =
      isStatefulAggregate(node) ||
      ((node.kind === 'deduplicate' || node.kind === 'transformWithState') && node.isStreaming);
    if (keepsState) operators.push(node);
    if (node.kind === 'join' && node.left.isStreaming && node.right.isStreaming)
      operators.push(node);
    if (node.kind === 'watermark') watermarks.push(node);
  };
  visit(plan);
  return { operators, watermarks };
}

function operatorText(node: StatefulNode): string {
  switch (node.kind) {
    case 'aggregate':
      return aggregateText(node);
    case 'deduplicate':
      return deduplicateText(node);
    case 'join':
      return joinText(node);
    case 'transformWithState':
      return processorText(node);
  }
}

/** `dedupe(keys: user: string, ts: timestamp)`. */
function deduplicateText(node: Deduplicate): string {
  const keys = node.keyIndexes.map((i) => {
    const f = node.schema.fields[i];
    return `${f.name}: ${typeName(f.dataType)}`;
  });
  return `${node.withinWatermark ? 'dedupeWithinWatermark' : 'dedupe'}(keys: ${keys.join(', ')})`;
}

/**
 * `join(left_outer on ((a = b) AND (t >= (u - 1 hours))); left: struct<...>; right: struct<...>)`:
 * the join type, its keys and time bounds, and the rows each side holds in state.
 */
function joinText(node: Join): string {
  const on = node.usingColumns
    ? `using ${node.usingColumns.join(', ')}`
    : node.condition
      ? expressionText(node.condition)
      : 'true';
  return `join(${node.joinType} on ${on}; left: ${typeName(node.left.schema)}; right: ${typeName(node.right.schema)})`;
}

function inputsOf(node: LogicalPlan): readonly LogicalPlan[] {
  switch (node.kind) {
    case 'relation':
    case 'streamingRelation':
      return [];
    case 'union':
      return node.inputs;
    case 'join':
      return [node.left, node.right];
    case 'transformWithState':
      return node.initialState ? [node.input, node.initialState.plan] : [node.input];
    default:
      return [node.input];
  }
}

/** `transformWithState(Sessions; keys: user: string; timeMode: eventTime; state: events: list<any>)`. */
function processorText(node: TransformWithState): string {
  const keys = node.keyIndices.map((i) => {
    const f = node.input.schema.fields[i];
    return `${f.name}: ${typeName(f.dataType)}`;
  });
  const state = node.stateVariables.map(declarationText).join(', ') || 'none';
  return `transformWithState(${node.processorName}; keys: ${keys.join(', ')}; timeMode: ${node.timeMode}; state: ${state})`;
}

/** `aggregate(keys: window(ts, 10 minutes, 10 minutes, 0 µs): struct<...>; values: count(*) AS n: long)`. */
function aggregateText(node: Aggregate): string {
  const typed = (e: Expression, i: number) =>
    `${expressionText(e)}: ${typeName(node.schema.fields[i].dataType)}`;
  const keys = node.groupBy.map((e, i) => typed(e, i));
  const values = node.aggregates.map((e, i) => typed(e, node.groupBy.length + i));
  return `aggregate(keys: ${keys.join(', ')}; values: ${values.join(', ')})`;
}

/** An expression with every parameter that changes its value (unlike its output name). */
function expressionText(e: Expression): string {
  switch (e.kind) {
    case 'column':
      return e.path.join('.');
    case 'literal':
      return e.dataType.kind === 'interval'
        ? expressionName(e)
        : `${String(e.value)}:${typeName(e.dataType)}`;
    case 'alias':
      return `${expressionText(e.child)} AS ${e.name}`;
    case 'binary':
      return `(${expressionText(e.left)} ${e.op} ${expressionText(e.right)})`;
    case 'not':
      return `(NOT ${expressionText(e.child)})`;
    case 'isNull':
      return `(${expressionText(e.child)} IS ${e.negated ? 'NOT ' : ''}NULL)`;
    case 'cast':
      return `cast(${expressionText(e.child)} AS ${typeName(e.to)})`;
    case 'caseWhen':
      return `CASE ${e.branches.map((b) => `WHEN ${expressionText(b.when)} THEN ${expressionText(b.then)}`).join(' ')}${e.otherwise ? ` ELSE ${expressionText(e.otherwise)}` : ''} END`;
    case 'call':
      return `${e.name}(${e.args.map(expressionText).join(', ')}${e.options ? `, ${optionsText(e.options)}` : ''})`;
    case 'aggregate': {
      const args = e.args.length === 0 ? '*' : e.args.map(expressionText).join(', ');
      return `${e.fn}(${e.distinct ? 'DISTINCT ' : ''}${args})${e.ignoreNulls ? ' IGNORE NULLS' : ''}`;
    }
    case 'window':
      return `window(${expressionText(e.timeColumn)}, ${durationText(e.durationMicros)}, ${durationText(e.slideMicros)}, ${durationText(e.startMicros)})`;
    case 'sessionWindow': {
      const gap =
        e.gap.kind === 'static'
          ? durationText(e.gap.micros)
          : `gap: ${expressionText(e.gap.expression)}`;
      return `session_window(${expressionText(e.timeColumn)}, ${gap})`;
    }
    case 'explode':
      return `explode${e.outer ? '_outer' : ''}(${expressionText(e.child)})`;
    case 'windowFunction':
      // refused in streams (unsupported-operation-checker.ts); named for completeness
      return expressionName(e);
  }
}

/** A function's non-expression arguments (a schema, a format) as JSON. */
function optionsText(options: Readonly<Record<string, unknown>>): string {
  return JSON.stringify(options, (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
}

const UNITS: readonly [string, number][] = [
  ['days', 86_400_000_000],
  ['hours', 3_600_000_000],
  ['minutes', 60_000_000],
  ['seconds', 1_000_000],
  ['ms', 1_000],
];

/** `10 minutes`: microseconds in the largest unit that holds them exactly. */
function durationText(micros: number): string {
  const unit = UNITS.find(([, size]) => micros !== 0 && micros % size === 0);
  return unit ? `${micros / unit[1]} ${unit[0]}` : `${micros} µs`;
}
