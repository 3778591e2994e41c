/**
 * The row-at-a-time group fold, for grouping keys the integer-key fold does not handle (sliding
 * windows, nested values): each row finds its group(s) by key values in a GroupIndex, and the
 * encoded key is made once per group, for the store.
 */
import { encodeKey } from '../expr/group-key.js';
import type { StateStore } from '../state/state-store.js';
import { copyStateValue } from '../state/state-value.js';
import type { Row } from '../types/row.js';
import type { ExecutionContext } from './execution-context.js';
import type { GroupFold } from './group-fold.js';
import type { Group, Grouping } from './grouping.js';
import { type PhysicalOperator, produceRows } from './physical-operator.js';

/** Folds rows one at a time. */
export class RowKeyFold implements GroupFold {
  constructor(private readonly grouping: Grouping) {}

  fold(
    input: PhysicalOperator,
    ctx: ExecutionContext,
    store: StateStore,
    lateBefore: number | undefined,
    changed: Map<string, Group>,
  ): number {
    const grouping = this.grouping;
    const index = grouping.newIndex<Group>();
    let late = 0;
    // One fold function for all rows (not a closure per row): the row it folds is `current`.
    let current: Row = [];
    const fold = (keyValues: unknown[]): void => {
      if (lateBefore !== undefined) {
        const t = grouping.eventTime(keyValues);
        if (t !== undefined && t <= lateBefore) {
          late++;
          return;
        }
      }
      let group = index.get(keyValues);
      if (!group) {
        const key = encodeKey(keyValues);
        const stored = store.get(key) as Group | undefined;
        group = stored ? copyStateValue(stored) : grouping.newGroup(keyValues);
        index.set(keyValues, group);
        changed.set(key, group);
      }
      grouping.update(group, current);
    };
    produceRows(input, ctx, (row) => {
      current = row;
      grouping.forEachKey(row, fold);
    });
    return late;
  }
}
