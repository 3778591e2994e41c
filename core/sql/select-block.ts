/**
 * One SELECT block to a logical plan, in SQL's order: FROM, WHERE, GROUP BY with the aggregates
 * of the select list, HAVING and ORDER BY, HAVING, the select list, DISTINCT, ORDER BY.
 *
 * Names are resolved once, to column positions, so that an expression written twice (a grouping
 * key in GROUP BY and again in the select list, `t.a` and `a`) is recognized as the same:
 * - With GROUP BY or aggregates, the plan is an aggregate whose keys are the GROUP BY expressions
 *   and whose values are every distinct aggregate call of the select list, HAVING and ORDER BY;
 *   those clauses then read the aggregate's output. A select item may be a key, a key's field
 *   (`window.start` after `GROUP BY window(ts, ...)`, as in Spark), or built from keys and
 *   aggregates; any other column is an error naming it.
 * - ORDER BY may name a select item by alias or position (`ORDER BY 1`), or any expression of the
 *   input, which is then computed as a hidden column, sorted on, and dropped.
 * - GROUP BY may name a select item by position or alias when no input column has the name.
 * - DISTINCT is an aggregate over every output column (the logical plan has no dedup node).
 */
import { AnalysisError } from '../errors.js';
import { type Expression, containsExpression, replaceExpressions } from '../expr/expression.js';
import { expressionName } from '../expr/expression-name.js';
import type { Scope } from '../expr/scope.js';
import type { LogicalPlan, SortOrder } from '../plan/logical-plan.js';
import * as build from '../plan/plan-builder.js';
import { planScope } from '../plan/plan-scope.js';
import { distinctRows } from '../plan/set-operation.js';
import { type FromScope, qualifiedStar, qualify } from './from-clause.js';
import type { SqlOrderItem, SqlSelect, SqlSelectItem } from './sql-ast.js';

/** The plan of a SELECT block over its FROM clause, sorted by `orderBy` (keys of this block). */
export function planSelect(
  select: SqlSelect,
  from: FromScope,
  orderBy: readonly SqlOrderItem[],
): LogicalPlan {
  const input = select.where
    ? build.filter(from.plan, resolved(qualify(select.where, from.sources), planScope(from.plan)))
    : from.plan;
  const items = select.items.flatMap((item) => expandQualifiedStar(item, from));
  const aggregated =
    select.groupBy.length > 0 ||
    select.having !== undefined ||
    items.some((i) => containsExpression(i.expr, (x) => x.kind === 'aggregate'));
  const block = aggregated
    ? aggregateBlock(select, items, from, input, orderBy)
    : plainBlock(items, from, input);
  return finish(block, select.distinct, orderBy, from);
}

/**
 * A select list evaluated over `over`: its expressions (in `over`'s terms, aliased as written) and
 * how to bring any other expression of the block's input to `over`'s terms, for ORDER BY.
 */
interface SelectBlock {
  readonly over: LogicalPlan;
  readonly exprs: readonly Expression[];
  readonly lower: (e: Expression) => Expression;
}

function expandQualifiedStar(item: SqlSelectItem, from: FromScope): SqlSelectItem[] {
  const columns = qualifiedStar(item.expr, from.sources);
  return columns ? columns.map((expr) => ({ expr })) : [item];
}

function plainBlock(
  items: readonly SqlSelectItem[],
  from: FromScope,
  input: LogicalPlan,
): SelectBlock {
  const scope = planScope(input);
  const lower = (e: Expression) => resolved(qualify(e, from.sources), scope);
  return { over: input, exprs: items.map((i) => aliased(lower(i.expr), i.alias)), lower };
}

function aggregateBlock(
  select: SqlSelect,
  items: readonly SqlSelectItem[],
  from: FromScope,
  input: LogicalPlan,
  orderBy: readonly SqlOrderItem[],
): SelectBlock {
  const scope = planScope(input);
  const keys = select.groupBy.map((g) =>
    resolved(groupingExpression(g, items, from, scope), scope),
  );
  const values = new AggregateValues(keys, scope);
  const lower = (e: Expression) => values.toOutput(qualify(e, from.sources));
  const exprs = items.map((i) => aliased(lower(i.expr), i.alias));
  const having = select.having ? lower(select.having) : undefined;
  // ORDER BY may sort on aggregates the select list does not show: the aggregate computes them too.
  for (const o of orderBy) values.collectCalls(qualify(o.expr, from.sources));
  const aggregate = build.aggregate(input, keys, values.calls);
  const over = having ? build.filter(aggregate, having) : aggregate;
  return { over, exprs, lower };
}

