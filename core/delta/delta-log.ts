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
 */
import { LocalDirectoryStore } from '../checkpoint/local-directory-store.js';
import type { CreateResult, ObjectStore } from '../checkpoint/object-store.js';
import { DeltaTableError } from '../errors.js';
import { decodeCommit, type DeltaAction, encodeCommit } from './delta-actions.js';
import { type DeltaCommit, DeltaSnapshot } from './delta-snapshot.js';

/** The log's directory under the table root. */
const DELTA_LOG_DIRECTORY = '_delta_log';

const COMMIT_FILE = /^_delta_log\/(\d{20})\.json$/;

/** Commit files read at once when catching up: enough to hide S3 latency, few enough for its connection pool. */
const READ_CONCURRENCY = 32;

/**
 * Where a Delta table lives: a local directory, or an ObjectStore whose root is the table root (an
 * S3ObjectStore with the table's prefix for a table on S3).
 */
export type DeltaTableLocation = string | ObjectStore;

/** The key of the commit file of `version`. */
export function commitKey(version: number): string {
  return `${DELTA_LOG_DIRECTORY}/${String(version).padStart(20, '0')}.json`;
}

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
    const keys = await this.store.list(`${DELTA_LOG_DIRECTORY}/`);
    return keys.flatMap((key) => {
      const match = COMMIT_FILE.exec(key);
      return match ? [Number(match[1])] : [];
    });
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
   * `previous`, reads only the versions after it. Throws DeltaTableError when the log does not start
   * at version 0 (older commits were cleaned up after a checkpoint, which Sluice cannot read yet).
   */
  snapshot(previous: DeltaSnapshot): Promise<DeltaSnapshot>;
  snapshot(previous?: DeltaSnapshot): Promise<DeltaSnapshot | undefined>;
  async snapshot(previous?: DeltaSnapshot): Promise<DeltaSnapshot | undefined> {
    const after = previous?.version ?? -1;
    const versions = (await this.versions()).filter((v) => v > after);
    if (versions.length === 0) return previous;
    if (!previous && versions[0] !== 0) {
      throw new DeltaTableError(
        `Delta table ${this.table}: the log starts at version ${versions[0]} because older commits were cleaned up after a checkpoint; Sluice cannot read Delta checkpoints yet, so read this table with another engine or rewrite it.`,
      );
    }
    const commits: DeltaCommit[] = [];
    for (let i = 0; i < versions.length; i += READ_CONCURRENCY) {
      const chunk = versions.slice(i, i + READ_CONCURRENCY);
      const read = await Promise.all(chunk.map((v) => this.readCommit(v)));
      chunk.forEach((version, j) => commits.push({ version, actions: read[j] }));
    }
    return DeltaSnapshot.replay(this.table, previous, commits);
  }

  /**
   * Writes `actions` as `version` if no other writer has: `created` means the commit is the table's
   * version `version`; `exists` means another writer took that version first.
   */
  commit(version: number, actions: readonly DeltaAction[]): Promise<CreateResult> {
    return this.store.putIfAbsent(commitKey(version), encodeCommit(actions));
  }
}
