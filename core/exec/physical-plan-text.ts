/**
 * The physical plan as `explain()` prints it under `== Physical Plan ==`: one line per operator, its
 * inputs below it (tree-text.ts). Each line names the operator the planner chose for a logical node
 * and what it runs: a row operator shows the `RowAdapter` above it, through which it runs in a
 * plan of column batches; a stateful operator shows its operatorId, its state stores, the output
 * mode and the watermark it runs under (the watermark nodes that feed it event time, or the
 * stateful operators beneath it that pass it on).
 *
 * The printer walks the logical plan and asks the physical plan which operator each node became,
 * so a new kind of node is one new case of `operatorLine`.
 */
import { expressionsText, expressionText } from '../expr/expression-text.js';
import { columnsText, watermarkText } from '../plan/logical-plan-text.js';
import { allNodes, inputsOf, type LogicalPlan, type Watermark } from '../plan/logical-plan.js';
import { type TextTree, treeLines } from '../plan/tree-text.js';
import type { OutputMode } from '../sinks/sink.js';
import { ExecutionError } from '../errors.js';
import type { PhysicalOperator } from './physical-operator.js';
import type { PhysicalPlan } from './physical-planner.js';
import { RowAdapterExec } from './row-adapter-exec.js';
import { SessionWindowAggregateExec } from './session-window-aggregate-exec.js';
import { StatefulAggregateExec } from './stateful-aggregate-exec.js';
import { StatefulDeduplicateExec } from './stateful-deduplicate-exec.js';
import type { StatefulOperator } from './stateful-operator.js';
import { StatefulSessionWindowAggregateExec } from './stateful-session-window-aggregate-exec.js';
import { StreamingSymmetricHashJoinExec } from './streaming-symmetric-hash-join-exec.js';
import { TransformWithStateExec } from './transform-with-state-exec.js';
import { WatermarkExec } from './watermark-exec.js';

/** What the printer reads: the logical plan, what it was planned as, and a stream's output mode. */
interface Planned {
  readonly physical: PhysicalPlan;
  readonly outputMode: OutputMode | undefined;
  /** The logical watermark nodes, by watermarkId. */
  readonly watermarkNodes: ReadonlyMap<number, Watermark>;
}

/**
 * The lines of the physical plan `physical` that `logical` was planned as, its root first;
 * `outputMode` is the output mode of a stream (none for a batch query).
 */
export function physicalPlanLines(
  logical: LogicalPlan,
  physical: PhysicalPlan,
  outputMode?: OutputMode,
): string[] {
  const watermarkNodes = new Map<number, Watermark>();
  for (const node of allNodes(logical)) {
    const op = physical.operators.get(node.id);
    if (node.kind === 'watermark' && op instanceof WatermarkExec)
      watermarkNodes.set(op.watermarkId, node);
  }
  return treeLines(physicalTree(logical, { physical, outputMode, watermarkNodes }));
}

function physicalTree(node: LogicalPlan, planned: Planned): TextTree {
  const op = planned.physical.operators.get(node.id);
  if (!op)
    throw new ExecutionError(
      `Internal error: plan node ${node.id} (${node.kind}) was not planned.`,
    );
  const inputs = inputsOf(node).map((input) => physicalTree(input, planned));
  const rowOperator = op instanceof RowAdapterExec;
  const tree = { line: operatorLine(node, op, planned, rowOperator), inputs };
  return rowOperator ? { line: `RowAdapter ${columnsText(node.schema)}`, inputs: [tree] } : tree;
}

/** The line of the operator `node` was planned as; `rowOperator` when it runs behind the row adapter. */
function operatorLine(
  node: LogicalPlan,
  op: PhysicalOperator,
  planned: Planned,
  rowOperator: boolean,
): string {
  switch (node.kind) {
    case 'relation':
      return `Scan ${node.description}`;
    case 'streamingRelation':
      return `StreamingScan ${node.description}`;
    case 'project':
      return `${rowOperator ? 'Generate' : 'Project'} ${expressionsText(node.exprs)}`;
    case 'filter':
      return `Filter ${expressionText(node.condition)}`;
    case 'aggregate': {
      const keys = `keys=${expressionsText(node.groupBy)}, functions=${expressionsText(node.aggregates)}`;
      if (op instanceof StatefulAggregateExec)
        return `StatefulAggregate ${statefulText(op, planned)}, ${keys}`;
      if (op instanceof StatefulSessionWindowAggregateExec)
        return `StatefulSessionWindowAggregate ${statefulText(op, planned)}, ${keys}`;
      return op instanceof SessionWindowAggregateExec
        ? `SessionWindowAggregate ${keys}`
        : `HashAggregate${node.perBatch ? ' per batch' : ''} ${keys}`;
    }
    case 'deduplicate': {
      const keys = `keys=[${node.keyIndexes.map((i) => node.schema.fields[i].name).join(', ')}]`;
      return op instanceof StatefulDeduplicateExec
        ? `StreamingDeduplicate ${statefulText(op, planned)}, ${keys}${node.withinWatermark ? ', withinWatermark' : ''}`
        : `Deduplicate ${keys}`;
    }
    case 'transformWithState': {
      const keys = `keys=[${node.keyIndices.map((i) => node.input.schema.fields[i].name).join(', ')}]`;
      const what = `${node.processorName}, ${keys}, timeMode=${node.timeMode}`;
      return op instanceof TransformWithStateExec && op.operatorId >= 0
        ? `TransformWithState ${statefulText(op, planned)}, ${what}`
        : `TransformWithState ${what}`;
    }
    case 'watermark':
      return `EventTimeWatermark ${watermarkText(node.schema, node.columnIndex, node.delayMicros)}`;
    case 'union':
      return 'Union';
    case 'join': {
      const join = `${node.joinType}${node.condition ? `, ${expressionText(node.condition)}` : ''}${node.usingColumns ? `, using [${node.usingColumns.join(', ')}]` : ''}`;
      return op instanceof StreamingSymmetricHashJoinExec
        ? `StreamingSymmetricHashJoin ${statefulText(op, planned)}, ${join}`
        : `Join ${join}`;
    }
    case 'sort':
      return `Sort [${node.orders.map((o) => `${expressionText(o.expr)} ${o.ascending ? 'ASC' : 'DESC'}`).join(', ')}]`;
    case 'window':
      return `Window [${node.windowExprs.map(expressionText).join(', ')}]`;
    case 'limit':
      return `Limit ${node.n}`;
  }
}

/**
 * What every stateful operator's line shows: `operatorId=0, stores=[default], outputMode=append,
 * watermark=[ts, delay 10 minutes]` (the watermark `none` when nothing beneath it sets one).
 */
function statefulText(op: StatefulOperator, planned: Planned): string {
  const sources = (planned.physical.watermarkInputs[op.operatorId] ?? []).map((input) => {
    if (input.kind === 'stateful') return `from operator ${input.operatorId}`;
    const node = planned.watermarkNodes.get(input.watermarkId);
    if (!node)
      throw new ExecutionError(`Internal error: watermark ${input.watermarkId} has no plan node.`);
    return watermarkText(node.schema, node.columnIndex, node.delayMicros);
  });
  return [
    `operatorId=${op.operatorId}`,
    `stores=[${op.storeNames.join(', ')}]`,
    ...(planned.outputMode ? [`outputMode=${planned.outputMode}`] : []),
    `watermark=${sources.length === 0 ? 'none' : `[${sources.join('; ')}]`}`,
  ].join(', ');
}
