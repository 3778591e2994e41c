/**
 * Writes a batch's rows as the Parquet data files of a Delta table and describes each as an `add`
 * action (path, partition values, size, time, statistics).
 *
 * Rows are grouped by their partition values; each group goes under its Hive-style directory
 * (`category=books/`) without the partition columns, which live in the log, as Spark lays tables out.
 * A group is split into files of about the target size. The size of a file is only known once it is
 * encoded, so the split uses the rows' in-memory size (string lengths, 8 bytes a number, ...);
 * compression makes the files come out at or below the target for all but tiny targets.
 *
 * Every file gets a name no other writer or attempt uses (a random UUID), so a retried batch or a
 * writer that lost a commit race never overwrites a file a committed version references.
 */
import { randomUUID } from 'node:crypto';
import type { ObjectStore } from '../checkpoint/object-store.js';
import { type ParquetCompression, writeParquet } from '../io/parquet.js';
import type { DataType, StructType } from '../types/data-types.js';
import type { Row } from '../types/row.js';
import type { AddFileAction, PartitionValues } from './delta-actions.js';
import { fileStats } from './file-stats.js';
import { toLogPath } from './log-paths.js';
import { formatPartitionValue, partitionDirectory } from './partition-values.js';

/** How a table's data files are written. */
export interface DataFileOptions {
  /** The partition columns, in directory order. */
  readonly partitionColumns: readonly string[];
  /** The size a file should not grow beyond, in bytes. */
  readonly targetFileSize: number;
  readonly compression: ParquetCompression;
}

/** The file name suffix Spark gives each codec. */
const EXTENSIONS: Record<ParquetCompression, string> = {
  SNAPPY: '.snappy.parquet',
  ZSTD: '.zstd.parquet',
  GZIP: '.gz.parquet',
  UNCOMPRESSED: '.parquet',
};

/** The rows of one partition. */
interface PartitionGroup {
  readonly values: PartitionValues;
  readonly directory: string;
  readonly rows: readonly Row[];
}

/**
 * Writes `rows` of the table schema `schema` as data files under the table root of `store`, and
 * returns their add actions (dataChange true, modificationTime `now`). No rows, no files.
 */
export async function writeDataFiles(
  store: ObjectStore,
  rows: readonly Row[],
  schema: StructType,
  options: DataFileOptions,
  now: number,
): Promise<AddFileAction[]> {
  const partitionIndexes = options.partitionColumns.map((c) =>
    schema.fields.findIndex((f) => f.name === c),
  );
  const dataIndexes = schema.fields.map((_, i) => i).filter((i) => !partitionIndexes.includes(i));
  const dataSchema: StructType = {
    kind: 'struct',
    fields: dataIndexes.map((i) => schema.fields[i]),
  };
  const files: { group: PartitionGroup; rows: readonly Row[] }[] = [];
  for (const group of groupByPartition(rows, schema, partitionIndexes, dataIndexes)) {
    for (const chunk of splitBySize(group.rows, dataSchema, options.targetFileSize)) {
      files.push({ group, rows: chunk });
    }
  }
  return Promise.all(
    files.map(async ({ group, rows: fileRows }, i) => {
      const name = `part-${String(i).padStart(5, '0')}-${randomUUID()}.c000${EXTENSIONS[options.compression]}`;
      const key = group.directory + name;
      const bytes = writeParquet(fileRows, dataSchema, { compression: options.compression });
      await store.put(key, bytes);
      return {
        path: toLogPath(key),
        partitionValues: group.values,
        size: bytes.byteLength,
        modificationTime: now,
        dataChange: true,
        stats: fileStats(fileRows, dataSchema),
      };
    }),
  );
}

