/**
 * The stage split: where a query run as several shards must repartition its rows, and the two plans
 * either side of that point. A pure function over the logical plan (docs/repartition-stage.md).
 *
 * Each shard reads some partitions of the source. A keyed stateful operator (aggregation,
 * deduplication, transformWithState, a stream-stream join) is correct in a shard only when every row
 * of one key reaches that shard: its key must be **aligned** with the source's partitioning.
 * Precisely, a keyed operator is aligned when its key columns (grouping keys other than the event-time
 * window, dedup columns, the transformWithState key) include
 * - a column that carries the source's partitioning value: the relation's `partitionedBy` column (a
 *   Kafka source's `key`), passed to the operator unchanged through filters, watermarks and selects
 *   that refer to it plainly, rename it, or cast it to a string; or
 * - every column of a declared partitioning (`partitionedBy` of the split's options: the user's
 *   promise that rows equal in these columns sit in one source partition, e.g. a topic whose producer
 *   keys records by the user column the query parses out of the value).
 * Rows equal in such a column came from one partition, so one shard holds each group whole. A source
 * without partitioning (files, partitioned by path) aligns with nothing but a declaration.
 *
 * When the first stateful operator is not aligned, the plan splits right below it:
 *   stage 1: source -> the operators below it -> the columns it uses -> repartition sink, keyed by
 *            its key columns;
 *   stage 2: repartition source -> the event-time watermark again (if stage 1 had one) -> the
 *            stateful operator and everything above it -> the user's sink.
 * An aggregation whose functions all have partial values (count, sum, min, max, avg) ships partial
 * rows instead, one per group and batch (partial-aggregation.ts): stage 1 aggregates each batch
 * alone, stage 2 merges. Any other keyed operator, and an aggregation with another function
 * (first/last, collect_list, percentiles, a distinct count), ships the rows themselves.
 */
import { AnalysisError, UnsupportedOperationError } from '../errors.js';
import type { Expression } from '../expr/expression.js';
import { containsExpression } from '../expr/expression.js';
import type { SourceFactory } from '../sources/source.js';
import type { StructType } from '../types/data-types.js';
import {
  inputsOf,
  isStatefulAggregate,
  type LogicalPlan,
  newPlanId,
  type StreamingRelation,
} from './logical-plan.js';
import { project, watermark } from './plan-builder.js';
import { joinScope } from './join-scope.js';
import { freshName } from './fresh-name.js';
import { partialAggregation } from './partial-aggregation.js';
import { planScope } from './plan-scope.js';

/** What the split may know beyond the plan. */
export interface StageSplitOptions {
  /**
   * Columns (at the stateful operator's input) that together decide a row's source partition, as
   * the user declares it; none by default.
   */
  readonly partitionedBy?: readonly string[];
}

/** The source stage 2 reads: the repartition topic, as a source of stage 1's rows. */
export interface RepartitionInput {
  readonly description: string;
  readonly source: SourceFactory;
}

/** The outcome: nothing to split (and why), or the two stages. */
export type StageSplit =
  | { readonly kind: 'single'; readonly reason: string }
  | {
      readonly kind: 'split';
      /** The stateful operator the keys change at, e.g. `aggregate by (window, category)`. */
      readonly operator: string;
      readonly reason: string;
      /** Source to the rows the operator needs; its result goes to the repartition sink. */
      readonly stage1: LogicalPlan;
      /** The columns of stage 1's output that key the repartition records. */
      readonly keyColumns: readonly string[];
      /** The query of stage 2, over the repartition topic read by `input`. */
      stage2(input: RepartitionInput): LogicalPlan;
    };

/** The stateful operators that hold keyed state. */
type Keyed = Extract<LogicalPlan, { kind: 'aggregate' | 'deduplicate' | 'transformWithState' }>;

/** Splits `plan` where its keys stop being aligned with its source's partitioning. */
export function splitStages(plan: LogicalPlan, options: StageSplitOptions = {}): StageSplit {
  const path = pathToFirstStatefulOperator(plan);
  const operator = path[path.length - 1];
  if (!operator || !isStateful(operator)) {
    return { kind: 'single', reason: 'no stateful operator: every shard runs the whole query' };
  }
  if (operator.kind === 'join') return alignedJoin(operator);
  const carried = carriedPartitionColumns(operator.input);
  const keys = operatorKeys(operator, carried);
  const name = describe(operator);
  const columns = keys.flatMap((k) => (k.kind === 'column' ? [k.index] : []));
  const declared = declaredIndexes(operator.input, options.partitionedBy ?? []);
  if (columns.some((k) => carried.has(k))) {
    return {
      kind: 'single',
      reason: `${name} is aligned: it is keyed by the source's partitioning column`,
    };
  }
  if (declared.length > 0 && declared.every((k) => columns.includes(k))) {
    return { kind: 'single', reason: `${name} is aligned with the declared partitioning` };
  }
  const partial = operator.kind === 'aggregate' ? partialAggregation(operator) : undefined;
  const halves = partial ?? shippedRows(operator, keys);
  const { stage1, keyColumns } = halves;
  return {
    kind: 'split',
    operator: name,
    reason: `${name} is not keyed by the source's partitioning, so its ${partial ? 'partial rows' : 'rows'} are repartitioned by (${keyColumns.join(', ')})`,
    stage1,
    keyColumns,
    stage2: (input) =>
      rebuildPath(path.slice(0, -1), halves.stage2(stage2Input(input, stage1.schema, keyColumns))),
  };
}

