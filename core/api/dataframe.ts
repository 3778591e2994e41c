/**
 * DataFrame: a logical plan plus Spark's transformation API. Transformations build a new plan and
 * check it immediately; actions (`collect`, `show`, `write`) run it as a batch, and `writeStream`
 * runs a streaming DataFrame as micro-batches.
 */
import { AnalysisError, InvalidOptionError } from '../errors.js';
import { executeBatch } from '../exec/batch-execution.js';
import { type ExplainMode, explainText } from '../exec/explain-text.js';
import { formatTable } from '../io/text-table.js';
import type { Expression } from '../expr/expression.js';
import { type JoinType, type LogicalPlan } from '../plan/logical-plan.js';
import * as build from '../plan/plan-builder.js';
import { setOperation } from '../plan/set-operation.js';
import { NullType, type StructType, treeString } from '../types/data-types.js';
import { intervalMicros, parseInterval } from '../types/interval.js';
import { toRowObject, type RowObject } from '../types/row.js';
import { Column, columnOrName, columnRef, type SortColumn } from './column.js';
import { DataFrameNaFunctions, type DropHow, type FillValue } from './dataframe-na-functions.js';
import { DataFrameWriter } from './dataframe-writer.js';
import { DataStreamWriter } from './data-stream-writer.js';
import { GroupedData } from './grouped-data.js';
import { cachedRelation, isCached, uncache } from './cached-relation.js';
import { checkedFraction, checkedSeed, samplePlan } from './sample-plan.js';
import { sqlFrontEnd } from './sql-front-end.js';
import {
  DESCRIBE_STATISTICS,
  SUMMARY_STATISTICS,
  summaryStatistics,
} from './summary-statistics.js';
import type { SluiceSession } from './session.js';

const JOIN_TYPES: Record<string, JoinType> = {
  inner: 'inner',
  left: 'left',
  left_outer: 'left',
  leftouter: 'left',
  right: 'right',
  right_outer: 'right',
  rightouter: 'right',
  full: 'full',
  outer: 'full',
  full_outer: 'full',
  fullouter: 'full',
  left_semi: 'left_semi',
  leftsemi: 'left_semi',
  semi: 'left_semi',
  left_anti: 'left_anti',
  leftanti: 'left_anti',
  anti: 'left_anti',
};

/** A table, bounded or streaming, described by a logical plan. */
export class DataFrame {
  constructor(
    /** The session that created it. */
    readonly session: SluiceSession,
    /** The logical plan this DataFrame stands for. */
    readonly plan: LogicalPlan,
  ) {}

  /** The output schema. */
  get schema(): StructType {
    return this.plan.schema;
  }

  /** The column names. */
  get columns(): string[] {
    return this.plan.schema.fields.map((f) => f.name);
  }

  /** True when the DataFrame reads a stream (then only `writeStream` can run it). */
  get isStreaming(): boolean {
    return this.plan.isStreaming;
  }

  /** Prints the schema as a tree. */
  printSchema(): void {
    console.log(treeString(this.schema));
  }

  /**
   * Prints the plan as Spark's `explain` does: the physical plan (`simple`, or `false`), or the
   * parsed logical plan and the physical plan (`extended`, or `true`). See `explainString`.
   */
  explain(mode: ExplainMode | boolean = 'simple'): void {
    console.log(this.explainString(mode));
  }

  /**
   * The text `explain(mode)` prints. A streaming DataFrame is planned as its query would be,
   * without starting one: its stateful operators show their operatorId, state stores, watermark
   * and the output mode append (the mode Spark's explain plans a stream in).
   */
  explainString(mode: ExplainMode | boolean = 'simple'): string {
    return explainText(this.plan, mode, 'append');
  }

  /** A column of this DataFrame, usable to tell same-named columns apart in a join condition. */
  col(name: string): Column {
    if (name !== '*') build.project(this.plan, [columnRef(name)]); // fail now on unknown names
    return new Column(columnRef(name, this.plan.id));
  }

