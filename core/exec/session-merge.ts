/**
 * Merging sessions, as Spark's MergingSessionsIterator does: in order of start, a session or row
 * whose start is at or before the current session's end joins it (the end becomes the later of the
 * two), otherwise it starts the next session. A row's own session is [time, time + gap), so two
 * rows closer than their gap share a session, and a row exactly a gap after another joins it too.
 *
 * The same merge serves a batch query (no sessions yet, all rows) and a micro-batch (the group's
 * sessions from state, this batch's rows): a row that falls between two stored sessions and
 * reaches both merges them into one, with their accumulators merged.
 */

/** A session of one group: [start, end) and the accumulators of its rows. Stored as is in state. */
export type Session = [start: number, end: number, accumulators: unknown[]];

/** One input row with its own session. */
export interface RowSession {
  readonly start: number;
  readonly end: number;
  readonly row: readonly unknown[];
}

/** How rows and sessions fold into a session's accumulators. */
export interface SessionFold {
  newAccumulators(): unknown[];
  /** Folds `row` into `accumulators` in place. */
  update(accumulators: unknown[], row: readonly unknown[]): void;
  /** Merges `later`'s accumulators into `earlier`'s in place. */
  merge(earlier: unknown[], later: readonly unknown[]): void;
}

/**
 * The sessions of a group after `rows` join `sessions`: `sessions` must be sorted by start, none
 * reaching the next (as this function leaves them), and are merged in place; `rows` may come in
 * any order, and are put in order of start in place (rows with the same start keep their order).
 * Returns the sessions sorted by start.
 */
export function mergeSessions(
  sessions: readonly Session[],
  rows: RowSession[],
  fold: SessionFold,
): Session[] {
  const sorted = inOrderOfStart(rows);
  const merged: Session[] = [];
  let current: Session | undefined;
  let i = 0;
  let j = 0;
  while (i < sessions.length || j < sorted.length) {
    // A stored session before a row of the same start: its rows came in earlier batches.
    if (j === sorted.length || (i < sessions.length && sessions[i][0] <= sorted[j].start)) {
      const session = sessions[i++];
      if (current && session[0] <= current[1]) {
        current[1] = Math.max(current[1], session[1]);
        fold.merge(current[2], session[2]);
      } else {
        current = session;
        merged.push(current);
      }
      continue;
    }
    const { start, end, row } = sorted[j++];
    if (!current || start > current[1]) {
      current = [start, end, fold.newAccumulators()];
      merged.push(current);
    } else {
      current[1] = Math.max(current[1], end);
    }
    fold.update(current[2], row);
  }
  return merged;
}

/**
 * `rows` sorted by start, in place; a group's rows mostly arrive in order of time, so a pass that
 * finds them in order spares the sort.
 */
function inOrderOfStart(rows: RowSession[]): RowSession[] {
  for (let i = 1; i < rows.length; i++) {
    if (rows[i].start < rows[i - 1].start) return rows.sort((a, b) => a.start - b.start);
  }
  return rows;
}
