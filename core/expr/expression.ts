/**
 * The expression tree: what a Column holds. A plain discriminated union, so every pass over it
 * (binding, naming, analysis) is an exhaustive switch. Expressions are untyped until bound to a schema.
 */
import type { DataType } from '../types/data-types.js';
import type { FunctionBinder } from './function-table.js';

/** Binary operators, named as in SQL. */
export type BinaryOperator =
  '+' | '-' | '*' | '/' | '%' | '=' | '!=' | '<' | '<=' | '>' | '>=' | '<=>' | 'and' | 'or';

/** The aggregate functions of `groupBy().agg()`. */
export type AggregateFunctionName =
  | 'count'
  | 'sum'
  | 'avg'
  | 'min'
  | 'max'
  | 'first'
  | 'last'
  | 'collect_list'
  | 'collect_set'
  | 'approx_count_distinct'
  | 'percentile_approx'
  | 'stddev'
  | 'stddev_samp'
  | 'stddev_pop'
  | 'variance'
  | 'var_samp'
  | 'var_pop';

/** Any expression. */
export type Expression =
  | ColumnRef
  | Literal
  | Alias
  | BinaryExpression
  | NotExpression
  | IsNullExpression
  | CastExpression
  | CaseWhenExpression
  | FunctionCall
  | AggregateCall
  | TimeWindowExpression
  | SessionWindowExpression
  | ExplodeExpression
  | WindowExpression;

/** A reference to a column by name; `path` has more than one part for nested access (`a.b`), `*` for all. */
export interface ColumnRef {
  readonly kind: 'column';
  readonly path: readonly string[];
  /** Set by `df.col(name)`: the id of the DataFrame plan the column must come from (used to tell join sides apart). */
  readonly planId?: number;
  /** Set when a column is referred to by position (star expansion over repeated names after a join). */
  readonly ordinal?: number;
}

/** A constant. */
export interface Literal {
  readonly kind: 'literal';
  readonly value: unknown;
  readonly dataType: DataType;
}

/** Gives its child an output name. */
export interface Alias {
  readonly kind: 'alias';
  readonly child: Expression;
  readonly name: string;
}

/** Arithmetic, comparison and boolean connectives. */
export interface BinaryExpression {
  readonly kind: 'binary';
  readonly op: BinaryOperator;
  readonly left: Expression;
  readonly right: Expression;
}

/** Boolean negation with SQL's three-valued logic. */
export interface NotExpression {
  readonly kind: 'not';
  readonly child: Expression;
}

/** `IS NULL` or, when negated, `IS NOT NULL`. */
export interface IsNullExpression {
  readonly kind: 'isNull';
  readonly child: Expression;
  readonly negated: boolean;
}

/** A conversion to another type. */
export interface CastExpression {
  readonly kind: 'cast';
  readonly child: Expression;
  readonly to: DataType;
}

/** `CASE WHEN c1 THEN v1 ... ELSE e END`; a missing ELSE yields NULL. */
export interface CaseWhenExpression {
  readonly kind: 'caseWhen';
  readonly branches: readonly { readonly when: Expression; readonly then: Expression }[];
  readonly otherwise?: Expression;
}

/** A call of a built-in scalar function, looked up by name when the expression is bound. */
export interface FunctionCall {
  readonly kind: 'call';
  readonly name: string;
  readonly args: readonly Expression[];
  /** Non-expression arguments (a schema, a format, a mode). */
  readonly options?: Readonly<Record<string, unknown>>;
  /**
   * Set for a call that brings its own binder, as a user-defined function does: it is bound by it,
   * not looked up by name (so the name only names the call, in output columns and fingerprints).
   */
  readonly binder?: FunctionBinder;
}

/** A call of an aggregate function; valid only inside `groupBy().agg()`. */
export interface AggregateCall {
  readonly kind: 'aggregate';
  readonly fn: AggregateFunctionName;
  /** No arguments means `count(*)`. */
  readonly args: readonly Expression[];
  readonly distinct: boolean;
  /** For first/last: skip nulls. */
  readonly ignoreNulls?: boolean;
}

/** `window(timeColumn, duration, slide, startTime)`: the event-time window(s) a row falls in, all in microseconds. */
export interface TimeWindowExpression {
  readonly kind: 'window';
  readonly timeColumn: Expression;
  readonly durationMicros: number;
  readonly slideMicros: number;
  readonly startMicros: number;
}

/**
 * `session_window(timeColumn, gap)`: the session a row belongs to, [first event time, last event
 * time + gap), merged with every other session of its group that it overlaps or touches. Valid only
 * as a grouping key of `groupBy().agg()`.
 */
export interface SessionWindowExpression {
  readonly kind: 'sessionWindow';
  readonly timeColumn: Expression;
  /** The same gap for every row (in microseconds), or an interval string per row (Spark's dynamic gap). */
  readonly gap: SessionGap;
}

/** A session window's gap: fixed, or computed per row. */
export type SessionGap =
  | { readonly kind: 'static'; readonly micros: number }
  | { readonly kind: 'dynamic'; readonly expression: Expression };

