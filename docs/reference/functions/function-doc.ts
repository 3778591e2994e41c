/**
 * What the function reference (docs/functions.md) says about one function. The entries live beside
 * each other in one table per family (the files of this folder), outside the engine, so the Lambda
 * bundle never carries them; test/docs/function-reference.test.ts checks them against the SQL
 * registry and runs every example.
 */

/** One function of the SQL registry, under its name (the key of its family's table). */
export interface FunctionDoc {
  /** Other names SQL resolves to the same function. */
  readonly aliases?: readonly string[];
  /** Its SQL signatures, arguments and result types: `lpad(str STRING, len INT[, pad STRING]) → STRING`. */
  readonly signatures: readonly string[];
  /**
   * The column API's form: the name of a function exported by the main entry (`lower`), or of a
   * `Column` method after a dot (`.like`). Absent: SQL only.
   */
  readonly column?: string;
  /** What it computes, in a sentence. */
  readonly does: string;
  /** What a null (or NaN, or bad) input gives. */
  readonly nulls: string;
  /** A SQL example and what it gives. */
  readonly example: FunctionExample;
}

/**
 * An expression (`lower('Spark')`), or a whole query (starting with SELECT) over the example table
 * `t`, and its result: each value cast to a string, NULL for null; the cells of a row joined by
 * `, `, rows by `; `.
 */
export interface FunctionExample {
  readonly sql: string;
  readonly result: string;
}

/** A family's table: function name (lower case, as SQL resolves it) to its entry. */
export type FunctionDocs = Readonly<Record<string, FunctionDoc>>;

/** The null behaviour of most scalar functions. */
export const NULL_IN_NULL_OUT = 'Null when any argument is null.';

/** The table `t` the aggregate and window examples read: the page shows it, the test registers it. */
export const EXAMPLE_TABLE = {
  schema: 'g STRING, x INT, y DOUBLE',
  rows: [
    { g: 'a', x: 1, y: 1.5 },
    { g: 'a', x: 2, y: null },
    { g: 'b', x: 2, y: 4 },
    { g: 'b', x: null, y: 2 },
    { g: 'b', x: 5, y: 3 },
  ],
} as const;
