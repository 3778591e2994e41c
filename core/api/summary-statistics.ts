/**
 * `describe` and `summary` as Spark computes them: one row per statistic, a `summary` column naming
 * it, then one string column per described column. Without names, the numeric and string columns
 * are described. `mean` and `stddev` (the sample standard deviation) read each value as a double,
 * so a string column has them only where its values are numbers; `min` and `max` keep the column's
 * own order (a string column's are its first and last strings); percentiles (`25%`) are
 * `percentile_approx` with its default accuracy, of a string column's values read as doubles too.
 * `summary` also gives `count_distinct` and `approx_count_distinct`; statistics are named in any
 * case, as in Spark, and the row keeps the name as given.
 */
import { AnalysisError, InvalidOptionError } from '../errors.js';
import { DoubleType, isNumeric, StringType, type StructField } from '../types/data-types.js';
import { Column, columnRef } from './column.js';
import type { DataFrame } from './dataframe.js';
import { avg, count, countDistinct, lit, max, min } from './functions.js';
import { approx_count_distinct, percentile_approx, stddev } from './statistical-functions.js';

/** The statistics `describe` gives. */
export const DESCRIBE_STATISTICS = ['count', 'mean', 'stddev', 'min', 'max'] as const;

/** The statistics `summary()` gives when none are named. */
export const SUMMARY_STATISTICS = ['count', 'mean', 'stddev', 'min', '25%', '50%', '75%', 'max'];

/** The statistics of `columns` (the numeric and string columns when none are named) of `df`. */
export function summaryStatistics(
  df: DataFrame,
  statistics: readonly string[],
  columns: readonly string[],
): DataFrame {
  const fields = describedFields(df, columns);
  const cells = statistics.map((s) => fields.map((f) => statistic(s, f)));
  const name = (i: number, j: number) => `_s${i}_${j}`;
  const aggregates = cells.flatMap((row, i) =>
    row.flatMap((cell, j) => (cell ? [cell.alias(name(i, j))] : [])),
  );
  const table = aggregates.length > 0 ? df.agg(...aggregates) : df.agg(count());
  const rows = statistics.map((s, i) =>
    table.select(
      lit(s).alias('summary'),
      ...fields.map((f, j) =>
        (cells[i][j] ? table.col(name(i, j)) : lit(null)).cast(StringType).alias(f.name),
      ),
    ),
  );
  return rows.reduce((all, row) => all.union(row));
}

function describedFields(df: DataFrame, columns: readonly string[]): StructField[] {
  const fields = df.schema.fields;
  if (columns.length === 0) {
    return fields.filter((f) => isNumeric(f.dataType) || f.dataType.kind === 'string');
  }
  return columns.map((name) => {
    const f = fields.find((x) => x.name === name);
    if (!f) {
      throw new AnalysisError(
        `describe: no column '${name}' among (${df.columns.join(', ')}); name an existing column.`,
      );
    }
    if (['array', 'map', 'struct'].includes(f.dataType.kind)) {
      throw new AnalysisError(
        `describe: column '${name}' is ${f.dataType.kind}; only columns of atomic types can be described.`,
      );
    }
    return f;
  });
}

/** The aggregate computing statistic `name` of column `f`; undefined where it is null by definition. */
function statistic(name: string, f: StructField): Column | undefined {
  const column = new Column(columnRef(f.name));
  const asDouble = () => column.cast(DoubleType);
  switch (name.toLowerCase()) {
    case 'count':
      return count(column);
    case 'count_distinct':
      return countDistinct(column);
    case 'approx_count_distinct':
      return approx_count_distinct(column);
    case 'mean':
      return avg(asDouble());
    case 'stddev':
      return stddev(asDouble());
    case 'min':
      return min(column);
    case 'max':
      return max(column);
  }
  const percentile = /^(\d+(?:\.\d+)?)%$/.exec(name);
  const fraction = percentile ? Number(percentile[1]) / 100 : NaN;
  if (!(fraction >= 0 && fraction <= 1)) {
    throw new InvalidOptionError(
      `summary: unknown statistic '${name}'; use count, count_distinct, approx_count_distinct, mean, stddev, min, max or a percentage such as '75%'.`,
    );
  }
  if (isNumeric(f.dataType)) return percentile_approx(column, fraction);
  return f.dataType.kind === 'string' ? percentile_approx(asDouble(), fraction) : undefined;
}
