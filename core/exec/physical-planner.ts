/**
 * Physical planning: turns a logical plan into runnable operators, choosing the streaming variant of
 * stateful operators when the plan runs as a micro-batch (aggregations, deduplications, session
 * windows, joins of two streams, stateful processors). Scan, project, filter, watermark and the
 * aggregates run on column batches; the other operators are row operators behind the row adapter.
 * Stateful operators and watermarks get ids from their position in a fixed traversal, so the same
 * query gets the same ids after a restart and finds its state again.
 */
import type { BatchClock } from '../expr/scope.js';
import { pruneJsonFields } from '../plan/json-field-pruning.js';
import { allNodes, isStatefulAggregate, type LogicalPlan } from '../plan/logical-plan.js';
import { sessionWindowKey } from '../plan/session-window-key.js';
import { DeduplicateExec } from './deduplicate-exec.js';
import { FilterExec } from './filter-exec.js';
import { GenerateExec } from './generate-exec.js';
import { HashAggregateExec } from './hash-aggregate-exec.js';
import { JoinExec } from './join-exec.js';
import { LimitExec } from './limit-exec.js';
import type { PhysicalOperator } from './physical-operator.js';
import { ProjectExec } from './project-exec.js';
import { RowAdapterExec } from './row-adapter-exec.js';
import { ScanExec } from './scan-exec.js';
import { SessionWindowAggregateExec } from './session-window-aggregate-exec.js';
import { SortExec } from './sort-exec.js';
import { StatefulAggregateExec } from './stateful-aggregate-exec.js';
import { StatefulDeduplicateExec } from './stateful-deduplicate-exec.js';
import { StatefulSessionWindowAggregateExec } from './stateful-session-window-aggregate-exec.js';
import { StreamingSymmetricHashJoinExec } from './streaming-symmetric-hash-join-exec.js';
import { TransformWithStateExec } from './transform-with-state-exec.js';
import { WindowExec } from './window-exec.js';
import type { StatefulOperator } from './stateful-operator.js';
import { UnionExec } from './union-exec.js';
import { WatermarkExec } from './watermark-exec.js';

/**
 * Where a stateful operator's event time comes from: a watermark node beneath it, or a stateful
 * operator beneath it (whose output carries its input watermark on, as every stateful operator's
 * does in Spark but a stream-stream join's), the nearest ones on each path down.
 */
export type WatermarkInput =
  | { readonly kind: 'watermark'; readonly watermarkId: number }
  | { readonly kind: 'stateful'; readonly operatorId: number };

/** A planned query: the root operator and the query's watermark operators. */
export interface PhysicalPlan {
  readonly root: PhysicalOperator;
  readonly watermarks: readonly WatermarkExec[];
  readonly statefulOperators: readonly StatefulOperator[];
  /**
   * Per stateful operator (by operatorId), the watermark nodes and stateful operators that feed it
   * event time: the plan's structure from which each operator's watermark is propagated. Nested
   * watermark nodes are not an outer one's input: the outer one redefines event time.
   */
  readonly watermarkInputs: readonly (readonly WatermarkInput[])[];
  /**
   * Per watermark node (by watermarkId), the ids of the streaming relations below it: the sources
   * whose own word on event time (Source.eventTimeReached) counts toward its maximum.
   */
  readonly watermarkSources: readonly (readonly number[])[];
  /** The operator planned for each logical node, by the node's id (what explain() prints). */
  readonly operators: ReadonlyMap<number, PhysicalOperator>;
}

/**
 * Plans `plan`, each `from_json` told the fields of its result the query reads
 * (plan/json-field-pruning.ts); `streaming` selects stateful operators that keep state across micro-batches; `clock`
 * is the batch processing time `current_timestamp()` reads.
 */
