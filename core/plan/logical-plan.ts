/**
 * The logical plan: what a DataFrame is. A discriminated union of nodes, each carrying its output
 * schema (computed when the node is built, so a bad column name fails at the transformation that
 * mentions it, as in Spark) and whether it reads a stream.
 */
import type {
  Expression,
  ExplodeExpression,
  TimeWindowExpression,
  WindowExpression,
} from '../expr/expression.js';
import type { OutputMode } from '../sinks/sink.js';
import type { StructType } from '../types/data-types.js';
import type { Row } from '../types/row.js';
import type { StatefulProcessor, TimeMode } from './stateful-processor.js';
import type { StateVariableDeclaration } from './state-variable-declarations.js';

/** The join types of `df.join(other, on, how)`. */
export type JoinType = 'inner' | 'left' | 'right' | 'full' | 'left_semi' | 'left_anti';

/** One key of a sort. */
export interface SortOrder {
  readonly expr: Expression;
  readonly ascending: boolean;
  readonly nullsFirst: boolean;
}

/** Provides the rows of a bounded relation; called each time the plan runs (once per batch in a stream). */
export type RelationScan = () => Promise<Row[]>;

/** Fields every node has. */
interface PlanNode {
  /** Unique per plan node; also identifies a DataFrame for `df.col(...)`. */
  readonly id: number;
  readonly schema: StructType;
  readonly isStreaming: boolean;
}

/** A bounded table: in-memory rows or files. */
export interface Relation extends PlanNode {
  readonly kind: 'relation';
  readonly description: string;
  readonly scan: RelationScan;
  /**
   * The directory, file or table the rows are read from, normalized (api/data-locations.ts), so a
   * writer can refuse to overwrite its own input; none for rows that live in memory.
   */
  readonly location?: string;
}

/** An unbounded table read from a streaming source; its rows arrive per micro-batch. */
export interface StreamingRelation extends PlanNode {
  readonly kind: 'streamingRelation';
  readonly description: string;
  /** Creates the source when a query starts (given its checkpoint metadata directory). */
  readonly source: import('../sources/source.js').SourceFactory;
  /**
   * The columns whose values decide which source partition a row comes from (a Kafka source's
   * `key`); none when unknown. The stage split (stage-split.ts) reads it.
   */
  readonly partitionedBy?: readonly string[];
}

/** `select`: one output column per expression (stars already expanded); at most one generator. */
export interface Project extends PlanNode {
  readonly kind: 'project';
  readonly input: LogicalPlan;
  readonly exprs: readonly Expression[];
  /** The position in `exprs` of the generator, if any: an `explode`, or a sliding `window()`. */
  readonly generatorIndex?: number;
}

/** `filter` / `where`. */
export interface Filter extends PlanNode {
  readonly kind: 'filter';
  readonly input: LogicalPlan;
  readonly condition: Expression;
}

/** `groupBy(keys).agg(aggregates)`: output is the keys then the aggregates. */
export interface Aggregate extends PlanNode {
  readonly kind: 'aggregate';
  readonly input: LogicalPlan;
  readonly groupBy: readonly Expression[];
  readonly aggregates: readonly Expression[];
  /**
   * Folds each micro-batch's rows alone and keeps no state: stage 1 of an aggregation split at a
   * repartition stage (partial-aggregation.ts). A stream's aggregate otherwise keeps its groups.
   */
  readonly perBatch?: boolean;
}

/** `withWatermark(column, delay)`: marks the event-time column; rows pass through unchanged. */
export interface Watermark extends PlanNode {
  readonly kind: 'watermark';
  readonly input: LogicalPlan;
  readonly columnIndex: number;
  readonly delayMicros: number;
}

/** `union` (by position, keeps duplicates, like Spark's union / UNION ALL). */
export interface Union extends PlanNode {
  readonly kind: 'union';
  readonly inputs: readonly LogicalPlan[];
}

/** A join on an optional condition; `usingColumns` joins on equally named columns and keeps one copy. */
export interface Join extends PlanNode {
  readonly kind: 'join';
  readonly left: LogicalPlan;
  readonly right: LogicalPlan;
  readonly joinType: JoinType;
  readonly condition?: Expression;
  readonly usingColumns?: readonly string[];
}

/** `orderBy`. */
export interface Sort extends PlanNode {
  readonly kind: 'sort';
  readonly input: LogicalPlan;
  readonly orders: readonly SortOrder[];
}

