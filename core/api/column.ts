/**
 * Column: the user-facing handle on an expression, with Spark's fluent operators
 * (`col('a').plus(1).gt(10)`). Every method returns a new Column; nothing is evaluated until a query runs.
 */
import { InvalidOptionError } from '../errors.js';
import type { BinaryOperator, Expression, WindowSpec } from '../expr/expression.js';
import { windowed } from './window-expression.js';
import { type DataType } from '../types/data-types.js';
import { parseTypeName } from '../types/type-names.js';
import { toLiteral } from './literal.js';

/** Anything a function accepts where a column is expected: a Column, or a literal value. */
export type ColumnLike = Column | string | number | boolean | null | Date | Uint8Array;

/** A column expression. */
export class Column {
  /** The expression tree this column stands for. */
  readonly expr: Expression;

  constructor(expr: Expression) {
    this.expr = expr;
  }

  /** `this + other`. */
  plus(other: ColumnLike): Column {
    return this.binary('+', other);
  }
  /** `this - other`. */
  minus(other: ColumnLike): Column {
    return this.binary('-', other);
  }
  /** `lower <= this AND this <= upper` (SQL's BETWEEN, both bounds included), as Spark builds it. */
  between(lower: ColumnLike, upper: ColumnLike): Column {
    return this.geq(lower).and(this.leq(upper));
  }
  /**
   * `this IN (values...)`, as SQL's IN: true when one equals, null when none does and this or a
   * value is null, false otherwise.
   */
  isin(...values: ColumnLike[]): Column {
    if (values.length === 0) {
      throw new InvalidOptionError(
        'isin() needs at least one value, as SQL IN needs at least one element.',
      );
    }
    return values.map((v) => this.eq(v)).reduce((either, next) => either.or(next));
  }
  /** `this * other`. */
  multiply(other: ColumnLike): Column {
    return this.binary('*', other);
  }
  /** `this / other`, always a double; division by zero gives null. */
  divide(other: ColumnLike): Column {
    return this.binary('/', other);
  }
  /** `this % other`; modulo by zero gives null. */
  mod(other: ColumnLike): Column {
    return this.binary('%', other);
  }
  /** `this = other` (null when either side is null). */
  eq(other: ColumnLike): Column {
    return this.binary('=', other);
  }
  /** `this != other`. */
  neq(other: ColumnLike): Column {
    return this.binary('!=', other);
  }
  /** Null-safe equality `this <=> other`: true when both are null. */
  eqNullSafe(other: ColumnLike): Column {
    return this.binary('<=>', other);
  }
  /** `this < other`. */
  lt(other: ColumnLike): Column {
    return this.binary('<', other);
  }
  /** `this <= other`. */
  leq(other: ColumnLike): Column {
    return this.binary('<=', other);
  }
  /** `this > other`. */
  gt(other: ColumnLike): Column {
    return this.binary('>', other);
  }
  /** `this >= other`. */
  geq(other: ColumnLike): Column {
    return this.binary('>=', other);
  }
  /** `this AND other`, three-valued. */
  and(other: ColumnLike): Column {
    return this.binary('and', other);
  }
  /** `this OR other`, three-valued. */
  or(other: ColumnLike): Column {
    return this.binary('or', other);
  }
  /** `NOT this`. */
  not(): Column {
    return new Column({ kind: 'not', child: this.expr });
  }
  /** `this IS NULL`. */
  isNull(): Column {
    return new Column({ kind: 'isNull', child: this.expr, negated: false });
  }
  /** `this IS NOT NULL`. */
  isNotNull(): Column {
    return new Column({ kind: 'isNull', child: this.expr, negated: true });
  }
  /** Converts to another type: a DataType or a Spark type name (`'string'`, `'int'`, `'timestamp'`, ...). */
  cast(to: DataType | string): Column {
    return new Column({
      kind: 'cast',
      child: this.expr,
      to: typeof to === 'string' ? parseTypeName(to) : to,
    });
  }
  /** Names the output column. */
  alias(name: string): Column {
    return new Column({ kind: 'alias', child: unalias(this.expr), name });
  }
  /** Same as `alias`. */
  as(name: string): Column {
    return this.alias(name);
  }
  /** The named field of a struct column. */
  getField(name: string): Column {
    const e = this.expr;
    if (e.kind === 'column') return new Column({ ...e, path: [...e.path, name] });
    return new Column({ kind: 'call', name: 'get_field', args: [e], options: { field: name } });
  }
  /** Adds a branch to a `when(...)` chain. */
  when(condition: Column, value: ColumnLike): Column {
    const e = this.expr;
    if (e.kind !== 'caseWhen' || e.otherwise) {
      throw new TypeError('when() can only follow when(); start a chain with the when() function.');
    }
    return new Column({
      ...e,
      branches: [...e.branches, { when: condition.expr, then: toExpr(value) }],
    });
  }
  /** Ends a `when(...)` chain with the value for rows no branch matched. */
  otherwise(value: ColumnLike): Column {
    const e = this.expr;
    if (e.kind !== 'caseWhen' || e.otherwise) {
      throw new TypeError(
        'otherwise() can only follow when(); start a chain with the when() function.',
      );
    }
    return new Column({ ...e, otherwise: toExpr(value) });
  }
  /**
   * This window function (row_number(), lag(...), ...) or aggregate computed over `window`
   * (`Window.partitionBy(...).orderBy(...)`), one value per row; valid in select and withColumn.
   */
  over(window: { readonly spec: WindowSpec }): Column {
    return new Column(windowed(this.expr, window.spec));
  }
  /** Ascending sort order (nulls first, as in Spark). */
  asc(): SortColumn {
    return { column: this, ascending: true, nullsFirst: true };
  }
  /** Descending sort order (nulls last, as in Spark). */
  desc(): SortColumn {
    return { column: this, ascending: false, nullsFirst: false };
  }
  /** Ascending, nulls last. */
  ascNullsLast(): SortColumn {
    return { column: this, ascending: true, nullsFirst: false };
  }
  /** Descending, nulls first. */
  descNullsFirst(): SortColumn {
    return { column: this, ascending: false, nullsFirst: true };
  }

  private binary(op: BinaryOperator, other: ColumnLike): Column {
    return new Column({ kind: 'binary', op, left: this.expr, right: toExpr(other) });
  }
}

/** One key of an `orderBy`. */
export interface SortColumn {
  readonly column: Column;
  readonly ascending: boolean;
  readonly nullsFirst: boolean;
}

/** A column or a literal value as an expression (strings are literals here, not column names). */
export function toExpr(value: ColumnLike): Expression {
  return value instanceof Column ? value.expr : toLiteral(value);
}

/** A Column or a column name as an expression (strings are column names, as in `select('a')`). */
export function columnOrName(value: Column | string): Expression {
  return typeof value === 'string' ? columnRef(value) : value.expr;
}

/** Parses a column name with dotted nested access (`a.b`) and backticks for names containing dots. */
export function columnRef(name: string, planId?: number): Expression {
  const path: string[] = [];
  for (const m of name.matchAll(/`([^`]*)`|([^.]+)/g)) path.push(m[1] ?? m[2]);
  return planId === undefined ? { kind: 'column', path } : { kind: 'column', path, planId };
}

function unalias(e: Expression): Expression {
  return e.kind === 'alias' ? e.child : e;
}
