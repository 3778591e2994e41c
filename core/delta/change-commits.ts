/**
 * Which data files a Delta stream reads from one commit, and what it does with a commit that changes
 * or deletes data already streamed, with Spark's Delta source options:
 * - Files added with dataChange false (compaction, OPTIMIZE) and removes with dataChange false are
 *   rearrangements of data already read: never read, never a problem.
 * - A commit removing data (a `remove` with dataChange true) fails the stream, since the rows it took
 *   away were already passed on, unless an option says what to do:
 *   - `ignoreDeletes`: a commit that only removes (a DELETE of whole partitions) is passed over; one
 *     that also adds (an UPDATE, MERGE or overwrite) still fails.
 *   - `ignoreChanges`: a commit that removes and adds is read for its added files, which repeat
 *     unchanged rows of the files it rewrote (so downstream sees duplicates); removes are passed
 *     over. Includes ignoreDeletes.
 *   - `skipChangeCommits`: any commit that removes data is passed over whole, its added files too.
 */
import { SourceError } from '../errors.js';
import type { AddFileAction, DeltaAction } from './delta-actions.js';

/** The options deciding about commits that remove data. */
export interface ChangeCommitOptions {
  readonly ignoreDeletes: boolean;
  readonly ignoreChanges: boolean;
  readonly skipChangeCommits: boolean;
}

/**
 * The `add` actions of a commit the stream reads, in commit order. `table` and `version` name the
 * commit in the SourceError thrown when it removes data and no option admits that.
 */
export function streamedAdds(
  actions: readonly DeltaAction[],
  options: ChangeCommitOptions,
  table: string,
  version: number,
): AddFileAction[] {
  const adds = actions.flatMap((a) => ('add' in a && a.add.dataChange ? [a.add] : []));
  const removed = actions.find((a) => 'remove' in a && a.remove.dataChange);
  if (!removed || !('remove' in removed)) return adds;
  if (options.skipChangeCommits) return [];
  if (adds.length === 0 && (options.ignoreDeletes || options.ignoreChanges)) return [];
  if (adds.length > 0 && options.ignoreChanges) return adds;
  const example = removed.remove.path;
  if (adds.length === 0) {
    throw new SourceError(
      `Delta stream over ${table}: version ${version} deletes data (for example ${example}) that the stream already read; streams do not take back rows. To pass over commits that only delete, set the option ignoreDeletes to true; to pass over every commit that changes data, skipChangeCommits.`,
    );
  }
  throw new SourceError(
    `Delta stream over ${table}: version ${version} updates data (for example it rewrites ${example}) that the stream already read; streams do not take back rows. To pass over such commits, set the option skipChangeCommits to true; to read their new files anyway (repeating unchanged rows), ignoreChanges.`,
  );
}
