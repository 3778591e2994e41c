/**
 * DeltaLog: the transaction log of one Delta table, `_delta_log/` under the table root of an
 * ObjectStore (a local directory, or a prefix of an S3 bucket).
 *
 * Version N of the table is the commit file `_delta_log/<N as 20 digits>.json`. A writer commits
 * version N by creating that file with `putIfAbsent`, so of several writers racing for one version
 * exactly one wins and the others learn it as a value (`exists`): on the local filesystem through
 * the hard link that fails when the name is taken, on S3 through the conditional write
 * (If-None-Match: *) that real S3 enforces. Everything else a writer puts (data files) has a name no
 * other writer uses, so losing the race leaves only unreferenced files behind, never a broken table.
 *
 * Loading the latest snapshot (a reader's or a writer's first look at the table):
 *   1. hint     read `_delta_log/_last_checkpoint` (see last-checkpoint.ts).
 *   2. list     list the log from the hinted version on, widening the listed range of versions until
 *               it ends inside it; without a usable hint (missing, unreadable, or naming a checkpoint
 *               the listing lacks), list the whole log.
 *   3. segment  pick the newest complete checkpoint and the commits after it (log-segment.ts).
 *   4. replay   read the checkpoint and those commits, and replay them (delta-snapshot.ts).
 * A snapshot already held is brought up to date by listing and replaying only the newer commits.
 */
import { LocalDirectoryStore } from '../checkpoint/local-directory-store.js';
import type { ObjectStore } from '../checkpoint/object-store.js';
import { DeltaTableError } from '../errors.js';
import { decodeCheckpoint } from './checkpoint-file.js';
import { decodeCommit, type DeltaAction, encodeCommit } from './delta-actions.js';
import { type DeltaCommit, DeltaSnapshot } from './delta-snapshot.js';
import { decodeLastCheckpoint, LAST_CHECKPOINT_KEY } from './last-checkpoint.js';
import {
  type CheckpointFiles,
  commitKey,
  completeCheckpoints,
  DELTA_LOG_DIRECTORY,
  type LogFile,
  type LogSegment,
  logSegment,
  parseLogKey,
  versionRangePrefix,
} from './log-segment.js';

export { commitKey } from './log-segment.js';

/** Log files read at once: enough to hide S3 latency, few enough for its connection pool. */
const READ_CONCURRENCY = 32;

/** Digits of a version: listing by a prefix of none of them lists the whole log. */
const VERSION_DIGITS = 20;

/**
 * Where a Delta table lives: a local directory, or an ObjectStore whose root is the table root (an
 * S3ObjectStore with the table's prefix for a table on S3).
 */
export type DeltaTableLocation = string | ObjectStore;

/**
 * How an attempt to commit a version ended: this writer's version, or another writer's, with its
 * commit when the read-back found it.
 */
export type CommitAttempt =
  { readonly kind: 'created' } | { readonly kind: 'exists'; readonly winner?: DeltaCommit };

/** Reads and appends to a Delta table's log. */
export class DeltaLog {
  constructor(
    /** The store whose root is the table root. */
    readonly store: ObjectStore,
  ) {}

  /** The log of the table at `location`. */
  static at(location: DeltaTableLocation): DeltaLog {
    return new DeltaLog(
      typeof location === 'string' ? new LocalDirectoryStore(location) : location,
    );
  }

  /** The table's location, for messages. */
  get table(): string {
    return this.store.location;
  }

  /** The versions of the commit files in the log, ascending. */
  async versions(): Promise<number[]> {
    return commitVersions(await this.listAll());
  }

  /**
   * The versions of the commit files at or after `from`, ascending, listing only that end of the log
   * (the versions of a stream source still to read, or of a writer catching up).
   */
  async versionsFrom(from: number): Promise<number[]> {
    return commitVersions(await this.listFrom(from));
  }

  /** The actions of one version; throws DeltaTableError when its file is missing or damaged. */
  async readCommit(version: number): Promise<DeltaAction[]> {
    const key = commitKey(version);
    const bytes = await this.store.get(key);
    if (!bytes) {
      throw new DeltaTableError(
        `Delta table ${this.table}: commit file ${key} disappeared while the log was read; was the table deleted?`,
      );
    }
    return decodeCommit(bytes, `${this.table}/${key}`);
  }

  /**
   * The table's latest snapshot, or undefined when the log has no commit yet (no table). With
   * `previous`, reads only the versions after it; `known` are commits after it already read (a
   * race's winner), which are not read again. Throws DeltaTableError when the log cannot make up
   * the latest version (see log-segment.ts) or a file in it is damaged.
   */
  snapshot(previous: DeltaSnapshot, known?: readonly DeltaCommit[]): Promise<DeltaSnapshot>;
  snapshot(
    previous?: DeltaSnapshot,
    known?: readonly DeltaCommit[],
  ): Promise<DeltaSnapshot | undefined>;
  async snapshot(
    previous?: DeltaSnapshot,
    known: readonly DeltaCommit[] = [],
  ): Promise<DeltaSnapshot | undefined> {
    if (!previous) return this.load(undefined, known);
    const versions = await this.versionsFrom(previous.version + 1);
    if (versions.length === 0) return previous;
    // The commits right after `previous` were cleaned up: only a checkpoint can bridge the gap.
    if (versions[0] !== previous.version + 1) return (await this.load(undefined, known))!;
    return DeltaSnapshot.replay(this.table, previous, await this.readCommits(versions, known));
  }

