/**
 * Name resolution for a join condition: the columns of the left side followed by those of the right.
 * A reference made through a DataFrame (`left.col('id')`) resolves on the side that DataFrame belongs
 * to, which is how `left.col('id').eq(right.col('id'))` tells two columns named `id` apart.
 */
import { AnalysisError } from '../errors.js';
import { findField, type Scope } from '../expr/scope.js';
import { struct } from '../types/data-types.js';
import { allNodes, type LogicalPlan } from './logical-plan.js';

/** The scope of a join condition over `left` and `right`. */
export function joinScope(left: LogicalPlan, right: LogicalPlan): Scope {
  const schema = struct([...left.schema.fields, ...right.schema.fields]);
  const offset = left.schema.fields.length;
  const leftIds = new Set(allNodes(left).map((n) => n.id));
  const rightIds = new Set(allNodes(right).map((n) => n.id));
  return {
    schema,
    resolve: (ref) => {
      const name = ref.path[0];
      const nestedPath = ref.path.slice(1);
      if (ref.planId !== undefined && leftIds.has(ref.planId) !== rightIds.has(ref.planId)) {
        const onLeft = leftIds.has(ref.planId);
        const side = onLeft ? left.schema : right.schema;
        const index = findField(side, name, ref) + (onLeft ? 0 : offset);
        return { index, field: schema.fields[index], nestedPath };
      }
      if (ref.planId !== undefined && leftIds.has(ref.planId)) {
        throw new AnalysisError(
          `Column '${ref.path.join('.')}' comes from a DataFrame used on both sides of the join (a self-join); alias one side with df.alias(...) first.`,
        );
      }
      const index = ref.ordinal ?? findField(schema, name, ref);
      return { index, field: schema.fields[index], nestedPath };
    },
  };
}