/** The halves of an operator that ships its rows: stage 2 runs it over them. */
function shippedRows(operator: Keyed, keys: readonly OperatorKey[]) {
  const { stage1, keyColumns } = stage1Plan(operator, keys);
  const stage2Operator = withComputedKeysRead(operator, keys, keyColumns);
  return {
    stage1,
    keyColumns,
    stage2: (input: LogicalPlan) => withStreamingInput(stage2Operator, input),
  };
}

/**
 * A stream-stream join is not split (both sides would need repartitioning onto one topic): it runs
 * as shards only when an equality of the condition joins a partitioning column of each side, so
 * that matching rows come from the same partition number of topics keyed alike.
 */
function alignedJoin(join: Extract<LogicalPlan, { kind: 'join' }>): StageSplit {
  const left = carriedPartitionColumns(join.left);
  const right = carriedPartitionColumns(join.right);
  if (joinKeyPairs(join).some(([l, r]) => left.has(l) && right.has(r))) {
    return {
      kind: 'single',
      reason: "the stream-stream join is aligned: it joins the sides' partitioning columns",
    };
  }
  throw new UnsupportedOperationError(
    "a stream-stream join whose keys are not both sides' partitioning cannot be split into stages yet: both sides would need repartitioning by the join keys onto one topic. Run the query with one shard, or key both source topics by the join key (with equal partition counts) and join on the Kafka keys.",
  );
}

/** The (left, right) column positions the join's condition or using-columns equate. */
function joinKeyPairs(join: Extract<LogicalPlan, { kind: 'join' }>): [number, number][] {
  const width = join.left.schema.fields.length;
  if (join.usingColumns) {
    return join.usingColumns.map((name) => [
      join.left.schema.fields.findIndex((f) => f.name === name),
      join.right.schema.fields.findIndex((f) => f.name === name),
    ]);
  }
  const scope = joinScope(join.left, join.right);
  const pairs: [number, number][] = [];
  for (const c of join.condition ? conjuncts(join.condition) : []) {
    if (c.kind !== 'binary' || (c.op !== '=' && c.op !== '<=>')) continue;
    const a = passedThrough(c.left);
    const b = passedThrough(c.right);
    if (!a || !b || a.path.length !== 1 || b.path.length !== 1) continue;
    const [l, r] = [scope.resolve(a).index, scope.resolve(b).index].sort((x, y) => x - y);
    if (l < width && r >= width) pairs.push([l, r - width]);
  }
  return pairs;
}

function conjuncts(e: Expression): Expression[] {
  return e.kind === 'binary' && e.op === 'and'
    ? [...conjuncts(e.left), ...conjuncts(e.right)]
    : [e];
}

/** Root to the first stateful operator in data-flow order (the one nearest the source). */
function pathToFirstStatefulOperator(plan: LogicalPlan): LogicalPlan[] {
  const below = streamingInput(plan);
  const rest = below ? pathToFirstStatefulOperator(below) : [];
  if (rest.some(isStateful)) return [plan, ...rest];
  return isStateful(plan) ? [plan] : [];
}

/**
 * The one streaming input a node reads, if it has exactly one. A union of streams is read as a
 * whole by the operator above it (stage 1 runs the union), so only a stateful operator inside one
 * of its inputs stops the split.
 */
function streamingInput(plan: LogicalPlan): LogicalPlan | undefined {
  const streaming = inputsOf(plan).filter((p) => p.isStreaming);
  if (streaming.length > 1 && plan.kind === 'union' && streaming.some(hasStatefulOperator)) {
    throw new UnsupportedOperationError(
      'a union of streams with a stateful operator inside one of its inputs cannot be split into stages yet: each input would need its own stage 1. Run the query with one shard, or move the stateful operator above the union.',
    );
  }
  return streaming.length === 1 ? streaming[0] : undefined;
}

function hasStatefulOperator(plan: LogicalPlan): boolean {
  return isStateful(plan) || inputsOf(plan).some(hasStatefulOperator);
}

