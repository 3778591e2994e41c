/**
 * Writes the rows of a batch query to a Delta table as one version (`df.write.format('delta')`),
 * with Spark's save modes:
 * - `errorifexists` (default): create the table; fail if it exists.
 * - `ignore`: create the table; do nothing if it exists.
 * - `append`: add the rows to the table, creating it if needed.
 * - `overwrite`: replace the table's content: one version removing every file and adding the new
 *   ones, so readers see the old content or the new, never a mix. The schema and partitioning stay
 *   the table's (the rows must fit them); an append-only table refuses it.
 * It is one optimistic write (delta-transaction.ts), retried at the next version when another writer
 * commits first; an overwrite then removes what the table holds at that version. Every
 * `delta.checkpointInterval` versions it writes a checkpoint, best effort.
 */
import { AnalysisError, DeltaConflictError, InvalidOptionError } from '../errors.js';
import type { StructType } from '../types/data-types.js';
import type { Row } from '../types/row.js';
import { writeDataFiles } from './data-file-writer.js';
import type { DeltaAction } from './delta-actions.js';
import type { CheckpointOutcome } from './delta-checkpoint.js';
import { DeltaLog, type DeltaTableLocation } from './delta-log.js';
import type { DeltaSnapshot } from './delta-snapshot.js';
import {
  commitWrite,
  createTableActions,
  type DeltaWrite,
  removeAllActions,
} from './delta-transaction.js';
import { type DeltaWriteOptions, deltaWriteSettings } from './delta-write-options.js';
import { checkPartitioning, checkWritable } from './write-checks.js';

/** What to do when the table exists (Spark's SaveMode). */
export type DeltaSaveMode = 'errorifexists' | 'ignore' | 'append' | 'overwrite';

const SAVE_MODES: readonly DeltaSaveMode[] = ['errorifexists', 'ignore', 'append', 'overwrite'];

/** How Spark names each mode in commitInfo. */
const SPARK_MODE_NAMES: Record<DeltaSaveMode, string> = {
  errorifexists: 'ErrorIfExists',
  ignore: 'Ignore',
  append: 'Append',
  overwrite: 'Overwrite',
};

/** Options of {@link writeDeltaTable}. */
export interface DeltaTableWriteOptions extends DeltaWriteOptions {
  /** @default 'errorifexists' */
  readonly mode?: DeltaSaveMode;
}

/** What a batch write did. */
export interface DeltaTableWriteResult {
  /** The version the write committed; undefined when mode `ignore` found the table. */
  readonly version: number | undefined;
  /** The checkpoint the version was due for, if it was due for one. */
  readonly checkpoint?: CheckpointOutcome;
}

/**
 * Writes `rows` of `schema` to the Delta table at `location` as one version (see the module doc).
 * Throws InvalidOptionError for invalid options, AnalysisError when the rows do not fit the table or
 * mode `errorifexists` finds it, DeltaTableError when the table needs a newer writer, and the
 * retriable DeltaConflictError after losing `maxCommitAttempts` races.
 */
export async function writeDeltaTable(
  location: DeltaTableLocation,
  rows: readonly Row[],
  schema: StructType,
  options: DeltaTableWriteOptions = {},
): Promise<DeltaTableWriteResult> {
  const log = DeltaLog.at(location);
  const mode = options.mode ?? 'errorifexists';
  if (!SAVE_MODES.includes(mode)) {
    throw new InvalidOptionError(
      `Unknown save mode '${String(mode)}' for Delta table ${log.table}; use ${SAVE_MODES.join(', ')}.`,
    );
  }
  const settings = deltaWriteSettings(options, 'Delta writer');
  const now = Date.now();
  const write: DeltaWrite = {
    isDone: (snapshot) => mode === 'ignore' && snapshot !== undefined,
    check: (snapshot) => {
      if (!snapshot) return checkPartitioning(log.table, schema, settings.partitionBy ?? []);
      if (mode === 'errorifexists') {
        throw new AnalysisError(
          `Delta table ${log.table} already exists (version ${snapshot.version}); use mode('append') to add rows, mode('overwrite') to replace them, or mode('ignore').`,
        );
      }
      checkWritable(
        snapshot,
        schema,
        settings.partitionBy,
        mode === 'append' ? 'append' : 'complete',
      );
    },
    writeFiles: (snapshot) =>
      writeDataFiles(
        log.store,
        rows,
        snapshot?.schema ?? schema,
        {
          partitionColumns: snapshot?.partitionColumns ?? settings.partitionBy ?? [],
          targetFileSize: settings.targetFileSize,
          compression: settings.compression,
        },
        now,
      ),
    actions: (snapshot, adds) => [
      commitInfo(snapshot, mode, settings.partitionBy, now),
      ...(snapshot
        ? []
        : createTableActions(schema, settings.partitionBy ?? [], settings.configuration, now)),
      ...(mode === 'overwrite' && snapshot ? removeAllActions(snapshot, now) : []),
      ...adds.map((add) => ({ add })),
    ],
    conflict: (first, last, attempts) =>
      new DeltaConflictError(
        `Delta table ${log.table}: a ${mode} write lost the race for log versions ${first} to ${last} to other writers in ${attempts} attempts; write again, or from fewer writers at once.`,
      ),
  };
  const outcome = await commitWrite(log, undefined, write, settings.maxCommitAttempts);
  if (outcome.kind === 'done-before') return { version: undefined };
  return {
    version: outcome.snapshot.version,
    ...(outcome.checkpoint ? { checkpoint: outcome.checkpoint } : {}),
  };
}

function commitInfo(
  snapshot: DeltaSnapshot | undefined,
  mode: DeltaSaveMode,
  partitionBy: readonly string[] | undefined,
  now: number,
): DeltaAction {
  return {
    commitInfo: {
      timestamp: now,
      operation: 'WRITE',
      operationParameters: {
        mode: SPARK_MODE_NAMES[mode],
        partitionBy: JSON.stringify(partitionBy ?? snapshot?.partitionColumns ?? []),
      },
      ...(snapshot ? { readVersion: snapshot.version } : {}),
      isBlindAppend: mode !== 'overwrite',
      engineInfo: 'Sluice',
    },
  };
}
