/**
 * Name resolution for a join condition: the columns of the left side followed by those of the right.
 * A reference made through a DataFrame (`left.col('id')`) resolves on the side that DataFrame belongs
 * to, which is how `left.col('id').eq(right.col('id'))` tells two columns named `id` apart.
 */
import { AnalysisError } from '../errors.js';
import type { ColumnRef } from '../expr/expression.js';
import { findField, type Scope } from '../expr/scope.js';
import { builtinFunctions } from '../functions/builtin-functions.js';
import { struct } from '../types/data-types.js';
import { allNodes, type LogicalPlan } from './logical-plan.js';
import { tracedIndex } from './plan-scope.js';

/** The scope of a join condition over `left` and `right`. */
export function joinScope(left: LogicalPlan, right: LogicalPlan): Scope {
  const schema = struct([...left.schema.fields, ...right.schema.fields]);
  const offset = left.schema.fields.length;
  const leftIds = new Set(allNodes(left).map((n) => n.id));
  const rightIds = new Set(allNodes(right).map((n) => n.id));
  const sideIndex = (ref: ColumnRef): number | undefined => {
    if (ref.planId === undefined) return undefined;
    const onLeft = leftIds.has(ref.planId);
    if (onLeft && rightIds.has(ref.planId)) {
      throw new AnalysisError(
        `Column '${ref.path.join('.')}' comes from a DataFrame used on both sides of the join (a self-join); rename the columns of one side with withColumnRenamed and join on the new names.`,
      );
    }
    if (!onLeft && !rightIds.has(ref.planId)) return undefined;
    const side = onLeft ? left : right;
    const index = tracedIndex(side, ref) ?? findField(side.schema, ref.path[0], ref);
    return index + (onLeft ? 0 : offset);
  };
  return {
    schema,
    functions: builtinFunctions,
    resolve: (ref) => {
      const index = ref.ordinal ?? sideIndex(ref) ?? findField(schema, ref.path[0], ref);
      return { index, field: schema.fields[index], nestedPath: ref.path.slice(1) };
    },
  };
}