/** A GROUP BY expression: a select item by position (`GROUP BY 1`) or alias, or an expression. */
function groupingExpression(
  g: Expression,
  items: readonly SqlSelectItem[],
  from: FromScope,
  scope: Scope,
): Expression {
  if (g.kind === 'literal' && typeof g.value === 'number' && Number.isInteger(g.value)) {
    const item = items[g.value - 1];
    if (!item) {
      throw new AnalysisError(
        `GROUP BY position ${g.value} is not in the select list, which has ${items.length} item(s).`,
      );
    }
    return qualify(item.expr, from.sources);
  }
  if (g.kind === 'column' && g.path.length === 1 && !resolves(g, scope)) {
    const item = items.find((i) => i.alias?.toLowerCase() === g.path[0].toLowerCase());
    if (item) return qualify(item.expr, from.sources);
  }
  return qualify(g, from.sources);
}

/**
 * The aggregate's values, collected while the clauses that read them are lowered to its output:
 * keys then values, referred to by position.
 */
class AggregateValues {
  readonly calls: Expression[] = [];
  private readonly callTexts: string[] = [];
  private readonly keyTexts: string[];

  constructor(
    private readonly keys: readonly Expression[],
    private readonly scope: Scope,
  ) {
    this.keyTexts = keys.map((k) => JSON.stringify(k));
  }

  /** Adds the aggregate calls in `e` to the values, without lowering the rest of it. */
  collectCalls(e: Expression): void {
    containsExpression(e, (x) => {
      if (x.kind === 'aggregate') this.valueRef(x);
      return false;
    });
  }

  /** `e` over the aggregate's output: keys and aggregate calls replaced by references to them. */
  toOutput(e: Expression): Expression {
    return replaceExpressions(e, (x) => {
      if (x.kind === 'aggregate') return this.valueRef(x);
      if (x.kind === 'column') return this.columnRef(x);
      if (x.kind === 'literal') return undefined;
      const k = this.keyIndex(tryResolved(x, this.scope));
      return k >= 0 ? this.keyRef(k) : undefined;
    });
  }

  private valueRef(call: Expression): Expression {
    const nested =
      call.kind === 'aggregate' &&
      call.args.some((a) => containsExpression(a, (x) => x.kind === 'aggregate'));
    if (nested) {
      throw new AnalysisError(
        `'${expressionName(call)}' nests an aggregate function inside another; compute the inner one in a subquery.`,
      );
    }
    const canonical = resolved(call, this.scope);
    const text = JSON.stringify(canonical);
    let i = this.callTexts.indexOf(text);
    if (i < 0) {
      i = this.calls.push(canonical) - 1;
      this.callTexts.push(text);
    }
    const ordinal = this.keys.length + i;
    return { kind: 'column', path: [expressionName(canonical)], ordinal };
  }

  private columnRef(x: Extract<Expression, { kind: 'column' }>): Expression {
    if (x.path[x.path.length - 1] === '*') {
      throw new AnalysisError(
        `'${x.path.join('.')}' cannot be selected with GROUP BY or aggregates; list the grouping columns instead.`,
      );
    }
    const canonical = tryResolved(x, this.scope);
    if (canonical?.kind === 'column') {
      const k = this.keyIndex(canonical);
      if (k >= 0) return this.keyRef(k);
      const top: Expression = {
        kind: 'column',
        path: [canonical.path[0]],
        ordinal: canonical.ordinal,
      };
      const t = this.keyIndex(top);
      if (t >= 0)
        return { kind: 'column', path: [this.keyName(t), ...canonical.path.slice(1)], ordinal: t };
      throw new AnalysisError(
        `Column '${x.path.join('.')}' is neither in GROUP BY nor inside an aggregate function; add it to GROUP BY or aggregate it (first(${x.path.join('.')}), max(...), ...).`,
      );
    }
    // Not an input column: a grouping key by its output name, as `window` names `window(ts, ...)`.
    const k = this.keys.findIndex(
      (_, i) => this.keyName(i).toLowerCase() === x.path[0].toLowerCase(),
    );
    if (k >= 0) return { kind: 'column', path: [this.keyName(k), ...x.path.slice(1)], ordinal: k };
    return resolved(x, this.scope); // throws the resolution error, naming the column
  }

  private keyIndex(e: Expression | undefined): number {
    return e ? this.keyTexts.indexOf(JSON.stringify(e)) : -1;
  }

  private keyName(k: number): string {
    return expressionName(this.keys[k]);
  }

  private keyRef(k: number): Expression {
    return { kind: 'column', path: [this.keyName(k)], ordinal: k };
  }
}

