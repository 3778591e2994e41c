/**
 * Hash aggregation for batch queries: every group of the input in one pass. With no grouping keys
 * the result is one row even for empty input (count = 0), as in SQL.
 */
import { encodeKey } from '../expr/group-key.js';
import type { BatchClock } from '../expr/scope.js';
import type { Aggregate } from '../plan/logical-plan.js';
import type { Row } from '../types/row.js';
import type { ExecutionContext } from './execution-context.js';
import { type Group, Grouping } from './grouping.js';
import type { PhysicalOperator, RowConsumer } from './physical-operator.js';

/** Runs an Aggregate node over a bounded input. */
export class HashAggregateExec implements PhysicalOperator {
  private readonly grouping: Grouping;
  private readonly global: boolean;

  constructor(
    node: Aggregate,
    private readonly input: PhysicalOperator,
    clock: BatchClock,
  ) {
    this.grouping = new Grouping(node, clock);
    this.global = node.groupBy.length === 0;
  }

  produce(ctx: ExecutionContext, consume: RowConsumer): void {
    const groups = new Map<string, Group>();
    const grouping = this.grouping;
    // One fold function for all rows (not a closure per row): the row it folds is `current`.
    let current: Row = [];
    const fold = (keyValues: unknown[]): void => {
      const key = encodeKey(keyValues);
      let group = groups.get(key);
      if (!group) {
        group = grouping.newGroup(keyValues);
        groups.set(key, group);
      }
      grouping.update(group, current);
    };
    this.input.produce(ctx, (row) => {
      current = row;
      grouping.forEachKey(row, fold);
    });
    if (this.global && groups.size === 0) groups.set('', grouping.newGroup([]));
    for (const group of groups.values()) consume(grouping.output(group));
  }
}