/** `explode(array or map)`: one output row per element; valid only in `select`. */
export interface ExplodeExpression {
  readonly kind: 'explode';
  readonly child: Expression;
  readonly outer: boolean;
}

/** The functions that exist only over a window (`OVER (...)`), beside the aggregates. */
export type WindowFunctionName =
  'row_number' | 'rank' | 'dense_rank' | 'ntile' | 'lag' | 'lead' | 'first_value' | 'last_value';

/** A ranking, offset or value function of a window: `lag(x, 1, 0)`, `ntile(4)`. */
export interface WindowFunctionCall {
  readonly kind: 'windowCall';
  readonly name: WindowFunctionName;
  readonly args: readonly Expression[];
  /** For first_value and last_value: skip nulls. */
  readonly ignoreNulls?: boolean;
}

/** One bound of a window frame: rows (or order values) from the current row; `-Infinity` and `Infinity` are unbounded. */
export type FrameBound = number;

/** `ROWS` or `RANGE BETWEEN start AND end`, relative to the current row (0 is CURRENT ROW). */
export interface WindowFrame {
  readonly type: 'rows' | 'range';
  readonly start: FrameBound;
  readonly end: FrameBound;
}

/** One ORDER BY key of a window. */
export interface WindowOrder {
  readonly expr: Expression;
  readonly ascending: boolean;
  readonly nullsFirst: boolean;
}

/** `PARTITION BY ... ORDER BY ... frame`: the rows a window function sees around each row. */
export interface WindowSpec {
  readonly partitionBy: readonly Expression[];
  readonly orderBy: readonly WindowOrder[];
  /** Absent: Spark's default, RANGE UNBOUNDED PRECEDING to CURRENT ROW when ordered, the whole partition when not. */
  readonly frame?: WindowFrame;
}

/** `fn OVER (spec)`: a window function or an aggregate computed over each row's window; valid only in `select`. */
export interface WindowExpression {
  readonly kind: 'windowFunction';
  readonly fn: WindowFunctionCall | AggregateCall;
  readonly spec: WindowSpec;
}

/** The direct children of an expression. */
export function childrenOf(e: Expression): readonly Expression[] {
  switch (e.kind) {
    case 'column':
    case 'literal':
      return [];
    case 'alias':
    case 'not':
    case 'isNull':
    case 'cast':
    case 'explode':
      return [e.child];
    case 'binary':
      return [e.left, e.right];
    case 'caseWhen':
      return [
        ...e.branches.flatMap((b) => [b.when, b.then]),
        ...(e.otherwise ? [e.otherwise] : []),
      ];
    case 'call':
    case 'aggregate':
      return e.args;
    case 'window':
      return [e.timeColumn];
    case 'sessionWindow':
      return e.gap.kind === 'dynamic' ? [e.timeColumn, e.gap.expression] : [e.timeColumn];
    case 'windowFunction':
      // the aggregate itself is not a child: a windowed sum does not make its select an aggregation
      return [...e.fn.args, ...e.spec.partitionBy, ...e.spec.orderBy.map((o) => o.expr)];
  }
}

/** True when the expression or any descendant satisfies the predicate. */
export function containsExpression(e: Expression, predicate: (x: Expression) => boolean): boolean {
  return predicate(e) || childrenOf(e).some((c) => containsExpression(c, predicate));
}

/**
 * `e` with every subexpression for which `replacement` returns an expression replaced by it
 * (outermost first: a replaced subexpression is not searched further).
 */
export function replaceExpressions(
  e: Expression,
  replacement: (x: Expression) => Expression | undefined,
): Expression {
  const replaced = replacement(e);
  if (replaced) return replaced;
  const r = (x: Expression) => replaceExpressions(x, replacement);
  switch (e.kind) {
    case 'column':
    case 'literal':
      return e;
    case 'alias':
    case 'not':
    case 'isNull':
    case 'cast':
    case 'explode':
      return { ...e, child: r(e.child) };
    case 'binary':
      return { ...e, left: r(e.left), right: r(e.right) };
    case 'caseWhen':
      return {
        ...e,
        branches: e.branches.map((b) => ({ when: r(b.when), then: r(b.then) })),
        ...(e.otherwise ? { otherwise: r(e.otherwise) } : {}),
      };
    case 'call':
    case 'aggregate':
      return { ...e, args: e.args.map(r) };
    case 'window':
      return { ...e, timeColumn: r(e.timeColumn) };
    case 'sessionWindow':
      return {
        ...e,
        timeColumn: r(e.timeColumn),
        gap: e.gap.kind === 'dynamic' ? { ...e.gap, expression: r(e.gap.expression) } : e.gap,
      };
    case 'windowFunction':
      return {
        ...e,
        fn: { ...e.fn, args: e.fn.args.map(r) },
        spec: {
          ...e.spec,
          partitionBy: e.spec.partitionBy.map(r),
          orderBy: e.spec.orderBy.map((o) => ({ ...o, expr: r(o.expr) })),
        },
      };
  }
}
