/**
 * Hash aggregation for batch queries: every group of the input in one pass. With no grouping keys
 * the result is one row even for empty input (count = 0), as in SQL.
 */
import type { BatchClock } from '../expr/scope.js';
import type { Aggregate } from '../plan/logical-plan.js';
import type { Row } from '../types/row.js';
import type { ExecutionContext } from './execution-context.js';
import { type Group, Grouping } from './grouping.js';
import { type PhysicalOperator, produceRows, type RowConsumer } from './physical-operator.js';
import type { RowOperator } from './row-adapter-exec.js';

/** Runs an Aggregate node over a bounded input. */
export class HashAggregateExec implements RowOperator {
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
    const grouping = this.grouping;
    const index = grouping.newIndex<Group>();
    const groups: Group[] = [];
    // One fold function for all rows (not a closure per row): the row it folds is `current`.
    let current: Row = [];
    const fold = (keyValues: unknown[]): void => {
      let group = index.get(keyValues);
      if (!group) {
        group = grouping.newGroup(keyValues);
        index.set(keyValues, group);
        groups.push(group);
      }
      grouping.update(group, current);
    };
    produceRows(this.input, ctx, (row) => {
      current = row;
      grouping.forEachKey(row, fold);
    });
    if (this.global && groups.length === 0) groups.push(grouping.newGroup([]));
    for (const group of groups) consume(grouping.output(group));
  }
}
