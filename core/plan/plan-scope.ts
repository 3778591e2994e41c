/**
 * Name resolution over a plan's output. A plain reference resolves by name; a reference made through a
 * DataFrame (`df.col('id')`) resolves to the column that DataFrame contributes to this output, traced
 * down through filters, sorts, limits, watermarks, deduplications, selects that pass the column through, and joins.
 * That is how `joined.select(left.col('id'))` picks the left `id` after a join whose sides both have
 * one. A column that cannot be traced (aggregated, unioned, computed) is resolved by its name.
 */
import { AnalysisError } from '../errors.js';
import type { ColumnRef } from '../expr/expression.js';
import { findField, schemaScope, type Scope } from '../expr/scope.js';
import { builtinFunctions } from '../functions/builtin-functions.js';
import type { Join, LogicalPlan, Project } from './logical-plan.js';

/** The scope of expressions evaluated over the output of `plan`. */
export function planScope(plan: LogicalPlan): Scope {
  const byName = schemaScope(plan.schema, builtinFunctions);
  return {
    schema: plan.schema,
    functions: builtinFunctions,
    resolve: (ref) => {
      const index = ref.ordinal === undefined ? tracedIndex(plan, ref) : undefined;
      if (index === undefined) return byName.resolve(ref);
      return { index, field: plan.schema.fields[index], nestedPath: ref.path.slice(1) };
    },
  };
}

/** The output position in `plan` of the column a DataFrame-qualified `ref` names, when traceable. */
export function tracedIndex(plan: LogicalPlan, ref: ColumnRef): number | undefined {
  if (ref.planId === undefined) return undefined;
  if (plan.id === ref.planId) return findField(plan.schema, ref.path[0], ref);
  switch (plan.kind) {
    case 'filter':
    case 'sort':
    case 'window':
    case 'limit':
    case 'watermark':
    case 'deduplicate':
      return tracedIndex(plan.input, ref);
    case 'project':
      return projectedIndex(plan, tracedIndex(plan.input, ref));
    case 'join':
      return joinedIndex(plan, ref);
    default:
      return undefined;
  }
}

/** Where a select outputs input column `inputIndex`, if one of its expressions passes it through. */
function projectedIndex(plan: Project, inputIndex: number | undefined): number | undefined {
  if (inputIndex === undefined) return undefined;
  const scope = planScope(plan.input);
  const i = plan.exprs.findIndex(
    (e) => e.kind === 'column' && e.path.length === 1 && scope.resolve(e).index === inputIndex,
  );
  if (i < 0) return undefined;
  // An explode of a map adds two output columns for one expression; later columns shift.
  const shift = plan.schema.fields.length - plan.exprs.length;
  return plan.generatorIndex !== undefined && i > plan.generatorIndex ? i + shift : i;
}

function joinedIndex(plan: Join, ref: ColumnRef): number | undefined {
  const left = tracedIndex(plan.left, ref);
  const keepsRight = plan.joinType !== 'left_semi' && plan.joinType !== 'left_anti';
  const right = keepsRight ? tracedIndex(plan.right, ref) : undefined;
  if (left !== undefined && right !== undefined) {
    throw new AnalysisError(
      `Column '${ref.path.join('.')}' comes from a DataFrame on both sides of the join (a self-join); rename the columns of one side with withColumnRenamed first.`,
    );
  }
  const using = keepsRight ? plan.usingColumns : undefined;
  if (left !== undefined) return using ? usingIndex(plan, using, 'left', left) : left;
  if (right === undefined) return undefined;
  return using ? usingIndex(plan, using, 'right', right) : plan.left.schema.fields.length + right;
}

/** The output position of one side's column `i` in a `usingColumns` join: keys, left rest, right rest. */
function usingIndex(
  plan: Join,
  using: readonly string[],
  side: 'left' | 'right',
  i: number,
): number {
  const schema = side === 'left' ? plan.left.schema : plan.right.schema;
  const keys = using.map((name) => findField(schema, name));
  const k = keys.indexOf(i);
  if (k >= 0) return k;
  const before = side === 'left' ? 0 : plan.left.schema.fields.length - using.length;
  return using.length + before + i - keys.filter((x) => x < i).length;
}