  /**
   * The snapshot of exactly `version` (a stream's starting snapshot, read again after a restart).
   * Throws DeltaTableError when the table has no such version, or no longer has what makes it up.
   */
  async snapshotAt(version: number): Promise<DeltaSnapshot> {
    const snapshot = await this.load(version);
    if (!snapshot) {
      throw new DeltaTableError(`Delta table ${this.table} has no version ${version}: no log.`);
    }
    return snapshot;
  }

  /**
   * Writes `actions` as `version` if no other writer has: `created` means the commit is the table's
   * version `version`; `exists` means another writer took that version first, and `winner` is that
   * writer's commit as the read-back found it, so that catching up need not read it again.
   *
   * The outcome is confirmed by reading the version back, since the conditional write alone can
   * mislead: when the answer to a create that succeeded is lost (a dropped connection), the SDK
   * sends it again and gets 412, so `exists` may be this writer's own commit, which it must not
   * write again as the next version; and a store that ignores If-None-Match answers `created` to
   * every writer while the last one's commit replaces the others', which is refused here as a
   * DeltaTableError rather than reported as a success that is lost. (A commit's bytes name data
   * files no other writer uses, so equal bytes are this writer's.)
   */
  async commit(version: number, actions: readonly DeltaAction[]): Promise<CommitAttempt> {
    const key = commitKey(version);
    const bytes = encodeCommit(actions);
    const result = await this.store.putIfAbsent(key, bytes);
    const stored = await this.store.get(key);
    if (stored !== undefined && Buffer.from(stored).equals(Buffer.from(bytes))) {
      return { kind: 'created' };
    }
    if (result === 'exists') {
      // a commit file is never rewritten, so the bytes read back are the winner's for good
      const winner = stored && { version, actions: decodeCommit(stored, `${this.table}/${key}`) };
      return winner ? { kind: 'exists', winner } : { kind: 'exists' };
    }
    throw new DeltaTableError(
      `Delta table ${this.table}: version ${version} was created by this writer, yet it holds another writer's commit: ${this.store.location} does not enforce conditional writes (If-None-Match), so concurrent writers overwrite each other's versions. ` +
        'Write to this table from one writer at a time, or use a store that enforces If-None-Match (Amazon S3 does).',
    );
  }

  /** Steps 1 to 4 of the module doc, for the latest version or `upTo`. */
  private async load(
    upTo?: number,
    known: readonly DeltaCommit[] = [],
  ): Promise<DeltaSnapshot | undefined> {
    const segment = await this.segment(upTo);
    if (!segment) return undefined;
    const commits = await this.readCommits(segment.commits, known);
    if (!segment.checkpoint) return DeltaSnapshot.replay(this.table, undefined, commits);
    const checkpoint = {
      version: segment.checkpoint.version,
      actions: await this.readCheckpoint(segment.checkpoint),
    };
    return DeltaSnapshot.fromCheckpoint(this.table, checkpoint, commits);
  }

  private async segment(upTo: number | undefined): Promise<LogSegment | undefined> {
    const hint = decodeLastCheckpoint(await this.store.get(LAST_CHECKPOINT_KEY));
    if (hint && (upTo === undefined || hint.version <= upTo)) {
      const files = await this.listFrom(hint.version);
      const usable = completeCheckpoints(files).some(
        (c) => upTo === undefined || c.version <= upTo,
      );
      if (usable) return logSegment(this.table, files, upTo);
    }
    return logSegment(this.table, await this.listAll(), upTo);
  }

  /**
   * The log files of versions at or after `from`. Lists the range of 10 versions `from` falls in,
   * then of 100, 1000, ... until the log ends inside the listed range: about as many keys as there
   * are versions after `from`, however long the log before it.
   */
  private async listFrom(from: number): Promise<LogFile[]> {
    for (let width = 1; width < VERSION_DIGITS; width++) {
      const files = (await this.list(versionRangePrefix(from, width))).filter(
        (f) => f.version >= from,
      );
      const rangeEnd = (Math.floor(from / 10 ** width) + 1) * 10 ** width - 1;
      if (files.every((f) => f.version < rangeEnd)) return files;
    }
    return (await this.listAll()).filter((f) => f.version >= from);
  }

  private listAll(): Promise<LogFile[]> {
    return this.list(`${DELTA_LOG_DIRECTORY}/`);
  }

  private async list(prefix: string): Promise<LogFile[]> {
    return (await this.store.list(prefix)).flatMap((key) => parseLogKey(key) ?? []);
  }

  /** The commits of `versions`, in order; those of `known` are taken from it, not read. */
  private async readCommits(
    versions: readonly number[],
    known: readonly DeltaCommit[] = [],
  ): Promise<DeltaCommit[]> {
    const commits: DeltaCommit[] = [];
    for (let i = 0; i < versions.length; i += READ_CONCURRENCY) {
      const chunk = versions.slice(i, i + READ_CONCURRENCY);
      const read = await Promise.all(
        chunk.map((v) => known.find((c) => c.version === v)?.actions ?? this.readCommit(v)),
      );
      chunk.forEach((version, j) => commits.push({ version, actions: read[j] }));
    }
    return commits;
  }

  private async readCheckpoint(checkpoint: CheckpointFiles): Promise<DeltaAction[]> {
    const parts = await Promise.all(
      checkpoint.keys.map(async (key) => {
        const bytes = await this.store.get(key);
        if (!bytes) {
          throw new DeltaTableError(
            `Delta table ${this.table}: checkpoint file ${key} disappeared while the log was read; was the log cleaned up meanwhile? Read the table again.`,
          );
        }
        return decodeCheckpoint(bytes, `${this.table}/${key}`);
      }),
    );
    return parts.flat();
  }
}

function commitVersions(files: readonly LogFile[]): number[] {
  return files.flatMap((f) => (f.kind === 'commit' ? [f.version] : [])).sort((a, b) => a - b);
}
