/**
 * What the parser reads a SQL statement into before the planner turns it into a logical plan:
 * the query's clauses, with expressions already in the DataFrame API's expression tree. Names are
 * kept as written (tables, aliases, `t.column`); the planner resolves them against the catalog
 * and the FROM clause.
 */
import type { Expression } from '../expr/expression.js';
import type { JoinType } from '../plan/logical-plan.js';
import type { Token } from './sql-lexer.js';

/** A statement: a query, or `EXPLAIN` of one. */
export type SqlStatement =
  | { readonly kind: 'query'; readonly query: SqlQuery }
  | { readonly kind: 'explain'; readonly query: SqlQuery };

/** A query: optional CTEs, a body, then ORDER BY and LIMIT over the body's output. */
export interface SqlQuery {
  readonly ctes: readonly { readonly name: string; readonly query: SqlQuery }[];
  readonly body: SqlQueryBody;
  readonly orderBy: readonly SqlOrderItem[];
  readonly limit?: number;
}

/** A SELECT, a set operation of two bodies, or a parenthesized query. */
export type SqlQueryBody =
  SqlSelect | SqlSetOperation | { readonly kind: 'nested'; readonly query: SqlQuery };

/** `left UNION|EXCEPT|INTERSECT [ALL] right`. */
export interface SqlSetOperation {
  readonly kind: 'setOperation';
  readonly operator: 'union' | 'except' | 'intersect';
  readonly all: boolean;
  readonly left: SqlQueryBody;
  readonly right: SqlQueryBody;
  /** The operator's token, for error positions. */
  readonly token: Token;
}

/** One SELECT block. */
export interface SqlSelect {
  readonly kind: 'select';
  readonly distinct: boolean;
  readonly items: readonly SqlSelectItem[];
  readonly from?: SqlFrom;
  readonly where?: Expression;
  readonly groupBy: readonly Expression[];
  readonly having?: Expression;
}

/** An expression of the select list, with its alias when it has one. */
export interface SqlSelectItem {
  readonly expr: Expression;
  readonly alias?: string;
}

/** An ORDER BY key. */
export interface SqlOrderItem {
  readonly expr: Expression;
  readonly ascending: boolean;
  readonly nullsFirst: boolean;
}

/** A FROM item: a table or view by name, a subquery, or a join of two items. */
export type SqlFrom = SqlTableReference | SqlSubquery | SqlJoin;

/** A table or view by name. */
export interface SqlTableReference {
  readonly kind: 'table';
  readonly name: string;
  readonly alias?: string;
  readonly token: Token;
}

/** `(query) [AS] alias`. */
export interface SqlSubquery {
  readonly kind: 'subquery';
  readonly query: SqlQuery;
  readonly alias?: string;
}

/** `left [type] JOIN right [ON condition | USING (columns)]`, `CROSS JOIN`, `NATURAL JOIN`, or a comma. */
export interface SqlJoin {
  readonly kind: 'join';
  readonly left: SqlFrom;
  readonly right: SqlFrom;
  readonly joinType: JoinType;
  readonly condition?: Expression;
  readonly using?: readonly string[];
  readonly natural: boolean;
}
