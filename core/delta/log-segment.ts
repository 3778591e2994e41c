/**
 * Which files of a Delta log make up the snapshot of one version: the newest complete checkpoint at or
 * before it, and every commit after that checkpoint up to the version ("log segment", as Delta's
 * readers call it). A pure decision over the listed file names; DeltaLog does the listing and reading.
 *
 * Log file names (the version zero-padded to 20 digits, part numbers to 10):
 * - `<version>.json`: a commit;
 * - `<version>.checkpoint.parquet`: a classic checkpoint;
 * - `<version>.checkpoint.<part>.<parts>.parquet`: one part of a multi-part checkpoint, complete only
 *   when every part is listed (its parts are not written atomically, so readers ignore incomplete ones).
 * Other files (`_last_checkpoint`, `.crc` files, UUID-named V2 checkpoints, which only tables needing
 * a newer reader have) play no part.
 */
import { DeltaTableError } from '../errors.js';

/** The log's directory under the table root. */
export const DELTA_LOG_DIRECTORY = '_delta_log';

/** A file of the log that holds actions. */
export type LogFile =
  | { readonly kind: 'commit'; readonly version: number; readonly key: string }
  | {
      readonly kind: 'checkpoint';
      readonly version: number;
      readonly key: string;
      /** 1-based part number; 1 of 1 for a classic checkpoint. */
      readonly part: number;
      readonly parts: number;
    };

/** A complete checkpoint: its version and the keys of its files, in part order. */
export interface CheckpointFiles {
  readonly version: number;
  readonly keys: readonly string[];
}

/** The files to read for the snapshot of `version`. */
export interface LogSegment {
  readonly version: number;
  readonly checkpoint?: CheckpointFiles;
  /** The commit versions after the checkpoint (from 0 without one) up to `version`, ascending. */
  readonly commits: readonly number[];
}

const LOG_FILE =
  /^_delta_log\/(\d{20})\.(?:(json)|checkpoint\.parquet|checkpoint\.(\d{10})\.(\d{10})\.parquet)$/;

/** The key of the commit file of `version`. */
export function commitKey(version: number): string {
  return `${DELTA_LOG_DIRECTORY}/${padded(version)}.json`;
}

/** The key of the classic checkpoint of `version`. */
export function checkpointKey(version: number): string {
  return `${DELTA_LOG_DIRECTORY}/${padded(version)}.checkpoint.parquet`;
}

/**
 * The key prefix shared by every log file of the `10^width` versions from the one `version` falls
 * in: listing it lists only that range of the log, the way readers use `_last_checkpoint` to avoid
 * listing a long log from the start.
 */
export function versionRangePrefix(version: number, width: number): string {
  return `${DELTA_LOG_DIRECTORY}/${padded(version).slice(0, 20 - width)}`;
}

/** The log file a key names, or undefined for any other key. */
export function parseLogKey(key: string): LogFile | undefined {
  const match = LOG_FILE.exec(key);
  if (!match) return undefined;
  const version = Number(match[1]);
  if (match[2]) return { kind: 'commit', version, key };
  const part = match[3] === undefined ? 1 : Number(match[3]);
  const parts = match[4] === undefined ? 1 : Number(match[4]);
  return { kind: 'checkpoint', version, key, part, parts };
}

/** The complete checkpoints among `files`, ascending by version; a classic one wins a tie. */
export function completeCheckpoints(files: readonly LogFile[]): CheckpointFiles[] {
  const byVersionAndParts = new Map<string, (string | undefined)[]>();
  for (const f of files) {
    if (f.kind !== 'checkpoint' || f.part < 1 || f.part > f.parts) continue;
    const id = `${f.version}/${f.parts}`;
    const keys = byVersionAndParts.get(id) ?? Array.from({ length: f.parts }, () => undefined);
    keys[f.part - 1] = f.key;
    byVersionAndParts.set(id, keys);
  }
  const best = new Map<number, CheckpointFiles>();
  for (const [id, parts] of byVersionAndParts) {
    const version = Number(id.split('/')[0]);
    const keys = parts.filter((k) => k !== undefined);
    if (keys.length < parts.length) continue;
    const current = best.get(version);
    if (!current || keys.length < current.keys.length) best.set(version, { version, keys });
  }
  return [...best.values()].sort((a, b) => a.version - b.version);
}

/**
 * The segment for version `upTo` (default: the latest commit) from the listed `files`, or undefined
 * when they hold no commit and no checkpoint (no table). Throws DeltaTableError naming `table` when
 * the files cannot make up that version: a commit after the checkpoint is missing, the log starts
 * after version 0 without a checkpoint to cover the versions before, or `upTo` is beyond the log.
 */
export function logSegment(
  table: string,
  files: readonly LogFile[],
  upTo?: number,
): LogSegment | undefined {
  const commits = new Set(files.flatMap((f) => (f.kind === 'commit' ? [f.version] : [])));
  const checkpoints = completeCheckpoints(files);
  const latest = files.reduce((max, f) => Math.max(max, f.version), -1);
  if (latest < 0) return undefined;
  const version = upTo ?? latest;
  if (version > latest) {
    throw new DeltaTableError(
      `Delta table ${table} has no version ${version}: its latest version is ${latest}.`,
    );
  }
  const checkpoint = checkpoints.filter((c) => c.version <= version).pop();
  const from = (checkpoint?.version ?? -1) + 1;
  const needed = Array.from({ length: version - from + 1 }, (_, i) => from + i);
  const missing = needed.find((v) => !commits.has(v));
  if (missing !== undefined) {
    const earliest = files.reduce((min, f) => Math.min(min, f.version), Infinity);
    throw gap(table, missing, checkpoint, earliest);
  }
  return { version, ...(checkpoint ? { checkpoint } : {}), commits: needed };
}

function gap(
  table: string,
  missing: number,
  checkpoint: CheckpointFiles | undefined,
  earliest: number,
): DeltaTableError {
  if (!checkpoint && missing === 0) {
    return new DeltaTableError(
      `Delta table ${table}: the log starts at version ${earliest} and no complete checkpoint covers the versions before it (they were cleaned up without one); restore the missing commits or checkpoint from a backup.`,
    );
  }
  const after = checkpoint ? `the checkpoint of version ${checkpoint.version}` : 'version 0';
  return new DeltaTableError(
    `Delta table ${table}: commit ${commitKey(missing)} is missing from the log, between ${after} and later versions; restore it from a backup.`,
  );
}

function padded(version: number): string {
  return String(version).padStart(20, '0');
}
