/**
 * Name resolution: which input column a reference means. Names match exactly first, then
 * case-insensitively (Spark's default); an ambiguous or unknown name is an AnalysisError that lists
 * the columns that do exist, and the closest one to a misspelt name.
 */
import { AnalysisError } from '../errors.js';
import type { StructField, StructType } from '../types/data-types.js';
import { closestName } from './closest-name.js';
import type { ColumnRef } from './expression.js';
import type { FunctionTable } from './function-table.js';

/** Where a reference points: the input column's position and the nested field path still to follow. */
export interface ResolvedColumn {
  readonly index: number;
  readonly field: StructField;
  readonly nestedPath: readonly string[];
}

/** The names an expression can refer to: the input's columns and the functions it may call. */
export interface Scope {
  readonly schema: StructType;
  resolve(ref: ColumnRef): ResolvedColumn;
  /** The functions a call may name (the built-ins, from whoever builds the scope). */
  readonly functions: FunctionTable;
  /** The processing time of the batch being run, for `current_timestamp()`; absent while a plan is only analysed. */
  readonly clock?: BatchClock;
}

/**
 * The processing time of the batch being run, in microseconds, fixed for the batch: a stream plans
 * each batch with the time its intent recorded, so a re-run of a batch sees the same
 * `current_timestamp()`.
 */
export interface BatchClock {
  readonly batchTimestampMicros: number;
}

/** A scope over one schema. Plan-qualified references (`df.col(...)`) resolve by name, like plain ones. */
export function schemaScope(schema: StructType, functions: FunctionTable): Scope {
  return {
    schema,
    functions,
    resolve: (ref) => {
      const index = ref.ordinal ?? findField(schema, ref.path[0], ref);
      return { index, field: schema.fields[index], nestedPath: ref.path.slice(1) };
    },
  };
}

/** The position of the field called `name`, or an AnalysisError naming `ref` and the available columns. */
export function findField(schema: StructType, name: string, ref?: ColumnRef): number {
  const exact: number[] = [];
  const folded: number[] = [];
  const lower = name.toLowerCase();
  schema.fields.forEach((f, i) => {
    if (f.name === name) exact.push(i);
    else if (f.name.toLowerCase() === lower) folded.push(i);
  });
  const matches = exact.length > 0 ? exact : folded;
  const shown = ref ? ref.path.join('.') : name;
  if (matches.length === 1) return matches[0];
  if (matches.length > 1) {
    throw new AnalysisError(
      `Reference '${shown}' is ambiguous: ${matches.length} columns are called '${name}'. Rename one with withColumnRenamed or refer to it through its DataFrame (df.col('${name}')).`,
    );
  }
  const names = schema.fields.map((f) => f.name);
  const suggestion = closestName(name, names);
  throw new AnalysisError(
    `Cannot resolve column '${shown}'; available columns: ${names.join(', ') || '(none)'}.${suggestion ? ` Did you mean \`${suggestion}\`?` : ''}`,
  );
}
