/**
 * The Parquet form of a classic Delta checkpoint (V1 spec, "Checkpoint Schema" in the Delta
 * protocol): one row per action, one nullable struct column per action kind — `txn`, `add`,
 * `remove`, `metaData`, `protocol` — of which each row fills exactly one. Maps (partition values,
 * configuration, format options, tags) are Parquet MAPs of strings, `stats` stays a JSON string, as
 * `delta.checkpoint.writeStatsAsJson` (default true) asks; `partitionValues_parsed` and
 * `stats_parsed` are left out, as `delta.checkpoint.writeStatsAsStruct` (default false) allows.
 *
 * Reading takes the same columns from any classic or multi-part checkpoint (Spark's too): columns the
 * file lacks read as NULL, columns Sluice does not know are not read, and every row goes through the
 * same validation as a line of a commit file.
 */
import { DeltaTableError, ExecutionError } from '../errors.js';
import { readParquet, writeParquet } from '../io/parquet.js';
import {
  ArrayOf,
  BooleanType,
  type DataType,
  field,
  IntegerType,
  LongType,
  MapOf,
  StringType,
  struct,
  type StructType,
} from '../types/data-types.js';
import type { Row } from '../types/row.js';
import { decodeActions, type DeltaAction } from './delta-actions.js';

const StringMap = MapOf(StringType, StringType);

/** The action kinds a checkpoint holds, with the fields Sluice writes and reads, in column order. */
const ACTION_TYPES: Record<string, StructType> = {
  txn: struct([
    field('appId', StringType),
    field('version', LongType),
    field('lastUpdated', LongType),
  ]),
  add: struct([
    field('path', StringType),
    field('partitionValues', StringMap),
    field('size', LongType),
    field('modificationTime', LongType),
    field('dataChange', BooleanType),
    field('stats', StringType),
    field('tags', StringMap),
  ]),
  remove: struct([
    field('path', StringType),
    field('deletionTimestamp', LongType),
    field('dataChange', BooleanType),
    field('extendedFileMetadata', BooleanType),
    field('partitionValues', StringMap),
    field('size', LongType),
  ]),
  metaData: struct([
    field('id', StringType),
    field('name', StringType),
    field('description', StringType),
    field('format', struct([field('provider', StringType), field('options', StringMap)])),
    field('schemaString', StringType),
    field('partitionColumns', ArrayOf(StringType)),
    field('configuration', StringMap),
    field('createdTime', LongType),
  ]),
  protocol: struct([
    field('minReaderVersion', IntegerType),
    field('minWriterVersion', IntegerType),
  ]),
};

/** The schema of a checkpoint file. */
export const CHECKPOINT_SCHEMA: StructType = struct(
  Object.entries(ACTION_TYPES).map(([kind, type]) => field(kind, type)),
);

const KINDS = Object.keys(ACTION_TYPES);

/**
 * The bytes of a checkpoint file holding `actions` (the reconciled state of one version: no
 * `commitInfo`). Throws DeltaTableError for an action a checkpoint cannot hold.
 */
export function encodeCheckpoint(actions: readonly DeltaAction[]): Uint8Array {
  const rows = actions.map((action) => {
    const [kind, body] = Object.entries(action)[0] as [string, Record<string, unknown>];
    const column = KINDS.indexOf(kind);
    if (column < 0) {
      throw new DeltaTableError(
        `A Delta checkpoint holds no '${kind}' actions (only ${KINDS.join(', ')}); this is a bug in the checkpoint writer.`,
      );
    }
    const row: Row = KINDS.map(() => null);
    row[column] = toValue(body, ACTION_TYPES[kind]);
    return row;
  });
  return writeParquet(rows, CHECKPOINT_SCHEMA, { compression: 'SNAPPY' });
}

/**
 * The actions of a checkpoint file (or of one part of a multi-part checkpoint); `file` names it in
 * errors. Throws DeltaTableError when the file is not a readable Parquet file or a row is not a
 * valid action.
 */
export async function decodeCheckpoint(bytes: Uint8Array, file: string): Promise<DeltaAction[]> {
  let rows: Row[];
  try {
    ({ rows } = await readParquet(bytes, { schema: CHECKPOINT_SCHEMA, source: file }));
  } catch (cause) {
    if (!(cause instanceof ExecutionError)) throw cause;
    throw new DeltaTableError(
      `Delta checkpoint ${file} cannot be read (${cause.message}); delete it and _delta_log/_last_checkpoint so that readers replay the commit files, if the log still has them all.`,
      { cause },
    );
  }
  return rows.flatMap((row, index) => {
    const entry: Record<string, unknown> = {};
    row.forEach((value, column) => {
      if (value !== null) entry[KINDS[column]] = fromValue(value, ACTION_TYPES[KINDS[column]]);
    });
    return decodeActions(entry, file, `row ${index + 1}`);
  });
}

/** A JSON action body in the engine's form of `type`: structs as rows, maps as Maps. */
function toValue(value: unknown, type: DataType): unknown {
  if (value === null || value === undefined) return null;
  switch (type.kind) {
    case 'struct': {
      const object = value as Record<string, unknown>;
      return type.fields.map((f) => toValue(object[f.name], f.dataType));
    }
    case 'map':
      return new Map(Object.entries(value as Record<string, unknown>));
    default:
      return value;
  }
}

/** The JSON form of an engine value of `type`; NULL struct fields are left out, as in the log. */
function fromValue(value: unknown, type: DataType): unknown {
  switch (type.kind) {
    case 'struct': {
      const object: Record<string, unknown> = {};
      type.fields.forEach((f, i) => {
        const x = (value as Row)[i];
        if (x !== null && x !== undefined) object[f.name] = fromValue(x, f.dataType);
      });
      return object;
    }
    case 'map':
      return Object.fromEntries(value as Map<unknown, unknown>);
    default:
      return value;
  }
}
