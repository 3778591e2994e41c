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
 * Stage 1 ships rows, not partial aggregates: a per-batch partial result would have to merge
 * exactly for every aggregate (avg, percentiles, first/last, collect_list) and would hide the event
 * times stage 2 needs to drop late rows by its own watermark, as the unsplit query does.
 */
import { AnalysisError, UnsupportedOperationError } from '../errors.js';
import type { Expression } from '../expr/expression.js';
import { containsExpression } from '../expr/expression.js';
import type { SourceFactory } from '../sources/source.js';
import type { StructType } from '../types/data-types.js';
import { inputsOf, type LogicalPlan, newPlanId, type StreamingRelation } from './logical-plan.js';
import { project, watermark } from './plan-builder.js';
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
  if (operator.kind === 'join') {
    throw new UnsupportedOperationError(
      'a stream-stream join cannot be split into stages yet: both sides would need repartitioning by the join keys onto one topic. Run the query with one shard, or key both source topics by the join key.',
    );
  }
  const keys = keyIndexes(operator);
  const name = describe(operator);
  const carried = carriedPartitionColumns(operator.input);
  const declared = declaredIndexes(operator.input, options.partitionedBy ?? []);
  if (keys.some((k) => carried.has(k))) {
    return {
      kind: 'single',
      reason: `${name} is aligned: it is keyed by the source's partitioning column`,
    };
  }
  if (declared.length > 0 && declared.every((k) => keys.includes(k))) {
    return { kind: 'single', reason: `${name} is aligned with the declared partitioning` };
  }
  const stage1 = stage1Plan(operator);
  const keyColumns = keys.map((k) => operator.input.schema.fields[k].name);
  return {
    kind: 'split',
    operator: name,
    reason: `${name} is not keyed by the source's partitioning, so its rows are repartitioned by (${keyColumns.join(', ')})`,
    stage1,
    keyColumns,
    stage2: (input) => rebuildPath(path, stage2Input(input, stage1.schema, keyColumns)),
  };
}

/** Root to the first stateful operator in data-flow order (the one nearest the source). */
function pathToFirstStatefulOperator(plan: LogicalPlan): LogicalPlan[] {
  const below = streamingInput(plan);
  const rest = below ? pathToFirstStatefulOperator(below) : [];
  if (rest.some(isStateful)) return [plan, ...rest];
  return isStateful(plan) ? [plan] : [];
}

/** The one streaming input a node reads, if it has exactly one. */
function streamingInput(plan: LogicalPlan): LogicalPlan | undefined {
  const streaming = inputsOf(plan).filter((p) => p.isStreaming);
  if (streaming.length > 1 && plan.kind === 'union') {
    throw new UnsupportedOperationError(
      'a union of streams cannot be split into stages yet: each side would need its own stage 1. Run the query with one shard.',
    );
  }
  return streaming.length === 1 ? streaming[0] : undefined;
}

function isStateful(plan: LogicalPlan): plan is Keyed | Extract<LogicalPlan, { kind: 'join' }> {
  switch (plan.kind) {
    case 'aggregate':
    case 'deduplicate':
    case 'transformWithState':
      return plan.isStreaming;
    case 'join':
      return plan.left.isStreaming && plan.right.isStreaming;
    default:
      return false;
  }
}

/** The operator's key, as positions in its input; window keys left out (they follow event time). */
function keyIndexes(operator: Keyed): number[] {
  switch (operator.kind) {
    case 'deduplicate':
      return [...operator.keyIndexes];
    case 'transformWithState':
      return [...operator.keyIndices];
    case 'aggregate': {
      const scope = planScope(operator.input);
      return operator.groupBy.flatMap((e) => {
        const inner = e.kind === 'alias' ? e.child : e;
        if (inner.kind === 'window' || inner.kind === 'sessionWindow') return [];
        if (inner.kind !== 'column' || inner.path.length !== 1) {
          throw new AnalysisError(
            `grouping key ${JSON.stringify(e)} is computed, so the repartition stage cannot key its records by a column of stage 1's rows; compute it in a select (with an alias) before the groupBy.`,
          );
        }
        return [scope.resolve(inner).index];
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
      return carriedPartitionColumns(plan.input);
    case 'project': {
      if (plan.generatorIndex !== undefined) return new Set();
      const below = carriedPartitionColumns(plan.input);
      const scope = planScope(plan.input);
      const out = new Set<number>();
      plan.exprs.forEach((e, i) => {
        const ref = passedThrough(e);
        if (ref && ref.path.length === 1 && below.has(scope.resolve(ref).index)) out.add(i);
      });
      return out;
    }
    default:
      return new Set();
  }
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
 * Stage 1: the operator's input; for an aggregation only the columns its expressions use (and the
 * event-time column), since stage 2 needs no others. Dedup and transformWithState keep whole rows.
 */
function stage1Plan(operator: Keyed): LogicalPlan {
  const input = operator.input;
  if (operator.kind !== 'aggregate') return input;
  const used = usedColumns(input, [...operator.groupBy, ...operator.aggregates]);
  if (used === undefined || used.length === input.schema.fields.length) return input;
  return project(
    input,
    used.map((i) => ({ kind: 'column', path: [input.schema.fields[i].name] })),
  );
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

/** The nodes of `path` (root first, operator last) rebuilt with the operator reading `input`. */
function rebuildPath(path: readonly LogicalPlan[], input: LogicalPlan): LogicalPlan {
  const [node, ...below] = path;
  const child = below.length === 0 ? input : rebuildPath(below, input);
  return withStreamingInput(node, child);
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
