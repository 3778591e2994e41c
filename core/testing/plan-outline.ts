/**
 * A plan as an indented outline, one node per line with its inputs below it, for the report of a
 * failed stream test: what the query was, in the terms the DataFrame API built it with.
 */
import type { Expression } from '../expr/expression.js';
import { expressionName } from '../expr/expression-name.js';
import { inputsOf, type LogicalPlan } from '../plan/logical-plan.js';

/** The outline of `plan`, its root first. */
export function planOutline(plan: LogicalPlan): string {
  return outlineLines(plan, 0).join('\n');
}

function outlineLines(plan: LogicalPlan, depth: number): string[] {
  const columns = plan.schema.fields.map((f) => f.name).join(', ');
  const line = `${'  '.repeat(depth)}${nodeText(plan)} [${columns}]`;
  return [line, ...inputsOf(plan).flatMap((input) => outlineLines(input, depth + 1))];
}

function nodeText(plan: LogicalPlan): string {
  switch (plan.kind) {
    case 'relation':
      return `Relation ${plan.description}`;
    case 'streamingRelation':
      return `StreamingRelation ${plan.description}`;
    case 'project':
      return `Project ${expressionsText(plan.exprs)}`;
    case 'filter':
      return `Filter ${expressionText(plan.condition)}`;
    case 'aggregate':
      return `Aggregate${plan.perBatch ? ' per batch' : ''} keys ${expressionsText(plan.groupBy)} values ${expressionsText(plan.aggregates)}`;
    case 'watermark':
      return `Watermark ${plan.schema.fields[plan.columnIndex].name} delay ${plan.delayMicros / 1000} ms`;
    case 'union':
      return 'Union';
    case 'join':
      return `Join ${plan.joinType}${plan.condition ? ` on ${expressionText(plan.condition)}` : ''}${plan.usingColumns ? ` using ${plan.usingColumns.join(', ')}` : ''}`;
    case 'sort':
      return `Sort ${plan.orders.map((o) => `${expressionText(o.expr)} ${o.ascending ? 'ASC' : 'DESC'}`).join(', ')}`;
    case 'window':
      return `Window ${expressionsText(plan.windowExprs)}`;
    case 'limit':
      return `Limit ${plan.n}`;
    case 'deduplicate':
      return `Deduplicate${plan.withinWatermark ? ' within watermark' : ''} on ${plan.keyIndexes.map((i) => plan.schema.fields[i].name).join(', ')}`;
    case 'transformWithState':
      return `TransformWithState ${plan.processorName} keys ${plan.keyIndices.map((i) => plan.input.schema.fields[i].name).join(', ')} timeMode ${plan.timeMode}`;
  }
}

function expressionsText(exprs: readonly Expression[]): string {
  return exprs.map(expressionText).join(', ');
}

function expressionText(e: Expression): string {
  return e.kind === 'alias' ? `${expressionName(e.child)} AS ${e.name}` : expressionName(e);
}
