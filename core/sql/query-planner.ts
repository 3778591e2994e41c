/**
 * A parsed statement to the logical plan the DataFrame API builds for the same query, so SQL and
 * DataFrame queries run alike, in batch and streaming (a query is streaming when it reads a
 * streaming view).
 *
 * Set operations as in Spark: UNION ALL is a union by position (types widened); UNION is its
 * distinct rows; INTERSECT and EXCEPT are the distinct rows of the left side that do (a left semi
 * join) or do not (a left anti join) appear on the right, comparing every column null-safely
 * (Spark's ReplaceIntersectWithSemiJoin and ReplaceExceptWithAntiJoin); INTERSECT ALL and EXCEPT
 * ALL keep duplicates by count (core/plan/set-operation.ts, shared with the DataFrame API). On
 * streams, only UNION ALL is a streaming operator; the others aggregate or join streams, which the
 * start-time checks judge by output mode like any other.
 *
 * `EXPLAIN query` is a one-row table with a `plan` column: the query's plan as an outline.
 */
import type { TableLookup } from '../api/sql-front-end.js';
import { AnalysisError } from '../errors.js';
import type { Expression } from '../expr/expression.js';
import type { LogicalPlan } from '../plan/logical-plan.js';
import * as build from '../plan/plan-builder.js';
import { distinctRows, setOperation } from '../plan/set-operation.js';
import { planOutline } from '../testing/plan-outline.js';
import { field, StringType, struct } from '../types/data-types.js';
import { type FromContext, type FromScope, planFrom } from './from-clause.js';
import { planSelect } from './select-block.js';
import type {
  SqlFrom,
  SqlOrderItem,
  SqlQuery,
  SqlQueryBody,
  SqlSetOperation,
  SqlStatement,
} from './sql-ast.js';

/** The plan of a parsed statement over the given tables. */
export function planStatement(statement: SqlStatement, tables: TableLookup): LogicalPlan {
  const plan = planQuery(statement.query, { tables, ctes: new Map() });
  return statement.kind === 'explain' ? explainPlan(plan) : plan;
}

interface QueryContext {
  readonly tables: TableLookup;
  readonly ctes: ReadonlyMap<string, LogicalPlan>;
}

function planQuery(query: SqlQuery, outer: QueryContext): LogicalPlan {
  const ctes = new Map(outer.ctes);
  for (const cte of query.ctes) {
    ctes.set(cte.name.toLowerCase(), planQuery(cte.query, { tables: outer.tables, ctes }));
  }
  const context: QueryContext = { tables: outer.tables, ctes };
  const body = query.body;
  // A SELECT sorts on its own input (ORDER BY may name columns it does not select); other bodies
  // sort on their output.
  const sorted =
    body.kind === 'select'
      ? planSelect(body, fromScope(body.from, context), query.orderBy)
      : sortOutput(planBody(body, context), query.orderBy);
  return query.limit === undefined ? sorted : build.limit(sorted, query.limit);
}

function planBody(body: SqlQueryBody, context: QueryContext): LogicalPlan {
  switch (body.kind) {
    case 'select':
      return planSelect(body, fromScope(body.from, context), []);
    case 'nested':
      return planQuery(body.query, context);
    case 'setOperation':
      return planSetOperation(body, context);
  }
}

function fromScope(from: SqlFrom | undefined, context: QueryContext): FromScope {
  if (!from) return { plan: oneRow(), sources: [] };
  const fromContext: FromContext = { ...context, subquery: (q) => planQuery(q, context) };
  return planFrom(from, fromContext);
}

function planSetOperation(op: SqlSetOperation, context: QueryContext): LogicalPlan {
  const left = planBody(op.left, context);
  const right = planBody(op.right, context);
  const what = `${op.operator.toUpperCase()}${op.all ? ' ALL' : ''}`;
  const l = left.schema.fields.length;
  const r = right.schema.fields.length;
  if (l !== r) {
    throw new AnalysisError(
      `${what} (line ${op.token.line}, column ${op.token.column}) needs the same number of columns on both sides: ${l} vs ${r}.`,
    );
  }
  if (op.operator === 'union') {
    const union = build.union([left, right]);
    return op.all ? union : distinctRows(union);
  }
  return setOperation(
    left,
    right,
    op.operator,
    op.all,
    `${what} (line ${op.token.line}, column ${op.token.column})`,
  );
}

/** ORDER BY over a set operation's output: by column name or position. */
function sortOutput(plan: LogicalPlan, orderBy: readonly SqlOrderItem[]): LogicalPlan {
  if (orderBy.length === 0) return plan;
  const fields = plan.schema.fields;
  return build.sort(
    plan,
    orderBy.map((o) => {
      const e = o.expr;
      const position =
        e.kind === 'literal' && typeof e.value === 'number' ? e.value - 1 : undefined;
      if (position !== undefined && !fields[position]) {
        throw new AnalysisError(
          `ORDER BY position ${position + 1} is not in the output, which has ${fields.length} column(s).`,
        );
      }
      const expr: Expression =
        position === undefined
          ? e
          : { kind: 'column', path: [fields[position].name], ordinal: position };
      return { expr, ascending: o.ascending, nullsFirst: o.nullsFirst };
    }),
  );
}

/** The input of a SELECT without FROM: one row of no columns (`SELECT 1 + 1`). */
function oneRow(): LogicalPlan {
  return build.inMemoryRelation('OneRowRelation', struct([]), async () => [[]]);
}

function explainPlan(plan: LogicalPlan): LogicalPlan {
  const text = planOutline(plan);
  return build.inMemoryRelation('Explain', struct([field('plan', StringType, false)]), async () => [
    [text],
  ]);
}
