/**
 * The FROM clause: tables, views, CTEs and subqueries by name, joined, each under the alias it is
 * known by, and the qualified names (`t.column`, `t.*`) that refer to them.
 *
 * Every FROM item is a select of all its columns over the table's plan, a node of its own, so a
 * qualified name means that item even when one view appears twice (`FROM v a JOIN v b`): a
 * qualified name becomes a reference to that node's column, which the plan's name resolution
 * traces through joins (plan-scope.ts), as it does for `df.col(name)`.
 */
import type { TableLookup } from '../api/sql-front-end.js';
import { AnalysisError } from '../errors.js';
import { closestName } from '../expr/closest-name.js';
import { type Expression, replaceExpressions } from '../expr/expression.js';
import type { LogicalPlan } from '../plan/logical-plan.js';
import * as build from '../plan/plan-builder.js';
import type { SqlFrom, SqlJoin, SqlQuery } from './sql-ast.js';

/** A FROM item's plan and the name it is known by. */
export interface FromSource {
  readonly alias?: string;
  readonly plan: LogicalPlan;
}

/** The plan of a FROM clause and its items, for qualified names. */
export interface FromScope {
  readonly plan: LogicalPlan;
  readonly sources: readonly FromSource[];
}

/** What planning a FROM clause needs from the query around it. */
export interface FromContext {
  readonly tables: TableLookup;
  /** The WITH queries in scope, by lowercase name; they hide tables of the same name. */
  readonly ctes: ReadonlyMap<string, LogicalPlan>;
  /** Plans a subquery in the same context. */
  readonly subquery: (query: SqlQuery) => LogicalPlan;
}

/** The plan of a FROM clause. */
export function planFrom(from: SqlFrom, context: FromContext): FromScope {
  switch (from.kind) {
    case 'table': {
      const plan = context.ctes.get(from.name.toLowerCase()) ?? context.tables.table(from.name);
      if (!plan) throw unknownTable(from.name, from.token, context);
      const alias = from.alias ?? from.name.split('.').pop();
      return single(alias, plan);
    }
    case 'subquery':
      return single(from.alias, context.subquery(from.query));
    case 'join':
      return planJoin(from, context);
  }
}

function single(alias: string | undefined, plan: LogicalPlan): FromScope {
  const item = build.project(
    plan,
    plan.schema.fields.map((f, i): Expression => ({ kind: 'column', path: [f.name], ordinal: i })),
  );
  return { plan: item, sources: [alias === undefined ? { plan: item } : { alias, plan: item }] };
}

function planJoin(join: SqlJoin, context: FromContext): FromScope {
  const left = planFrom(join.left, context);
  const right = planFrom(join.right, context);
  const sources = [...left.sources, ...right.sources];
  for (const [i, s] of sources.entries()) {
    const again = sources.findIndex((o, j) => j > i && sameName(o.alias, s.alias));
    if (s.alias !== undefined && again >= 0) {
      throw new AnalysisError(
        `The FROM clause names two items '${s.alias}'; give one of them another alias.`,
      );
    }
  }
  const on = join.natural
    ? commonColumns(left.plan, right.plan)
    : (join.using ?? (join.condition ? qualify(join.condition, sources) : undefined));
  const plan = build.join(left.plan, right.plan, join.joinType, on);
  const keepsRight = join.joinType !== 'left_semi' && join.joinType !== 'left_anti';
  return { plan, sources: keepsRight ? sources : left.sources };
}

/** The column names both sides share, for NATURAL JOIN (none: a cross join, as in Spark). */
function commonColumns(left: LogicalPlan, right: LogicalPlan): string[] | undefined {
  const names = left.schema.fields
    .map((f) => f.name)
    .filter((n) => right.schema.fields.some((f) => sameName(f.name, n)));
  return names.length > 0 ? names : undefined;
}

/**
 * `e` with its qualified names (`t.column`, `t.column.field`) made references to the FROM item
 * called `t`; other names are left as they are (a struct's field, `s.field`, is one).
 */
export function qualify(e: Expression, sources: readonly FromSource[]): Expression {
  return replaceExpressions(e, (x) => {
    if (x.kind !== 'column' || x.path.length < 2 || x.planId !== undefined) return undefined;
    if (x.ordinal !== undefined || x.path[x.path.length - 1] === '*') return undefined;
    const source = sources.find((s) => sameName(s.alias, x.path[0]));
    if (!source) return undefined;
    const names = source.plan.schema.fields.map((f) => f.name);
    if (!names.some((n) => sameName(n, x.path[1]))) {
      const suggestion = closestName(x.path[1], names);
      throw new AnalysisError(
        `Cannot resolve column '${x.path.join('.')}': '${source.alias}' has no column '${x.path[1]}'; it has: ${names.join(', ')}.${suggestion ? ` Did you mean \`${suggestion}\`?` : ''}`,
      );
    }
    return { kind: 'column', path: x.path.slice(1), planId: source.plan.id };
  });
}

/** The columns `t.*` stands for, when `t` is a FROM item; undefined otherwise (a struct's `s.*`). */
export function qualifiedStar(
  e: Expression,
  sources: readonly FromSource[],
): Expression[] | undefined {
  if (e.kind !== 'column' || e.path.length !== 2 || e.path[1] !== '*') return undefined;
  const source = sources.find((s) => sameName(s.alias, e.path[0]));
  if (!source) return undefined;
  return source.plan.schema.fields.map((f) => ({
    kind: 'column',
    path: [f.name],
    planId: source.plan.id,
  }));
}

function sameName(a: string | undefined, b: string | undefined): boolean {
  return a !== undefined && b !== undefined && a.toLowerCase() === b.toLowerCase();
}

function unknownTable(
  name: string,
  token: { line: number; column: number },
  context: FromContext,
): AnalysisError {
  const known = [...context.ctes.keys(), ...context.tables.tableNames()];
  const suggestion = closestName(name, known);
  return new AnalysisError(
    `Table or view not found: ${name} (line ${token.line}, column ${token.column}).${suggestion ? ` Did you mean \`${suggestion}\`?` : ''} Register a DataFrame with df.createOrReplaceTempView('${name}').`,
  );
}