  /** Projects a set of expressions (`'*'` and `'s.*'` expand). */
  select(...columns: (Column | string)[]): DataFrame {
    return this.with(build.project(this.plan, columns.map(columnOrName)));
  }

  /**
   * Keeps the rows for which `condition` is true: a Column, or SQL text (`'price > 10 AND
   * category = "books"'`, which needs the SQL entry, `import 'sluice/sql'`).
   */
  filter(condition: Column | string): DataFrame {
    const e =
      typeof condition === 'string'
        ? sqlFrontEnd('filter(text)').expression(condition, this.session.udf.lookup)
        : condition.expr;
    return this.with(build.filter(this.plan, e));
  }

  /** Same as `filter`. */
  where(condition: Column | string): DataFrame {
    return this.filter(condition);
  }

  /**
   * Projects SQL expressions (`selectExpr('a', 'b * 2 AS c', 'upper(name)')`); with aggregates
   * (`selectExpr('count(*)')`) the whole DataFrame is one group, as in Spark. Needs the SQL entry
   * (`import 'sluice/sql'`).
   */
  selectExpr(...expressions: string[]): DataFrame {
    const frontEnd = sqlFrontEnd('selectExpr()');
    return this.with(frontEnd.selectExpressions(this.plan, expressions, this.session.udf.lookup));
  }

