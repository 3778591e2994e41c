/**
 * Session-window aggregation for batch queries: every group's rows sorted by time and merged into
 * sessions (session-merge.ts), each session aggregated over its rows. Groups come in the order of
 * their first row, each group's sessions in order of start.
 */
import { rowsToValuesBatch } from '../columnar/batch-rows.js';
import type { BatchClock } from '../expr/scope.js';
import type { Aggregate } from '../plan/logical-plan.js';
import type { SessionWindowKey } from '../plan/session-window-key.js';
import type { StructType } from '../types/data-types.js';
import type { Row } from '../types/row.js';
import type { ExecutionContext } from './execution-context.js';
import type { BatchConsumer, PhysicalOperator } from './physical-operator.js';
import { SessionGrouping } from './session-grouping.js';
import { mergeSessions } from './session-merge.js';

/** Runs a session-window Aggregate node over a bounded input. */
export class SessionWindowAggregateExec implements PhysicalOperator {
  private readonly grouping: SessionGrouping;
  private readonly schema: StructType;

  constructor(
    node: Aggregate,
    session: SessionWindowKey,
    private readonly input: PhysicalOperator,
    clock: BatchClock,
  ) {
    this.grouping = new SessionGrouping(node, session, clock);
    this.schema = node.schema;
  }

  produceBatches(ctx: ExecutionContext, consume: BatchConsumer): void {
    const grouping = this.grouping;
    const out: Row[] = [];
    for (const { keyValues, rows } of grouping.gather(this.input, ctx).groups.values()) {
      for (const session of mergeSessions([], rows, grouping))
        out.push(grouping.output(keyValues, session));
    }
    if (out.length > 0) consume(rowsToValuesBatch(this.schema, out));
  }
}