/** Groups rows by partition values, in order of first appearance; rows keep only the data columns. */
function groupByPartition(
  rows: readonly Row[],
  schema: StructType,
  partitionIndexes: readonly number[],
  dataIndexes: readonly number[],
): PartitionGroup[] {
  if (partitionIndexes.length === 0) return [{ values: {}, directory: '', rows }];
  const groups = new Map<string, { values: PartitionValues; directory: string; rows: Row[] }>();
  for (const row of rows) {
    const texts = partitionIndexes.map((i) =>
      formatPartitionValue(row[i], schema.fields[i].dataType),
    );
    const id = JSON.stringify(texts);
    let group = groups.get(id);
    if (!group) {
      const names = partitionIndexes.map((i) => schema.fields[i].name);
      group = {
        values: Object.fromEntries(names.map((name, j) => [name, texts[j]])),
        directory: names.map((name, j) => `${partitionDirectory(name, texts[j])}/`).join(''),
        rows: [],
      };
      groups.set(id, group);
    }
    group.rows.push(dataIndexes.map((i) => row[i]));
  }
  return [...groups.values()];
}

/** Consecutive runs of rows whose estimated size stays within `target` (at least one row each). */
function splitBySize(rows: readonly Row[], schema: StructType, target: number): (readonly Row[])[] {
  if (rows.length === 0) return []; // no rows, no file: an empty batch commits only its txn
  const sizeOf = rowSizer(schema);
  const chunks: (readonly Row[])[] = [];
  let start = 0;
  let bytes = 0;
  for (let i = 0; i < rows.length; i++) {
    const size = sizeOf(rows[i]);
    if (i > start && bytes + size > target) {
      chunks.push(rows.slice(start, i));
      start = i;
      bytes = 0;
    }
    bytes += size;
  }
  // The common case, a batch within one file, keeps the batch's own array.
  if (start === 0) chunks.push(rows);
  else if (start < rows.length) chunks.push(rows.slice(start));
  return chunks;
}

/**
 * The estimated size of a row of `schema`: fixed-width columns (structs of them too) count their full
 * width, NULLs included, which only errs towards smaller files; so only variable-width values are
 * looked at per row.
 */
function rowSizer(schema: StructType): (row: Row) => number {
  let fixed = 0;
  const variable: { index: number; type: DataType }[] = [];
  schema.fields.forEach((f, index) => {
    const width = fixedWidth(f.dataType);
    if (width === undefined) variable.push({ index, type: f.dataType });
    else fixed += width;
  });
  return (row) => {
    let n = fixed;
    for (const { index, type } of variable) n += estimatedBytes(row[index], type);
    return n;
  };
}

/** The bytes every value of `type` takes, or undefined when values differ in size. */
function fixedWidth(type: DataType): number | undefined {
  if (type.kind !== 'struct') return FIXED_WIDTHS[type.kind];
  let width = 0;
  for (const f of type.fields) {
    const w = fixedWidth(f.dataType);
    if (w === undefined) return undefined;
    width += w;
  }
  return width;
}

/** Bytes a value of a fixed-width atomic type takes in an uncompressed Parquet page. */
const FIXED_WIDTHS: Partial<Record<DataType['kind'], number>> = {
  boolean: 1,
  int: 4,
  date: 4,
  long: 8,
  double: 8,
  timestamp: 8,
};

/** Roughly the bytes a value takes in an uncompressed Parquet page. */
function estimatedBytes(value: unknown, type: DataType): number {
  if (value === null || value === undefined) return 1;
  switch (type.kind) {
    case 'string':
      return 4 + (value as string).length;
    case 'binary':
      return 4 + (value as Uint8Array).byteLength;
    case 'boolean':
      return 1;
    case 'int':
    case 'date':
      return 4;
    case 'struct':
      return type.fields.reduce((n, f, i) => n + estimatedBytes((value as Row)[i], f.dataType), 0);
    case 'array':
      return (value as unknown[]).reduce<number>(
        (n, v) => n + estimatedBytes(v, type.elementType),
        4,
      );
    case 'map': {
      let n = 4;
      for (const [k, v] of value as Map<unknown, unknown>) {
        n += estimatedBytes(k, type.keyType) + estimatedBytes(v, type.valueType);
      }
      return n;
    }
    default:
      return 8;
  }
}
