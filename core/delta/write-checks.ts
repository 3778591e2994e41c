/**
 * What a writer checks before it writes to a Delta table, so that it never commits a version that
 * breaks the table for other readers and writers: the table's protocol is one it implements, the
 * query's rows fit the table's schema and partitioning, and the output mode respects the table's
 * properties. Creating a table checks the partition columns instead.
 */
import { AnalysisError, DeltaTableError } from '../errors.js';
import { type StructType, typeName } from '../types/data-types.js';
import { DELTA_WRITER_VERSION } from './delta-actions.js';
import { unwritableColumns } from './delta-schema.js';
import type { DeltaSnapshot } from './delta-snapshot.js';
import { isPartitionType } from './partition-values.js';

/** The table property that forbids removing data. */
const APPEND_ONLY = 'delta.appendOnly';

/** Checks that a table with `schema` can be partitioned by `partitionBy`; throws AnalysisError. */
export function checkPartitioning(
  table: string,
  schema: StructType,
  partitionBy: readonly string[],
): void {
  if (new Set(partitionBy).size !== partitionBy.length) {
    throw new AnalysisError(
      `Delta table ${table}: partitionBy [${partitionBy.join(', ')}] names a column twice; name each once.`,
    );
  }
  for (const column of partitionBy) {
    const f = schema.fields.find((g) => g.name === column);
    if (!f) {
      throw new AnalysisError(
        `Delta table ${table}: partition column '${column}' is not a column of the query's output [${schema.fields.map((g) => g.name).join(', ')}].`,
      );
    }
    if (!isPartitionType(f.dataType)) {
      throw new AnalysisError(
        `Delta table ${table}: cannot partition by '${column}' of type ${typeName(f.dataType)}; partition by columns of atomic types (select a field of it as its own column).`,
      );
    }
  }
  if (partitionBy.length > 0 && partitionBy.length === schema.fields.length) {
    throw new AnalysisError(
      `Delta table ${table}: cannot partition by every column (data files need at least one column); leave one column out of partitionBy.`,
    );
  }
}

/**
 * Checks that rows of `schema` can be written to the existing table of `snapshot` in `outputMode`,
 * with `partitionBy` when given (undefined: the table's). Throws DeltaTableError when the table needs
 * what Sluice's writer does not implement, AnalysisError when the query does not fit the table.
 */
export function checkWritable(
  snapshot: DeltaSnapshot,
  schema: StructType,
  partitionBy: readonly string[] | undefined,
  outputMode: 'append' | 'complete',
): void {
  const table = snapshot.table;
  const { minWriterVersion } = snapshot.protocol;
  if (minWriterVersion > DELTA_WRITER_VERSION) {
    throw new DeltaTableError(
      `Delta table ${table} needs a Delta writer of version ${minWriterVersion}; Sluice writes version ${DELTA_WRITER_VERSION} tables. Write to a new table path.`,
    );
  }
  const reasons = unwritableColumns(snapshot.metadata.schemaString, table);
  if (reasons.length > 0) {
    throw new DeltaTableError(
      `Sluice cannot write to Delta table ${table}: ${reasons.join('; ')}. Write to a new table path.`,
    );
  }
  if (!snapshot.hasSchema(schema)) {
    throw new AnalysisError(
      `Delta table ${table} has the schema ${typeName(snapshot.schema)}, but the query writes ${typeName(schema)}; select and cast the query's columns to match, or write to a new table path.`,
    );
  }
  const tablePartitioning = snapshot.partitionColumns;
  if (partitionBy && partitionBy.join('\u0000') !== tablePartitioning.join('\u0000')) {
    throw new AnalysisError(
      `Delta table ${table} is partitioned by [${tablePartitioning.join(', ')}], but the sink was given partitionBy [${partitionBy.join(', ')}]; give the table's partition columns or none.`,
    );
  }
  if (outputMode === 'complete' && snapshot.metadata.configuration[APPEND_ONLY] === 'true') {
    throw new AnalysisError(
      `Delta table ${table} is append-only (${APPEND_ONLY}=true), but complete mode replaces its content; use append mode or another table.`,
    );
  }
}