export function planPhysical(
  plan: LogicalPlan,
  streaming: boolean,
  clock: BatchClock,
): PhysicalPlan {
  const watermarks: WatermarkExec[] = [];
  const statefulOperators: StatefulOperator[] = [];
  const watermarkInputs: WatermarkInput[][] = [];
  const watermarkSources: number[][] = [];
  // The watermark inputs met so far under the node being built; each watermark or stateful node
  // collects its own input's apart, then stands alone for the nodes above it.
  let inputs: WatermarkInput[] = [];
  const buildCollecting = (node: LogicalPlan) => {
    const outer = inputs;
    inputs = [];
    const operator = build(node);
    const collected = inputs;
    inputs = outer;
    return { operator, collected };
  };
  const operators = new Map<number, PhysicalOperator>();
  const build = (node: LogicalPlan): PhysicalOperator => {
    const operator = buildNode(node);
    operators.set(node.id, operator);
    return operator;
  };
  const buildNode = (node: LogicalPlan): PhysicalOperator => {
    switch (node.kind) {
      case 'relation':
      case 'streamingRelation':
        return new ScanExec(node.id, node.description);
      case 'project':
        return node.generatorIndex === undefined
          ? new ProjectExec(node, build(node.input), clock)
          : new RowAdapterExec(node.schema, new GenerateExec(node, build(node.input), clock));
      case 'filter':
        return new FilterExec(node, build(node.input), clock);
      case 'aggregate': {
        const { operator: input, collected } = buildCollecting(node.input);
        const session = sessionWindowKey(node.groupBy);
        if (!streaming || !isStatefulAggregate(node)) {
          inputs.push(...collected);
          return session
            ? new SessionWindowAggregateExec(node, session, input, clock)
            : new HashAggregateExec(node, input, clock);
        }
        const id = statefulOperators.length;
        const op = session
          ? new StatefulSessionWindowAggregateExec(id, node, session, input, clock)
          : new StatefulAggregateExec(id, node, input, clock);
        statefulOperators.push(op);
        watermarkInputs.push(collected);
        inputs.push({ kind: 'stateful', operatorId: op.operatorId });
        return op;
      }
      case 'deduplicate': {
        if (!streaming || !node.isStreaming)
          return new RowAdapterExec(node.schema, new DeduplicateExec(node, build(node.input)));
        const { operator: input, collected } = buildCollecting(node.input);
        const op = new StatefulDeduplicateExec(statefulOperators.length, node, input);
        statefulOperators.push(op);
        watermarkInputs.push(collected);
        inputs.push({ kind: 'stateful', operatorId: op.operatorId });
        return op;
      }
      case 'watermark': {
        // the id is taken before the input is built, as it always was: ids name stored event times
        const watermarkId = watermarks.length;
        watermarkSources[watermarkId] = allNodes(node.input)
          .filter((n) => n.kind === 'streamingRelation')
          .map((n) => n.id);
        const { operator: input } = buildCollecting(node.input);
        const op = new WatermarkExec(watermarkId, node.delayMicros, node.columnIndex, input);
        watermarks.push(op);
        inputs.push({ kind: 'watermark', watermarkId });
        return op;
      }
      case 'union':
        return new RowAdapterExec(node.schema, new UnionExec(node.inputs.map(build)));
      case 'join': {
        if (!streaming || !node.left.isStreaming || !node.right.isStreaming) {
          return new RowAdapterExec(
            node.schema,
            new JoinExec(node, build(node.left), build(node.right), clock),
          );
        }
        const left = buildCollecting(node.left);
        const right = buildCollecting(node.right);
        const op = new StreamingSymmetricHashJoinExec(
          statefulOperators.length,
          node,
          left.operator,
          right.operator,
          clock,
        );
        statefulOperators.push(op);
        watermarkInputs.push([...left.collected, ...right.collected]);
        inputs.push({ kind: 'stateful', operatorId: op.operatorId });
        return op;
      }
      case 'sort':
        return new RowAdapterExec(node.schema, new SortExec(node, build(node.input), clock));
      case 'window':
        return new RowAdapterExec(node.schema, new WindowExec(node, build(node.input), clock));
      case 'limit':
        return new RowAdapterExec(node.schema, new LimitExec(node.n, build(node.input)));
      case 'transformWithState': {
        const { operator: input, collected } = buildCollecting(node.input);
        const initial = node.initialState && build(node.initialState.plan);
        if (!streaming || !node.isStreaming) {
          inputs.push(...collected);
          // on a batch DataFrame it keeps no state across runs: it is no stream's stateful operator
          return new TransformWithStateExec(-1, node, input, initial, clock);
        }
        const op = new TransformWithStateExec(
          statefulOperators.length,
          node,
          input,
          initial,
          clock,
        );
        statefulOperators.push(op);
        watermarkInputs.push(collected);
        inputs.push({ kind: 'stateful', operatorId: op.operatorId });
        return op;
      }
    }
  };
  return {
    root: build(pruneJsonFields(plan)),
    watermarks,
    statefulOperators,
    watermarkInputs,
    watermarkSources,
    operators,
  };
}
