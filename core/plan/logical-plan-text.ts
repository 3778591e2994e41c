/**
 * The logical plan as `explain()` prints it under `== Parsed Logical Plan ==`: one line per node,
 * its inputs below it (tree-text.ts), each line the node's name as Spark prints it, its expressions
 * by name, and the output columns where a node defines them (a leaf, an aggregation, a join).
 *
 * A new kind of node is one new case of `nodeLine`.
 */
import { expressionsText, expressionText } from '../expr/expression-text.js';
import { type StructType, typeName } from '../types/data-types.js';
import { durationText } from '../types/duration-text.js';
import { inputsOf, type LogicalPlan } from './logical-plan.js';
import { type TextTree, treeLines } from './tree-text.js';

/** The lines of `plan`, its root first. */
export function logicalPlanLines(plan: LogicalPlan): string[] {
  return treeLines(logicalTree(plan));
}

function logicalTree(plan: LogicalPlan): TextTree {
  return { line: nodeLine(plan), inputs: inputsOf(plan).map(logicalTree) };
}

/** One node's line. */
function nodeLine(plan: LogicalPlan): string {
  switch (plan.kind) {
    case 'relation':
      return `Relation ${plan.description} ${columnsText(plan.schema)}`;
    case 'streamingRelation':
      return `StreamingRelation ${plan.description} ${columnsText(plan.schema)}`;
    case 'project':
      return `${plan.generatorIndex === undefined ? 'Project' : 'Generate'} ${expressionsText(plan.exprs)}`;
    case 'filter':
      return `Filter ${expressionText(plan.condition)}`;
    case 'aggregate':
      return `Aggregate${plan.perBatch ? ' per batch' : ''} keys=${expressionsText(plan.groupBy)}, functions=${expressionsText(plan.aggregates)} ${columnsText(plan.schema)}`;
    case 'watermark':
      return `EventTimeWatermark ${watermarkText(plan.schema, plan.columnIndex, plan.delayMicros)}`;
    case 'union':
      return 'Union';
    case 'join':
      return `Join ${plan.joinType}${plan.condition ? `, ${expressionText(plan.condition)}` : ''}${plan.usingColumns ? `, using [${plan.usingColumns.join(', ')}]` : ''} ${columnsText(plan.schema)}`;
    case 'sort':
      return `Sort [${plan.orders.map((o) => `${expressionText(o.expr)} ${o.ascending ? 'ASC' : 'DESC'} NULLS ${o.nullsFirst ? 'FIRST' : 'LAST'}`).join(', ')}]`;
    case 'window':
      return `Window ${expressionsText(plan.windowExprs)}`;
    case 'limit':
      return `Limit ${plan.n}`;
    case 'deduplicate':
      return `Deduplicate${plan.withinWatermark ? 'WithinWatermark' : ''} [${plan.keyIndexes.map((i) => plan.schema.fields[i].name).join(', ')}]`;
    case 'transformWithState':
      return `TransformWithState ${plan.processorName}, keys=[${plan.keyIndices.map((i) => plan.input.schema.fields[i].name).join(', ')}], timeMode=${plan.timeMode} ${columnsText(plan.schema)}`;
  }
}

/** `[ts: timestamp, category: string]`: a node's output columns with their types. */
export function columnsText(schema: StructType): string {
  return `[${schema.fields.map((f) => `${f.name}: ${typeName(f.dataType)}`).join(', ')}]`;
}

/** `ts, delay 10 minutes`: a watermark's event-time column and delay. */
export function watermarkText(
  schema: StructType,
  columnIndex: number,
  delayMicros: number,
): string {
  return `${schema.fields[columnIndex].name}, delay ${durationText(delayMicros)}`;
}
