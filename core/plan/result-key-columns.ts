/**
 * Which output columns identify a row of a query's result, found in its logical plan: the grouping
 * keys of the last aggregation, followed through the nodes above it that keep rows whole (filter,
 * sort, limit, watermark) and through projections that pass every key column on (plainly or
 * renamed). Sinks that upsert by key use them; a plan with no aggregation, or whose projection drops
 * or computes over a key, has none, and the user names the key columns instead.
 */
import type { Expression } from '../expr/expression.js';
import type { LogicalPlan, Project } from './logical-plan.js';

/** The output columns that identify a row of `plan`'s result, or undefined when none are known. */
export function resultKeyColumns(plan: LogicalPlan): readonly string[] | undefined {
  switch (plan.kind) {
    case 'aggregate':
      return plan.schema.fields.slice(0, plan.groupBy.length).map((f) => f.name);
    case 'filter':
    case 'sort':
    case 'limit':
    case 'watermark':
      return resultKeyColumns(plan.input);
    case 'project':
      return projectedKeys(resultKeyColumns(plan.input), plan);
    default:
      return undefined;
  }
}

/** The names the key columns have after a projection, if it passes every one of them on. */
function projectedKeys(
  keys: readonly string[] | undefined,
  project: Project,
): readonly string[] | undefined {
  // an explode turns one result row into several, so the input's keys no longer identify a row
  if (keys === undefined || project.generatorIndex !== undefined) return undefined;
  const renamed = new Map<string, string>();
  project.exprs.forEach((e, i) => {
    // column names resolve case-insensitively, as in Spark
    const from = passedColumn(e)?.toLowerCase();
    const key = keys.find((k) => k.toLowerCase() === from);
    if (key !== undefined && !renamed.has(key)) renamed.set(key, project.schema.fields[i].name);
  });
  return keys.every((k) => renamed.has(k)) ? keys.map((k) => renamed.get(k)!) : undefined;
}

/** The input column an expression passes on unchanged (possibly under another name). */
function passedColumn(e: Expression): string | undefined {
  const column = e.kind === 'alias' ? e.child : e;
  return column.kind === 'column' && column.path.length === 1 ? column.path[0] : undefined;
}