function isStateful(plan: LogicalPlan): plan is Keyed | Extract<LogicalPlan, { kind: 'join' }> {
  switch (plan.kind) {
    case 'aggregate':
      return isStatefulAggregate(plan);
    case 'deduplicate':
    case 'transformWithState':
      return plan.isStreaming;
    case 'join':
      return plan.left.isStreaming && plan.right.isStreaming;
    default:
      return false;
  }
}

/**
 * One key of a keyed operator: a column of its input, or a grouping expression computed from
 * several (stage 1 computes it, so stage 2 reads it as a column).
 */
type OperatorKey =
  | { readonly kind: 'column'; readonly index: number }
  | { readonly kind: 'computed'; readonly groupByIndex: number; readonly expression: Expression };

/**
 * The operator's keys, in order; window keys left out (they follow event time). A key that casts a
 * column of `carried` (the input's partitioning columns) to a string is that column.
 */
function operatorKeys(operator: Keyed, carried: ReadonlySet<number>): OperatorKey[] {
  const columns = (indexes: readonly number[]): OperatorKey[] =>
    indexes.map((index) => ({ kind: 'column', index }));
  switch (operator.kind) {
    case 'deduplicate':
      return columns(operator.keyIndexes);
    case 'transformWithState':
      return columns(operator.keyIndices);
    case 'aggregate': {
      const scope = planScope(operator.input);
      return operator.groupBy.flatMap((e, groupByIndex): OperatorKey[] => {
        const inner = e.kind === 'alias' ? e.child : e;
        if (inner.kind === 'window' || inner.kind === 'sessionWindow') return [];
        const ref = passedThrough(e);
        const index = ref && ref.path.length === 1 ? scope.resolve(ref).index : undefined;
        if (index !== undefined && (inner.kind === 'column' || carried.has(index))) {
          return [{ kind: 'column', index }];
        }
        return [{ kind: 'computed', groupByIndex, expression: inner }];
      });
    }
  }
}

/** The output positions of `plan` that carry its source's partitioning value unchanged. */
function carriedPartitionColumns(plan: LogicalPlan): Set<number> {
  switch (plan.kind) {
    case 'streamingRelation':
      return new Set(
        (plan.partitionedBy ?? []).map((name) =>
          plan.schema.fields.findIndex((f) => f.name === name),
        ),
      );
    case 'filter':
    case 'watermark':
    case 'deduplicate':
      return carriedPartitionColumns(plan.input);
    case 'aggregate':
      return carriedThrough(plan.input, plan.groupBy);
    case 'project':
      return plan.generatorIndex === undefined ? carriedThrough(plan.input, plan.exprs) : new Set();
    default:
      return new Set();
  }
}

/** The positions of `exprs` (evaluated over `input`) that pass on a column carrying the partitioning. */
function carriedThrough(input: LogicalPlan, exprs: readonly Expression[]): Set<number> {
  const below = carriedPartitionColumns(input);
  const scope = planScope(input);
  const out = new Set<number>();
  exprs.forEach((e, i) => {
    const ref = passedThrough(e);
    if (ref && ref.path.length === 1 && below.has(scope.resolve(ref).index)) out.add(i);
  });
  return out;
}

/** The column an expression passes on unchanged: plainly, renamed, or cast to string. */
function passedThrough(e: Expression): Extract<Expression, { kind: 'column' }> | undefined {
  const inner = e.kind === 'alias' ? e.child : e;
  if (inner.kind === 'column') return inner;
  if (inner.kind === 'cast' && inner.to.kind === 'string' && inner.child.kind === 'column') {
    return inner.child;
  }
  return undefined;
}

function declaredIndexes(input: LogicalPlan, names: readonly string[]): number[] {
  const scope = planScope(input);
  return names.map((name) => scope.resolve({ kind: 'column', path: [name] }).index);
}

/**
 * Stage 1 and the names of its key columns: the operator's input; for an aggregation only the
 * columns its expressions use (and the event-time column), followed by its computed keys, since
 * stage 2 needs no others. Dedup and transformWithState keep whole rows.
 */
function stage1Plan(
  operator: Keyed,
  keys: readonly OperatorKey[],
): { stage1: LogicalPlan; keyColumns: string[] } {
  const input = operator.input;
  const fields = input.schema.fields;
  const computed = keys.flatMap((k) => (k.kind === 'computed' ? [k] : []));
  const computedNames = new Map<number, string>();
  const keyColumns = (): string[] =>
    keys.map((k) =>
      k.kind === 'column' ? fields[k.index].name : computedNames.get(k.groupByIndex)!,
    );
  if (operator.kind !== 'aggregate') return { stage1: input, keyColumns: keyColumns() };
  const plain = operator.groupBy.filter((_, i) => !computed.some((k) => k.groupByIndex === i));
  const used = usedColumns(input, [...plain, ...operator.aggregates]) ?? [...fields.keys()];
  if (computed.length === 0 && used.length === fields.length) {
    return { stage1: input, keyColumns: keyColumns() };
  }
  const shipped = used.map((i) => fields[i].name);
  requireUniqueNames(shipped, operator);
  for (const k of computed) {
    computedNames.set(
      k.groupByIndex,
      freshName(operator.schema.fields[k.groupByIndex].name, shipped),
    );
  }
  const stage1 = project(input, [
    ...used.map((i): Expression => ({ kind: 'column', path: [fields[i].name] })),
    ...computed.map((k): Expression => ({
      kind: 'alias',
      child: k.expression,
      name: computedNames.get(k.groupByIndex)!,
    })),
  ]);
  return { stage1, keyColumns: keyColumns() };
}

