/**
 * `df.na`: Spark's DataFrameNaFunctions, filling and dropping missing values. As in Spark, a
 * missing value is a null, or NaN in a double column; `fill(value)` touches only the columns whose
 * type matches the value (numbers fill numeric columns, cast to each column's type; strings fill
 * string columns; booleans fill boolean columns), and a name in `subset` that is not a column is an
 * AnalysisError.
 */
import { AnalysisError, InvalidOptionError } from '../errors.js';
import type { Expression } from '../expr/expression.js';
import {
  BooleanType,
  type DataType,
  DoubleType,
  IntegerType,
  isNumeric,
  type StructField,
  LongType,
  StringType,
} from '../types/data-types.js';
import { Column } from './column.js';
import type { DataFrame } from './dataframe.js';

/** A value `na.fill` puts in place of a missing one. */
export type FillValue = number | string | boolean;

/** How `na.drop` decides: drop a row with `any` missing value, or only one with `all` missing. */
export type DropHow = 'any' | 'all';

/** Spark's DataFrameNaFunctions, reached as `df.na`. */
export class DataFrameNaFunctions {
  constructor(private readonly df: DataFrame) {}

  /**
   * Replaces missing values: `fill(0)` in every numeric column, `fill('n/a', ['name'])` in the
   * named string columns, `fill({ qty: 0, name: 'n/a' })` per column (each value cast to its
   * column's type). Columns of another type than the value are left as they are.
   */
  fill(
    value: FillValue | Readonly<Record<string, FillValue>>,
    subset?: readonly string[],
  ): DataFrame {
    const perColumn = typeof value === 'object' ? value : undefined;
    const targets = perColumn
      ? new Map(
          Object.entries(perColumn).map(([name, v]) => [this.ordinal(name, 'fill'), checked(v)]),
        )
      : new Map(this.ordinals(subset, 'fill').map((i) => [i, checked(value as FillValue)]));
    const fields = this.df.schema.fields;
    return this.df.select(
      ...fields.map((f, i) => {
        const fillWith = targets.get(i);
        const fills =
          fillWith !== undefined && (perColumn !== undefined || matches(f.dataType, fillWith));
        return new Column(fills ? filled(f, i, fillWith) : columnAt(f, i));
      }),
    );
  }

  /**
   * Drops rows with missing values: with `any` (the default) a row missing any of the columns, with
   * `all` a row missing all of them; `thresh` instead keeps a row with at least that many present
   * values. The columns are `subset`, or every column.
   */
  drop(how: DropHow = 'any', thresh?: number, subset?: readonly string[]): DataFrame {
    if (how !== 'any' && how !== 'all') {
      throw new InvalidOptionError(`na.drop: how must be 'any' or 'all', not '${String(how)}'.`);
    }
    if (thresh !== undefined && !(Number.isInteger(thresh) && thresh >= 0)) {
      throw new InvalidOptionError(
        `na.drop: thresh must be a non-negative integer, not ${thresh}.`,
      );
    }
    const ordinals = this.ordinals(subset, 'drop');
    const minPresent = thresh ?? (how === 'any' ? ordinals.length : 1);
    const fields = this.df.schema.fields;
    const present = ordinals
      .map((i): Expression => ({
        kind: 'caseWhen',
        branches: [{ when: isMissing(fields[i], i), then: integer(0) }],
        otherwise: integer(1),
      }))
      .reduce<Expression>(
        (sum, next) => ({ kind: 'binary', op: '+', left: sum, right: next }),
        integer(0),
      );
    return this.df.filter(
      new Column({ kind: 'binary', op: '>=', left: present, right: integer(minPresent) }),
    );
  }

  private ordinals(subset: readonly string[] | undefined, method: string): number[] {
    return subset
      ? subset.map((name) => this.ordinal(name, method))
      : this.df.schema.fields.map((_, i) => i);
  }

  /** The position of column `name`, matched as Spark does: exactly, else ignoring case. */
  private ordinal(name: string, method: string): number {
    const columns = this.df.columns;
    const exact = columns.indexOf(name);
    const i = exact >= 0 ? exact : columns.findIndex((c) => c.toLowerCase() === name.toLowerCase());
    if (i < 0) {
      throw new AnalysisError(
        `na.${method}: cannot resolve column name '${name}' among (${columns.join(', ')}); name an existing column.`,
      );
    }
    return i;
  }
}

function checked(value: FillValue): FillValue {
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean')
    return value;
  throw new InvalidOptionError(
    `na.fill: the value must be a number, a string or a boolean (or an object of them per column), not ${value === null ? 'null' : typeof value}.`,
  );
}

function matches(type: DataType, value: FillValue): boolean {
  if (typeof value === 'number') return isNumeric(type);
  return type.kind === (typeof value === 'string' ? 'string' : 'boolean');
}

function filled(f: StructField, i: number, value: FillValue): Expression {
  const literal: Expression = { kind: 'literal', value, dataType: literalType(value) };
  return {
    kind: 'alias',
    name: f.name,
    child: {
      kind: 'caseWhen',
      branches: [{ when: isMissing(f, i), then: { kind: 'cast', child: literal, to: f.dataType } }],
      otherwise: columnAt(f, i),
    },
  };
}

function literalType(value: FillValue): DataType {
  if (typeof value === 'string') return StringType;
  if (typeof value === 'boolean') return BooleanType;
  if (!Number.isInteger(value)) return DoubleType;
  return Math.abs(value) <= 2 ** 31 - 1 ? IntegerType : LongType;
}

/** Null, or NaN in a double column (NaN equals NaN in Spark's comparisons). */
function isMissing(f: StructField, i: number): Expression {
  const isNull: Expression = { kind: 'isNull', child: columnAt(f, i), negated: false };
  if (f.dataType.kind !== 'double') return isNull;
  const nan: Expression = { kind: 'literal', value: Number.NaN, dataType: DoubleType };
  const isNaN: Expression = { kind: 'binary', op: '=', left: columnAt(f, i), right: nan };
  return { kind: 'binary', op: 'or', left: isNull, right: isNaN };
}

function columnAt(f: StructField, i: number): Expression {
  return { kind: 'column', path: [f.name], ordinal: i };
}

function integer(n: number): Expression {
  return { kind: 'literal', value: n, dataType: IntegerType };
}
