/**
 * Reads the rows of Delta data files: every data file a snapshot lists (and no other file under the
 * table root: removed files and files of failed writers stay invisible), or the files a stream source
 * admitted. Each is read with the table's data schema, so a column a file lacks reads as NULL, as the
 * protocol requires; partition columns come from the log's partition values, not from the files.
 */
import type { ObjectStore } from '../checkpoint/object-store.js';
import { DeltaTableError } from '../errors.js';
import { readParquet } from '../io/parquet.js';
import type { Row } from '../types/row.js';
import type { StructType } from '../types/data-types.js';
import type { AddFileAction } from './delta-actions.js';
import type { DeltaSnapshot } from './delta-snapshot.js';
import { parsePartitionValue } from './partition-values.js';

/** Data files read at once: enough to hide S3 latency, few enough to bound memory. */
const READ_CONCURRENCY = 16;

/** How a table's rows are laid out in its files; a DeltaSnapshot is one. */
export interface TableLayout {
  /** The table's location, for messages. */
  readonly table: string;
  /** The table's schema, partition columns included. */
  readonly schema: StructType;
  /** The schema of the data files: the table's columns without the partition columns. */
  readonly dataSchema: StructType;
  readonly partitionColumns: readonly string[];
}

/** A data file to read: its key under the table root, its add action and the version that added it. */
export interface DataFileToRead {
  readonly key: string;
  readonly add: AddFileAction;
  /** The version the file is read as part of, for messages. */
  readonly version: number;
}

/** The rows of `snapshot`, a snapshot of the table rooted at `store`, in the table's column order. */
export function readSnapshotRows(store: ObjectStore, snapshot: DeltaSnapshot): Promise<Row[]> {
  const files = [...snapshot.files].map(([key, add]) => ({ key, add, version: snapshot.version }));
  return readDataFiles(store, snapshot, files);
}

/** The rows of `files` of the table rooted at `store`, file after file, in the table's column order. */
export async function readDataFiles(
  store: ObjectStore,
  layout: TableLayout,
  files: readonly DataFileToRead[],
): Promise<Row[]> {
  const rows: Row[] = [];
  for (let i = 0; i < files.length; i += READ_CONCURRENCY) {
    const chunk = files.slice(i, i + READ_CONCURRENCY);
    const read = await Promise.all(chunk.map((file) => readFile(store, layout, file)));
    for (const fileRows of read) {
      for (const row of fileRows) rows.push(row);
    }
  }
  return rows;
}

async function readFile(
  store: ObjectStore,
  layout: TableLayout,
  { key, add, version }: DataFileToRead,
): Promise<Row[]> {
  const bytes = await store.get(key);
  if (!bytes) {
    throw new DeltaTableError(
      `Delta table ${layout.table}: data file ${key} of version ${version} is missing; it was deleted outside the log (a vacuum with too short a retention?). Restore it, or rewrite the table.`,
    );
  }
  const dataSchema = layout.dataSchema;
  const { rows } = await readParquet(bytes, {
    schema: dataSchema,
    source: `${layout.table}/${key}`,
  });
  if (layout.partitionColumns.length === 0) return rows;
  // Each table column is either the next data column of the file or a partition value from the log.
  const partitions = new Set(layout.partitionColumns);
  const sources = layout.schema.fields.map((f) =>
    partitions.has(f.name)
      ? {
          value: parsePartitionValue(add.partitionValues[f.name], f.dataType, f.name, layout.table),
        }
      : { index: dataSchema.fields.findIndex((g) => g.name === f.name) },
  );
  return rows.map((row) => sources.map((s) => ('value' in s ? s.value : row[s.index])));
}