function requireUniqueNames(names: readonly string[], operator: Keyed): void {
  const lower = names.map((n) => n.toLowerCase());
  const duplicate = lower.find((n, i) => lower.indexOf(n) !== i);
  if (duplicate !== undefined) {
    throw new AnalysisError(
      `${describe(operator)} reads two columns named '${duplicate}', which the repartition stage cannot ship as one row: rename one of them (alias) before the groupBy.`,
    );
  }
}

/** The operator of stage 2: its computed grouping keys read from stage 1's columns of them. */
function withComputedKeysRead(
  operator: Keyed,
  keys: readonly OperatorKey[],
  keyColumns: readonly string[],
): Keyed {
  if (operator.kind !== 'aggregate') return operator;
  const groupBy = [...operator.groupBy];
  keys.forEach((k, i) => {
    if (k.kind !== 'computed') return;
    const name = operator.schema.fields[k.groupByIndex].name;
    groupBy[k.groupByIndex] = {
      kind: 'alias',
      child: { kind: 'column', path: [keyColumns[i]] },
      name,
    };
  });
  return { ...operator, groupBy };
}

/** The input positions the expressions refer to, in input order; undefined when one is a star. */
function usedColumns(input: LogicalPlan, exprs: readonly Expression[]): number[] | undefined {
  const scope = planScope(input);
  const used = new Set<number>();
  input.schema.fields.forEach((f, i) => {
    if (f.metadata?.eventTimeDelayMicros !== undefined) used.add(i);
  });
  let star = false;
  for (const e of exprs) {
    containsExpression(e, (x) => {
      if (x.kind !== 'column') return false;
      if (x.path[0] === '*') star = true;
      else used.add(scope.resolve(x).index);
      return false;
    });
  }
  const names = [...used].map((i) => input.schema.fields[i].name.toLowerCase());
  if (star || new Set(names).size !== names.length) return undefined;
  return [...used].sort((a, b) => a - b);
}

/** The repartition topic as a relation, with stage 1's watermark restored on its event-time column. */
function stage2Input(
  input: RepartitionInput,
  schema: StructType,
  keyColumns: readonly string[],
): LogicalPlan {
  const relation: StreamingRelation = {
    kind: 'streamingRelation',
    id: newPlanId(),
    description: input.description,
    schema,
    source: input.source,
    isStreaming: true,
    partitionedBy: keyColumns.length === 1 ? keyColumns : undefined,
  };
  const eventTime = schema.fields.find((f) => f.metadata?.eventTimeDelayMicros !== undefined);
  if (!eventTime) return relation;
  return watermark(relation, eventTime.name, eventTime.metadata!.eventTimeDelayMicros!);
}

/** The nodes of `path` (root first) rebuilt with the last one reading `input`; `input` when none. */
function rebuildPath(path: readonly LogicalPlan[], input: LogicalPlan): LogicalPlan {
  if (path.length === 0) return input;
  const [node, ...below] = path;
  return withStreamingInput(node, rebuildPath(below, input));
}

function withStreamingInput(node: LogicalPlan, child: LogicalPlan): LogicalPlan {
  switch (node.kind) {
    case 'join':
      return node.left.isStreaming ? { ...node, left: child } : { ...node, right: child };
    case 'union':
    case 'relation':
    case 'streamingRelation':
      throw new Error(`internal: a ${node.kind} above the stage split`);
    default:
      return { ...node, input: child };
  }
}

function describe(operator: Keyed): string {
  const columns = (indexes: readonly number[]) =>
    indexes.map((i) => operator.input.schema.fields[i].name).join(', ');
  switch (operator.kind) {
    case 'aggregate':
      return `aggregate by (${operator.schema.fields
        .slice(0, operator.groupBy.length)
        .map((f) => f.name)
        .join(', ')})`;
    case 'deduplicate':
      return `dropDuplicates(${columns(operator.keyIndexes)})`;
    case 'transformWithState':
      return `transformWithState(${operator.processorName}) by (${columns(operator.keyIndices)})`;
  }
}
