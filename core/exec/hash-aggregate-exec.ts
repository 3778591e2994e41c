/**
 * Hash aggregation for batch queries, and for each micro-batch alone where a stream's aggregate is
 * `perBatch`: every group of the input in one pass, in the order of each group's first row. With no
 * grouping keys the result is one row even for empty input (count = 0), as in SQL, except per batch:
 * an empty micro-batch has nothing to add to the groups it is a part of. Groups are folded over
 * column batches with integer keys where the keys allow (integer-key-fold.ts), row by row
 * otherwise, into groups that start empty: a batch query has no state from earlier batches.
 */
import { rowsToValuesBatch } from '../columnar/batch-rows.js';
import type { BatchClock } from '../expr/scope.js';
import type { Aggregate } from '../plan/logical-plan.js';
import { planScope } from '../plan/plan-scope.js';
import type { StateStore } from '../state/state-store.js';
import type { StructType } from '../types/data-types.js';
import type { ExecutionContext } from './execution-context.js';
import type { GroupFold } from './group-fold.js';
import { type Group, Grouping } from './grouping.js';
import { IntegerKeyFold } from './integer-key-fold.js';
import type { BatchConsumer, PhysicalOperator } from './physical-operator.js';
import { RowKeyFold } from './row-key-fold.js';

/** The groups a batch query starts from: none. */
const NO_GROUPS: StateStore = {
  get: () => undefined,
  put: () => undefined,
  remove: () => undefined,
  entries: () => new Map<string, unknown>().entries(),
  size: 0,
};

/** Runs an Aggregate node over a bounded input. */
export class HashAggregateExec implements PhysicalOperator {
  private readonly grouping: Grouping;
  private readonly groupFold: GroupFold;
  private readonly global: boolean;
  private readonly schema: StructType;

  constructor(
    node: Aggregate,
    private readonly input: PhysicalOperator,
    clock: BatchClock,
  ) {
    this.grouping = new Grouping(node, clock);
    const scope = { ...planScope(node.input), clock };
    this.groupFold = IntegerKeyFold.of(node, this.grouping, scope) ?? new RowKeyFold(this.grouping);
    this.global = node.groupBy.length === 0 && !node.perBatch;
    this.schema = node.schema;
  }

  produceBatches(ctx: ExecutionContext, consume: BatchConsumer): void {
    const grouping = this.grouping;
    const changed = new Map<string, Group>();
    this.groupFold.fold(this.input, ctx, NO_GROUPS, undefined, changed);
    const groups = [...changed.values()];
    if (this.global && groups.length === 0) groups.push(grouping.newGroup([]));
    consume(
      rowsToValuesBatch(
        this.schema,
        groups.map((g) => grouping.output(g)),
      ),
    );
  }
}
