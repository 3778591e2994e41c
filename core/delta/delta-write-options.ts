/**
 * The options every Delta writer takes (the streaming sink and the batch writer), checked when the
 * writer is made, each error naming the writer and the option.
 */
import { InvalidOptionError } from '../errors.js';
import { type ParquetCompression, writeCodec } from '../io/parquet.js';
import { checkTableProperties } from './table-properties.js';

/** Options of a Delta writer. */
export interface DeltaWriteOptions {
  /**
   * The columns to partition the table by, as Hive-style directories (`category=books/`). Applies
   * when the writer creates the table; an existing table keeps its partitioning, and giving different
   * columns for it is an error.
   * @default the existing table's partition columns, or none
   */
  readonly partitionBy?: readonly string[];
  /**
   * The size in bytes a data file should not grow beyond; the rows of one partition are split into
   * files of about this size.
   * @default 134217728 (128 MiB)
   */
  readonly targetFileSize?: number;
  /**
   * The Parquet codec of the data files: SNAPPY, ZSTD (Node.js 22.15 or later), GZIP or UNCOMPRESSED,
   * in any case.
   * @default 'SNAPPY' (Spark's default)
   */
  readonly compression?: string;
  /**
   * Table properties (`metaData.configuration`) of a table the writer creates, such as
   * `{'delta.appendOnly': 'true'}` or `{'delta.checkpointInterval': '20'}`.
   * @default {}
   */
  readonly configuration?: Readonly<Record<string, string>>;
  /**
   * How many log versions one write tries to commit at while other writers take them first.
   * @default 10
   */
  readonly maxCommitAttempts?: number;
}

/** The default target size of a data file: Delta's and Spark's usual 128 MiB. */
export const DEFAULT_TARGET_FILE_SIZE = 128 * 1024 * 1024;
/** The default number of log versions one write tries before DeltaConflictError. */
export const DEFAULT_MAX_COMMIT_ATTEMPTS = 10;

/** Checked options with their defaults applied. */
export interface DeltaWriteSettings {
  readonly partitionBy: readonly string[] | undefined;
  readonly targetFileSize: number;
  readonly compression: ParquetCompression;
  readonly configuration: Readonly<Record<string, string>>;
  readonly maxCommitAttempts: number;
}

/** Checks `options`; `owner` (e.g. `DeltaSink`) names the writer in the InvalidOptionError. */
export function deltaWriteSettings(options: DeltaWriteOptions, owner: string): DeltaWriteSettings {
  const configuration = validConfiguration(options.configuration ?? {}, owner);
  checkTableProperties(configuration, owner);
  return {
    partitionBy: validPartitionBy(options.partitionBy, owner),
    targetFileSize: positiveInteger(
      owner,
      'targetFileSize',
      options.targetFileSize ?? DEFAULT_TARGET_FILE_SIZE,
    ),
    compression: writeCodec(
      String(options.compression ?? 'SNAPPY').toUpperCase() as ParquetCompression,
    ),
    configuration,
    maxCommitAttempts: positiveInteger(
      owner,
      'maxCommitAttempts',
      options.maxCommitAttempts ?? DEFAULT_MAX_COMMIT_ATTEMPTS,
    ),
  };
}

function validPartitionBy(
  columns: readonly string[] | undefined,
  owner: string,
): readonly string[] | undefined {
  if (columns === undefined) return undefined;
  if (!Array.isArray(columns) || columns.some((c) => typeof c !== 'string' || c === '')) {
    throw new InvalidOptionError(
      `${owner} option 'partitionBy' must be an array of column names, got ${JSON.stringify(columns)}.`,
    );
  }
  return [...columns];
}

function positiveInteger(owner: string, name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new InvalidOptionError(
      `${owner} option '${name}' must be a positive integer, got ${JSON.stringify(value)}.`,
    );
  }
  return value;
}

function validConfiguration(
  configuration: Readonly<Record<string, string>>,
  owner: string,
): Readonly<Record<string, string>> {
  const bad = Object.entries(configuration).find(([, v]) => typeof v !== 'string');
  if (bad) {
    throw new InvalidOptionError(
      `${owner} option 'configuration': table property '${bad[0]}' must be a string (Delta stores properties as text), got ${JSON.stringify(bad[1])}.`,
    );
  }
  return { ...configuration };
}
