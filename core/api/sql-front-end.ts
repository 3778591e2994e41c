/**
 * How the DataFrame API reaches the SQL front end without importing it. `session.sql`, `expr`,
 * `selectExpr` and `filter(text)` need the parser, but a program that uses none of them (the
 * Lambda function, for one) must not carry it: the SQL entry (`sluice/sql`, core/sql/index.ts)
 * installs the front end when it is imported, and these methods fail with an AnalysisError saying
 * so until it has been.
 */
import { AnalysisError } from '../errors.js';
import type { Expression } from '../expr/expression.js';
import type { LogicalPlan } from '../plan/logical-plan.js';

/** The tables and views a SQL statement may read, by name (case-insensitive, as in Spark). */
export interface TableLookup {
  /** The plan of the table or view called `name`, or undefined when there is none. */
  table(name: string): LogicalPlan | undefined;
  /** Every name `table` knows, for the "did you mean" of an unknown one. */
  tableNames(): readonly string[];
}

/** The user-defined functions SQL may call (`session.udf.register`), by name (case-insensitive). */
export interface FunctionLookup {
  /** The call of the function `name` on `args`, or undefined when there is no such function. */
  call(name: string, args: readonly Expression[]): Expression | undefined;
  /** Every name `call` knows, for the "did you mean" of an unknown function. */
  names(): readonly string[];
}

/** A lookup that knows no function, for SQL text outside a session (`expr()`). */
export const NO_USER_FUNCTIONS: FunctionLookup = { call: () => undefined, names: () => [] };

/** What the SQL front end does for the DataFrame API. */
export interface SqlFrontEnd {
  /** The plan of a SQL statement over the given tables, calling the given user functions. */
  statementPlan(sql: string, tables: TableLookup, functions: FunctionLookup): LogicalPlan;
  /** A SQL expression (`'a + 1'`, `'count(*)'`) as an expression tree. */
  expression(sql: string, functions: FunctionLookup): Expression;
  /** `input` with a select list of SQL texts, an aggregate when they hold aggregates (Spark's selectExpr). */
  selectExpressions(
    input: LogicalPlan,
    sql: readonly string[],
    functions: FunctionLookup,
  ): LogicalPlan;
}

let installed: SqlFrontEnd | undefined;

/** Installs the SQL front end (done by core/sql/index.ts when it is imported). */
export function installSqlFrontEnd(frontEnd: SqlFrontEnd): void {
  installed = frontEnd;
}

/** The installed SQL front end; an AnalysisError naming `what` and the import that installs it. */
export function sqlFrontEnd(what: string): SqlFrontEnd {
  if (installed) return installed;
  throw new AnalysisError(
    `${what} takes SQL text, and the SQL front end is not loaded: import 'sluice/sql' (core/sql/index.ts) once in the program. It is kept out of the main entry so programs without SQL stay small.`,
  );
}