/** DISTINCT, then ORDER BY (with hidden columns where a key is not in the select list). */
function finish(
  block: SelectBlock,
  distinct: boolean,
  orderBy: readonly SqlOrderItem[],
  from: FromScope,
): LogicalPlan {
  const visible = build.project(block.over, block.exprs);
  const keys = orderBy.map((o) => orderKey(o, visible, block, from));
  const hidden = keys
    .filter((k): k is { hidden: Expression } => 'hidden' in k)
    .map((k) => k.hidden);
  if (hidden.length > 0 && distinct) {
    throw new AnalysisError(
      'With SELECT DISTINCT, ORDER BY may only name columns of the select list.',
    );
  }
  const width = visible.schema.fields.length;
  const projected =
    hidden.length === 0
      ? visible
      : build.project(block.over, [
          ...block.exprs,
          ...hidden.map((h, i) => aliased(h, `__order_${i}`)),
        ]);
  const deduplicated = distinct ? distinctRows(projected) : withoutIdentity(projected);
  if (keys.length === 0) return deduplicated;
  let hiddenIndex = 0;
  const orders: SortOrder[] = keys.map((k, i) => {
    const ordinal = 'hidden' in k ? width + hiddenIndex++ : k.ordinal;
    const name = deduplicated.schema.fields[ordinal].name;
    return {
      expr: { kind: 'column', path: [name], ordinal },
      ascending: orderBy[i].ascending,
      nullsFirst: orderBy[i].nullsFirst,
    };
  });
  const sorted = build.sort(deduplicated, orders);
  if (hidden.length === 0) return sorted;
  return build.project(
    sorted,
    visible.schema.fields.map((f, i) => ({ kind: 'column', path: [f.name], ordinal: i })),
  );
}

/** An ORDER BY key: a position in the select list's output, or an expression to add as a hidden column. */
function orderKey(
  o: SqlOrderItem,
  visible: LogicalPlan,
  block: SelectBlock,
  from: FromScope,
): { ordinal: number } | { hidden: Expression } {
  const fields = visible.schema.fields;
  const e = o.expr;
  if (e.kind === 'literal' && typeof e.value === 'number' && Number.isInteger(e.value)) {
    if (e.value < 1 || e.value > fields.length) {
      throw new AnalysisError(
        `ORDER BY position ${e.value} is not in the select list, which has ${fields.length} column(s).`,
      );
    }
    return { ordinal: e.value - 1 };
  }
  if (e.kind === 'column' && e.path.length === 1) {
    const byName = fields.flatMap((f, i) =>
      f.name.toLowerCase() === e.path[0].toLowerCase() ? [i] : [],
    );
    if (byName.length === 1) return { ordinal: byName[0] };
  }
  const lowered = block.lower(qualify(e, from.sources));
  const same = block.exprs.findIndex(
    (x) => JSON.stringify(unaliased(x)) === JSON.stringify(lowered),
  );
  return same >= 0 && fields.length === block.exprs.length
    ? { ordinal: same }
    : { hidden: lowered };
}

/** A select that passes its input through unchanged is left out, so SQL builds the DataFrame API's plans. */
function withoutIdentity(plan: LogicalPlan): LogicalPlan {
  if (plan.kind !== 'project' || plan.generatorIndex !== undefined) return plan;
  const input = plan.input.schema.fields;
  const identity =
    plan.exprs.length === input.length &&
    plan.exprs.every(
      (e, i) =>
        e.kind === 'column' &&
        e.ordinal === i &&
        e.path.length === 1 &&
        plan.schema.fields[i].name === input[i].name,
    );
  return identity ? plan.input : plan;
}

/** `e` with every column reference resolved to a position in `scope` (stars are left to expand). */
export function resolved(e: Expression, scope: Scope): Expression {
  return replaceExpressions(e, (x) => {
    if (x.kind !== 'column' || x.path[x.path.length - 1] === '*') return undefined;
    const { index, field, nestedPath } = scope.resolve(x);
    return { kind: 'column', path: [field.name, ...nestedPath], ordinal: index };
  });
}

/**
 * `e` resolved, or undefined when a name in it does not resolve in `scope`: the caller then tries
 * another reading (a key's output name) and, failing that, resolves again to raise the error.
 */
function tryResolved(e: Expression, scope: Scope): Expression | undefined {
  try {
    return resolved(e, scope);
  } catch (error) {
    if (error instanceof AnalysisError) return undefined;
    throw error;
  }
}

function resolves(e: Expression, scope: Scope): boolean {
  return tryResolved(e, scope) !== undefined;
}

function aliased(e: Expression, alias: string | undefined): Expression {
  return alias === undefined ? e : { kind: 'alias', child: unaliased(e), name: alias };
}

function unaliased(e: Expression): Expression {
  return e.kind === 'alias' ? e.child : e;
}
