/**
 * One side of a stream-stream join in its state store, for one batch: under each encoded join key
 * the side's rows with that key, each with its "matched" flag (whether it has joined a row of the
 * other side yet: an outer join emits a row with nulls only for a row that never matched).
 *
 * One entry per join key, holding the key's rows, keeps a probe to one read and the state's files
 * to the keys a batch changed; a key usually holds few rows (an ad impression, its clicks), so
 * rewriting its list when a row is added costs little. (Spark splits a key's rows over two stores,
 * a count per key and one entry per row, which suits keys with very many rows.)
 *
 * Values loaded from the store belong to the loaded version, which a re-run may read again, so
 * they are never changed in place: a key's first change in a batch makes a new list, kept here
 * until `flush` writes each changed key once. That list is this batch's own, so the key's further
 * changes before the flush are made to it in place rather than by copying it again.
 */
import type { StateStore } from '../state/state-store.js';
import type { Row } from '../types/row.js';

/** A row held in a join's state and whether it has matched (1) or not yet (0). */
export type JoinStateEntry = readonly [row: Row, matched: 0 | 1];

/** One side's rows by join key, for one batch. */
export class JoinSideState {
  /** The lists this batch made, by key: its own until `flush` puts them in the store. */
  private readonly changed = new Map<string, JoinStateEntry[]>();

  constructor(private readonly store: StateStore) {}

  /** The rows held under `key`, this batch's changes included. */
  rows(key: string): readonly JoinStateEntry[] {
    return this.changed.get(key) ?? (this.store.get(key) as JoinStateEntry[] | undefined) ?? [];
  }

  /** Adds a row under `key`. */
  append(key: string, row: Row, matched: boolean): void {
    const entry: JoinStateEntry = [row, matched ? 1 : 0];
    const own = this.changed.get(key);
    if (own) own.push(entry);
    else this.changed.set(key, [...this.rows(key), entry]);
  }

  /** Marks the rows at `positions` of `key`'s list as matched. */
  markMatched(key: string, positions: readonly number[]): void {
    let own = this.changed.get(key);
    const rows = own ?? this.rows(key);
    for (const i of positions) {
      const entry = rows[i];
      if (entry[1] === 1) continue;
      if (!own) {
        own = rows.slice();
        this.changed.set(key, own);
      }
      own[i] = [entry[0], 1];
    }
  }

  /** Writes every key this batch changed, once. */
  flush(): void {
    for (const [key, rows] of this.changed) this.store.put(key, rows);
    this.changed.clear();
  }

  /**
   * Removes the rows `expired` says can match nothing more (after `flush`), passing those that never
   * matched to `unmatched` when it is given (an outer join emits them; an inner one has no use for
   * them). A key left with no rows is removed. One pass over each key's rows, asking `expired` once
   * a row.
   */
  evict(expired: (row: Row) => boolean, unmatched?: (row: Row) => void): void {
    const rewrites: [string, readonly JoinStateEntry[]][] = [];
    for (const [key, value] of this.store.entries()) {
      const rows = value as readonly JoinStateEntry[];
      const kept = keptRows(rows, expired, unmatched);
      if (kept !== rows) rewrites.push([key, kept]);
    }
    for (const [key, kept] of rewrites) {
      if (kept.length === 0) this.store.remove(key);
      else this.store.put(key, kept);
    }
  }
}

/**
 * The entries of `rows` that have not `expired`, the rows of the others that never matched passed
 * to `unmatched`; `rows` itself when none expired, so a key untouched by the eviction is neither
 * copied nor rewritten.
 */
function keptRows(
  rows: readonly JoinStateEntry[],
  expired: (row: Row) => boolean,
  unmatched: ((row: Row) => void) | undefined,
): readonly JoinStateEntry[] {
  let kept: JoinStateEntry[] | undefined;
  for (let i = 0; i < rows.length; i++) {
    const entry = rows[i];
    if (expired(entry[0])) {
      kept ??= rows.slice(0, i);
      if (unmatched && entry[1] === 0) unmatched(entry[0]);
    } else kept?.push(entry);
  }
  return kept ?? rows;
}
