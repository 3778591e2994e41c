/**
 * Reads the rows of a Delta table snapshot: every data file the snapshot lists (and no other file
 * under the table root: removed files and files of failed writers stay invisible), each read with the
 * table's data schema, so a column a file lacks reads as NULL, as the protocol requires. Partition
 * columns come from the log's partition values, not from the files.
 */
import type { ObjectStore } from '../checkpoint/object-store.js';
import { DeltaTableError } from '../errors.js';
import { readParquet } from '../io/parquet.js';
import type { Row } from '../types/row.js';
import type { AddFileAction } from './delta-actions.js';
import type { DeltaSnapshot } from './delta-snapshot.js';
import { parsePartitionValue } from './partition-values.js';

/** Data files read at once: enough to hide S3 latency, few enough to bound memory. */
const READ_CONCURRENCY = 16;

/** The rows of `snapshot`, a snapshot of the table rooted at `store`, in the table's column order. */
export async function readSnapshotRows(
  store: ObjectStore,
  snapshot: DeltaSnapshot,
): Promise<Row[]> {
  const files = [...snapshot.files];
  const rows: Row[] = [];
  for (let i = 0; i < files.length; i += READ_CONCURRENCY) {
    const chunk = files.slice(i, i + READ_CONCURRENCY);
    const read = await Promise.all(chunk.map(([key, add]) => readFile(store, snapshot, key, add)));
    for (const fileRows of read) {
      for (const row of fileRows) rows.push(row);
    }
  }
  return rows;
}

async function readFile(
  store: ObjectStore,
  snapshot: DeltaSnapshot,
  key: string,
  add: AddFileAction,
): Promise<Row[]> {
  const bytes = await store.get(key);
  if (!bytes) {
    throw new DeltaTableError(
      `Delta table ${snapshot.table}: data file ${key} of version ${snapshot.version} is missing; it was deleted outside the log (a vacuum with too short a retention?). Restore it, or rewrite the table.`,
    );
  }
  const dataSchema = snapshot.dataSchema;
  const { rows } = await readParquet(bytes, {
    schema: dataSchema,
    source: `${snapshot.table}/${key}`,
  });
  if (snapshot.partitionColumns.length === 0) return rows;
  // Each table column is either the next data column of the file or a partition value from the log.
  const partitions = new Set(snapshot.partitionColumns);
  const sources = snapshot.schema.fields.map((f) =>
    partitions.has(f.name)
      ? {
          value: parsePartitionValue(
            add.partitionValues[f.name],
            f.dataType,
            f.name,
            snapshot.table,
          ),
        }
      : { index: dataSchema.fields.findIndex((g) => g.name === f.name) },
  );
  return rows.map((row) => sources.map((s) => ('value' in s ? s.value : row[s.index])));
}