/**
 * Window functions (`fn.over(window)`, `fn OVER (...)`): every input column, then one column per
 * window expression, computed over each row's window. A table-only node: streams refuse it.
 */
export interface Window extends PlanNode {
  readonly kind: 'window';
  readonly input: LogicalPlan;
  readonly windowExprs: readonly WindowExpression[];
}

/** `limit(n)`. */
export interface Limit extends PlanNode {
  readonly kind: 'limit';
  readonly input: LogicalPlan;
  readonly n: number;
}

/**
 * `dropDuplicates(cols)`, `dropDuplicatesWithinWatermark(cols)` and `distinct()`: keeps the first
 * row of each distinct value of the key columns, whole.
 */
export interface Deduplicate extends PlanNode {
  readonly kind: 'deduplicate';
  readonly input: LogicalPlan;
  /** The positions in the input (and output) schema of the key columns, in the order named. */
  readonly keyIndexes: readonly number[];
  /**
   * In a stream, how long a key is remembered: `false` until the watermark passes the event time
   * among the keys (for ever when none is), `true` until it passes the first occurrence's event
   * time plus the watermark delay (`dropDuplicatesWithinWatermark`).
   */
  readonly withinWatermark: boolean;
}

/**
 * `groupBy(keys).transformWithState(processor, ...)`: a user's stateful processor run per grouping
 * key; its output rows have the declared schema.
 */
export interface TransformWithState extends PlanNode {
  readonly kind: 'transformWithState';
  readonly input: LogicalPlan;
  /** The positions in the input of the grouping key columns. */
  readonly keyIndices: readonly number[];
  readonly processor: StatefulProcessor;
  /** How errors and progress name the processor: its class name. */
  readonly processorName: string;
  readonly timeMode: TimeMode;
  readonly outputMode: OutputMode;
  /** What the processor's `init` declared (state-variable-declarations.ts). */
  readonly stateVariables: readonly StateVariableDeclaration[];
  /** Rows that set up each key's state in the first batch, grouped by their key columns. */
  readonly initialState?: { readonly plan: LogicalPlan; readonly keyIndices: readonly number[] };
  /**
   * The output column that carries event time to the operators above (`eventTimeColumnName`);
   * no emitted row may be older than the watermark.
   */
  readonly eventTimeColumnIndex?: number;
}

/** Any logical plan node. */
export type LogicalPlan =
  | Relation
  | StreamingRelation
  | Project
  | Filter
  | Aggregate
  | Watermark
  | Union
  | Join
  | Sort
  | Window
  | Limit
  | Deduplicate
  | TransformWithState;

/** The direct inputs of a node. */
export function inputsOf(plan: LogicalPlan): readonly LogicalPlan[] {
  switch (plan.kind) {
    case 'relation':
    case 'streamingRelation':
      return [];
    case 'project':
    case 'filter':
    case 'aggregate':
    case 'watermark':
    case 'sort':
    case 'window':
    case 'limit':
    case 'deduplicate':
      return [plan.input];
    case 'union':
      return plan.inputs;
    case 'join':
      return [plan.left, plan.right];
    case 'transformWithState':
      return plan.initialState ? [plan.input, plan.initialState.plan] : [plan.input];
  }
}

/** Whether `plan` is a stream's aggregate that keeps its groups in state across micro-batches. */
export function isStatefulAggregate(plan: LogicalPlan): plan is Aggregate {
  return plan.kind === 'aggregate' && plan.isStreaming && !plan.perBatch;
}

/** Every node of the plan, root first. */
export function allNodes(plan: LogicalPlan): LogicalPlan[] {
  return [plan, ...inputsOf(plan).flatMap(allNodes)];
}

/**
 * The generator of a select, if it has one: an `explode` (one row per element) or a sliding
 * `window()` (one row per window the time falls in, as Spark expands it).
 */
export function generatorOf(p: Project): ExplodeExpression | TimeWindowExpression | undefined {
  const e = p.generatorIndex === undefined ? undefined : p.exprs[p.generatorIndex];
  if (!e) return undefined;
  const inner = e.kind === 'alias' ? e.child : e;
  return inner.kind === 'explode' || inner.kind === 'window' ? inner : undefined;
}

let nextPlanId = 1;

/** A fresh plan node id. */
export function newPlanId(): number {
  return nextPlanId++;
}