  /**
   * Registers this DataFrame as the temporary view `name` (case-insensitive), replacing any view
   * of that name, for `session.sql` and `session.table`. The view is this DataFrame's plan: a
   * streaming DataFrame gives a streaming view, its watermark included.
   */
  createOrReplaceTempView(name: string): void {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      throw new InvalidOptionError(
        `Invalid view name '${name}': use letters, digits and underscores, not starting with a digit.`,
      );
    }
    this.session.registerView(name, this.plan);
  }

  /** Adds a column, or replaces the one with the same name in place. */
  withColumn(name: string, column: Column): DataFrame {
    const exprs: Expression[] = this.plan.schema.fields.map((f, i) =>
      f.name === name
        ? { kind: 'alias', child: column.expr, name }
        : { kind: 'column', path: [f.name], ordinal: i },
    );
    if (!this.columns.includes(name)) exprs.push({ kind: 'alias', child: column.expr, name });
    return this.with(build.project(this.plan, exprs));
  }

  /** Renames a column; a no-op when there is no such column (as in Spark). */
  withColumnRenamed(existing: string, renamed: string): DataFrame {
    if (!this.columns.includes(existing)) return this;
    const exprs: Expression[] = this.plan.schema.fields.map((f, i) => {
      const ref: Expression = { kind: 'column', path: [f.name], ordinal: i };
      return f.name === existing ? { kind: 'alias', child: ref, name: renamed } : ref;
    });
    return this.with(build.project(this.plan, exprs));
  }

  /** Removes columns by name; unknown names are ignored (as in Spark). */
  drop(...names: string[]): DataFrame {
    const exprs: Expression[] = [];
    this.plan.schema.fields.forEach((f, i) => {
      if (!names.includes(f.name)) exprs.push({ kind: 'column', path: [f.name], ordinal: i });
    });
    return this.with(build.project(this.plan, exprs));
  }

  /** The rows of both DataFrames, matched by column position, duplicates kept. */
  union(other: DataFrame): DataFrame {
    return this.with(build.union([this.plan, other.plan]));
  }

  /** Same as `union`. */
  unionAll(other: DataFrame): DataFrame {
    return this.union(other);
  }

  /**
   * The rows of both DataFrames, `other`'s columns matched by name (case-insensitively, as in
   * Spark), duplicates kept. A column missing on one side is an AnalysisError, unless
   * `allowMissingColumns`: then it is null there, and `other`'s extra columns come last.
   */
  unionByName(other: DataFrame, allowMissingColumns = false): DataFrame {
    const lower = (names: readonly string[]) => names.map((n) => n.toLowerCase());
    const mine = lower(this.columns);
    const theirs = lower(other.columns);
    const missing = (from: DataFrame, names: readonly string[], other: readonly string[]) =>
      from.columns.filter((_, i) => !other.includes(names[i]));
    const missingInOther = missing(this, mine, theirs);
    if (missingInOther.length > 0 && !allowMissingColumns) {
      throw new AnalysisError(
        `unionByName: column(s) ${missingInOther.join(', ')} of the first DataFrame are missing in the second (${other.columns.join(', ')}); pass allowMissingColumns = true to fill them with nulls.`,
      );
    }
    const extra = missing(other, theirs, mine);
    if (extra.length > 0 && !allowMissingColumns) {
      throw new AnalysisError(
        `unionByName: column(s) ${extra.join(', ')} of the second DataFrame are missing in the first (${this.columns.join(', ')}); pass allowMissingColumns = true to fill them with nulls.`,
      );
    }
    const nullOf = (name: string, from: DataFrame): Expression => ({
      kind: 'alias',
      name,
      child: {
        kind: 'cast',
        child: { kind: 'literal', value: null, dataType: NullType },
        to: from.schema.fields[from.columns.indexOf(name)].dataType,
      },
    });
    const left = this.select(
      ...this.columns.map((c) => new Column({ kind: 'column', path: [c] })),
      ...extra.map((c) => new Column(nullOf(c, other))),
    );
    const right = other.select(
      ...this.columns.map((c, i) =>
        theirs.includes(mine[i])
          ? new Column({ kind: 'column', path: [other.columns[theirs.indexOf(mine[i])]] })
          : new Column(nullOf(c, this)),
      ),
      ...extra.map((c) => new Column({ kind: 'column', path: [c] })),
    );
    return left.union(right);
  }

  /**
   * The distinct rows of this DataFrame that are not in `other` (SQL `EXCEPT`), columns matched by
   * position and compared null-safely. On a stream, `other` must be a table.
   */
  except(other: DataFrame): DataFrame {
    return this.with(setOperation(this.plan, other.plan, 'except', false, 'except'));
  }

  /** The rows of this DataFrame not in `other`, duplicates kept by count (SQL `EXCEPT ALL`); tables only. */
  exceptAll(other: DataFrame): DataFrame {
    return this.with(setOperation(this.plan, other.plan, 'except', true, 'exceptAll'));
  }

  /**
   * The distinct rows in both DataFrames (SQL `INTERSECT`), columns matched by position and
   * compared null-safely. At most one side may be a stream.
   */
  intersect(other: DataFrame): DataFrame {
    return this.with(setOperation(this.plan, other.plan, 'intersect', false, 'intersect'));
  }

  /** The rows in both DataFrames, duplicates kept by count (SQL `INTERSECT ALL`); tables only. */
  intersectAll(other: DataFrame): DataFrame {
    return this.with(setOperation(this.plan, other.plan, 'intersect', true, 'intersectAll'));
  }

  /** Filling and dropping missing values (nulls, and NaN in double columns), as Spark's `df.na`. */
  get na(): DataFrameNaFunctions {
    return new DataFrameNaFunctions(this);
  }

  /** Same as `na.fill(value, subset)`, as PySpark's `fillna`. */
  fillna(
    value: FillValue | Readonly<Record<string, FillValue>>,
    subset?: readonly string[],
  ): DataFrame {
    return this.na.fill(value, subset);
  }

  /** Same as `na.drop(how, thresh, subset)`, as PySpark's `dropna`. */
  dropna(how: DropHow = 'any', thresh?: number, subset?: readonly string[]): DataFrame {
    return this.na.drop(how, thresh, subset);
  }

  /**
   * Basic statistics as a DataFrame of strings, as Spark's `describe`: a `summary` column (count,
   * mean, stddev, min, max), then one column per named column (the numeric and string columns when
   * none are named).
   */
  describe(...columns: string[]): DataFrame {
    return summaryStatistics(this, DESCRIBE_STATISTICS, columns);
  }

  /**
   * The named statistics (count, mean, stddev, min, max, percentages such as `'75%'`) of the numeric
   * and string columns, as Spark's `summary`; by default count, mean, stddev, min, 25%, 50%, 75%, max.
   */
  summary(...statistics: string[]): DataFrame {
    return summaryStatistics(this, statistics.length > 0 ? statistics : SUMMARY_STATISTICS, []);
  }

  /**
   * A random sample: each row kept with probability `fraction`, or, `withReplacement`, repeated a
   * Poisson(`fraction`) number of times. The same `seed` gives the same rows for the same input on
   * every run (the rows differ from Spark's for that seed); without one, a seed is drawn now and
   * kept, so this DataFrame samples alike each time it runs. On a stream, each batch is sampled.
   */
  sample(fraction: number, seed?: number): DataFrame;
  sample(withReplacement: boolean, fraction: number, seed?: number): DataFrame;
  sample(first: boolean | number, second?: number, third?: number): DataFrame {
    const withReplacement = typeof first === 'boolean' ? first : false;
    const fraction = typeof first === 'boolean' ? second : first;
    const seed =
      (typeof first === 'boolean' ? third : second) ?? Math.floor(Math.random() * 2 ** 32);
    return this.with(
      samplePlan(
        this.plan,
        withReplacement,
        checkedFraction(fraction, withReplacement),
        checkedSeed(seed),
      ),
    );
  }

  /** Adds or replaces several columns at once, in the order given: `withColumns({ a: col('x').plus(1) })`. */
  withColumns(columns: Readonly<Record<string, Column>>): DataFrame {
    return Object.entries(columns).reduce<DataFrame>(
      (df, [name, column]) => df.withColumn(name, column),
      this,
    );
  }

  /** Every pair of rows of both DataFrames (the Cartesian product). */
  crossJoin(other: DataFrame): DataFrame {
    return this.with(build.join(this.plan, other.plan, 'inner', undefined));
  }

  /** Groups rows by keys for `agg` (keys may include `window(...)`). */
  groupBy(...columns: (Column | string)[]): GroupedData {
    const keys = columns.map(columnOrName);
    build.aggregate(this.plan, keys, []); // fail now on unknown keys, as Spark's groupBy does
    return new GroupedData(this, keys);
  }

  /** Aggregates the whole DataFrame as one group. */
  agg(...aggregates: Column[]): DataFrame {
    return this.groupBy().agg(...aggregates);
  }

  /**
   * Declares `column` as event time with a lateness bound: the watermark is the max event time seen
   * minus `delay`; stateful operators drop rows older than it and emit windows it has closed.
   * `delay` is an interval string ('10 minutes', "INTERVAL '1' HOUR", '1 month': a month counts 31
   * days, as in Spark).
   */
  withWatermark(column: string, delay: string): DataFrame {
    const delayMicros = intervalMicros(parseInterval(delay, 'watermark delay'));
    if (delayMicros < 0) {
      throw new InvalidOptionError(
        `Invalid watermark delay '${delay}' for column '${column}': the delay must not be negative.`,
      );
    }
    return this.with(build.watermark(this.plan, column, delayMicros));
  }

  /**
   * Keeps one row per distinct value of `columns` (every column when none are named), whole. On a
   * table Sluice keeps the first such row in input order (Spark keeps an arbitrary one). On a stream
   * it remembers every key seen in a state store and passes on only a key's first row; with a
   * watermarked event-time column among `columns`, a key is forgotten once the watermark passes its
   * event time (and later rows that old are dropped as late); without one, the state grows with every
   * distinct key, as in Spark.
   */
  dropDuplicates(...columns: (string | string[])[]): DataFrame {
    const names = columns.flat();
    return this.with(build.deduplicate(this.plan, names.length > 0 ? names : undefined, false));
  }

  /**
   * Keeps one row per distinct value of `columns` (every column when none are named) on a stream
   * with a watermark, remembering each key only until the watermark passes its first row's event
   * time plus the watermark delay: for duplicates that arrive within the delay of each other, with
   * state bounded even when the event time is not one of the keys. On a table, as `dropDuplicates`.
   */
  dropDuplicatesWithinWatermark(...columns: (string | string[])[]): DataFrame {
    const names = columns.flat();
    return this.with(build.deduplicate(this.plan, names.length > 0 ? names : undefined, true));
  }

  /** The distinct rows: `dropDuplicates()` over every column, as in Spark. */
  distinct(): DataFrame {
    return this.dropDuplicates();
  }

  /** Sorts by columns (ascending unless given `col(x).desc()`). */
  orderBy(...columns: (Column | string | SortColumn)[]): DataFrame {
    const orders = columns.map((c) =>
      c instanceof Column || typeof c === 'string'
        ? { expr: columnOrName(c), ascending: true, nullsFirst: true }
        : { expr: c.column.expr, ascending: c.ascending, nullsFirst: c.nullsFirst },
    );
    return this.with(build.sort(this.plan, orders));
  }

  /** Same as `orderBy`. */
  sort(...columns: (Column | string | SortColumn)[]): DataFrame {
    return this.orderBy(...columns);
  }

  /** The first n rows. */
  limit(n: number): DataFrame {
    return this.with(build.limit(this.plan, n));
  }

  /**
   * Joins with another DataFrame: `on` is a column name, a list of names both sides share (kept once),
   * or a condition; `how` is inner (default), left, right, full, left_semi or left_anti.
   */
  join(other: DataFrame, on?: string | string[] | Column, how = 'inner'): DataFrame {
    const joinType = JOIN_TYPES[how.toLowerCase()];
    if (!joinType) {
      throw new InvalidOptionError(
        `Unknown join type '${how}'; use one of: ${Object.keys(JOIN_TYPES).join(', ')}.`,
      );
    }
    const condition = typeof on === 'string' ? [on] : on instanceof Column ? on.expr : on;
    return this.with(build.join(this.plan, other.plan, joinType, condition));
  }

  /**
   * A DataFrame over this one's rows computed by its first action and kept in memory, so later
   * actions do not compute them again (core/api/cached-relation.ts). Use the DataFrame it returns:
   * DataFrames here are immutable, so this one is unchanged. A stream is returned as it is (its
   * rows arrive per batch).
   */
  cache(): DataFrame {
    if (this.isStreaming || isCached(this.plan)) return this;
    return this.with(cachedRelation(this.plan));
  }

  /** Same as `cache()`: rows are kept in memory, there is no other storage level. */
  persist(): DataFrame {
    return this.cache();
  }

  /**
   * Drops the rows `cache()` kept and returns the uncached DataFrame: the next action, on either,
   * computes them again.
   */
  unpersist(): DataFrame {
    return this.with(uncache(this.plan));
  }

  /** Runs the query and returns its rows as objects. */
  async collect(): Promise<RowObject[]> {
    const rows = await executeBatch(this.plan);
    return rows.map((r) => toRowObject(r, this.schema));
  }

  /** The number of rows. */
  async count(): Promise<number> {
    return (await executeBatch(this.plan)).length;
  }

  /** The first n rows as objects. */
  async take(n: number): Promise<RowObject[]> {
    return this.limit(n).collect();
  }

  /** Prints the first n rows as a table. */
  async show(n = 20, truncate = true): Promise<void> {
    const rows = await executeBatch(build.limit(this.plan, n + 1));
    const text = formatTable(rows.slice(0, n), this.schema, truncate);
    console.log(rows.length > n ? `${text}\nonly showing top ${n} rows` : text);
  }

  /** Writes a batch DataFrame to files. */
  get write(): DataFrameWriter {
    if (this.isStreaming) {
      throw new AnalysisError("'write' cannot be used on a streaming DataFrame; use writeStream.");
    }
    return new DataFrameWriter(this);
  }

  /** Starts building a streaming query over this DataFrame. */
  get writeStream(): DataStreamWriter {
    return new DataStreamWriter(this);
  }

  private with(plan: LogicalPlan): DataFrame {
    return new DataFrame(this.session, plan);
  }
}
