/**
 * Session grouping: the shared core of the batch and the streaming session-window aggregation. It
 * binds an Aggregate node whose grouping keys hold a `session_window`: the other keys (the group), the
 * window's time and gap, and the aggregates. It gathers an input's rows by group, each with its own
 * session, and turns a group's session into an output row (the keys in groupBy order, the session in
 * its place, then the aggregates).
 */
import { bindAggregate, type BoundAggregate } from '../expr/aggregate-functions.js';
import { bindExpression } from '../expr/binder.js';
import type { Evaluator } from '../expr/bound-expression.js';
import type { AggregateCall, Expression } from '../expr/expression.js';
import { encodeKey } from '../expr/group-key.js';
import type { BatchClock } from '../expr/scope.js';
import type { Aggregate } from '../plan/logical-plan.js';
import { planScope } from '../plan/plan-scope.js';
import type { SessionWindowKey } from '../plan/session-window-key.js';
import type { Row } from '../types/row.js';
import type { ExecutionContext } from './execution-context.js';
import { type PhysicalOperator, produceRows } from './physical-operator.js';
import { bindSessionGap, type GapEvaluator } from './session-gap.js';
import type { RowSession, Session, SessionFold } from './session-merge.js';

/** A group's rows of one input, each with its own session. */
export interface GroupRows {
  readonly keyValues: unknown[];
  readonly rows: RowSession[];
}

/** What gathering an input found: its rows by encoded group key, and how many were late. */
export interface GatheredRows {
  readonly groups: Map<string, GroupRows>;
  readonly late: number;
}

/** The bound keys, session window and aggregates of one session-window Aggregate node. */
export class SessionGrouping implements SessionFold {
  readonly aggregates: readonly BoundAggregate[];
  /** Whether the session window carries a watermark (its time column is watermarked). */
  readonly watermarked: boolean;
  private readonly sessionIndex: number;
  private readonly keys: readonly Evaluator[];
  private readonly time: Evaluator;
  private readonly gap: GapEvaluator;
  private readonly inputs: readonly Evaluator[];

  constructor(node: Aggregate, session: SessionWindowKey, clock: BatchClock) {
    const scope = { ...planScope(node.input), clock };
    this.sessionIndex = session.index;
    this.keys = node.groupBy
      .filter((_, i) => i !== session.index)
      .map((e) => bindExpression(e, scope).eval);
    this.time = bindExpression(session.window.timeColumn, scope).eval;
    this.gap = bindSessionGap(session.window.gap, scope);
    this.aggregates = node.aggregates.map((e) => bindAggregate(aggregateCall(e), scope));
    this.inputs = this.aggregates.map((a) => a.input);
    this.watermarked =
      node.schema.fields[session.index].metadata?.eventTimeDelayMicros !== undefined;
  }

  /**
   * Gathers `input`'s rows by group. Rows in no session (null time, no valid gap) are left out;
   * so are rows whose own session ends at or before `lateBefore` (Spark's rule for late rows of a
   * session window: time + gap <= watermark), which are counted.
   */
  gather(input: PhysicalOperator, ctx: ExecutionContext, lateBefore?: number): GatheredRows {
    const groups = new Map<string, GroupRows>();
    let late = 0;
    // a row's key values, reused: a group keeps its own copy, made when its first row comes
    const values = new Array<unknown>(this.keys.length);
    produceRows(input, ctx, (row) => {
      const start = this.time(row) as number | null;
      if (start === null) return;
      const gap = this.gap(row);
      if (gap === undefined) return;
      const end = start + gap;
      if (lateBefore !== undefined && end <= lateBefore) {
        late++;
        return;
      }
      for (let i = 0; i < values.length; i++) values[i] = this.keys[i](row);
      const key = encodeKey(values);
      let group = groups.get(key);
      if (!group) {
        group = { keyValues: values.slice(), rows: [] };
        groups.set(key, group);
      }
      group.rows.push({ start, end, row });
    });
    return { groups, late };
  }

  newAccumulators(): unknown[] {
    return this.aggregates.map((a) => a.init());
  }

  update(accumulators: unknown[], row: readonly unknown[]): void {
    for (let i = 0; i < accumulators.length; i++)
      accumulators[i] = this.aggregates[i].update(accumulators[i], this.inputs[i](row as Row));
  }

  merge(earlier: unknown[], later: readonly unknown[]): void {
    for (let i = 0; i < earlier.length; i++)
      earlier[i] = this.aggregates[i].merge(earlier[i], later[i]);
  }

  /** The output row of `session` of the group with `keyValues`. */
  output(keyValues: readonly unknown[], session: Session): Row {
    const [start, end, accumulators] = session;
    const at = this.sessionIndex;
    const row: Row = new Array(keyValues.length + 1 + accumulators.length);
    for (let i = 0; i < at; i++) row[i] = keyValues[i];
    row[at] = [start, end];
    for (let i = at; i < keyValues.length; i++) row[i + 1] = keyValues[i];
    const first = keyValues.length + 1;
    for (let i = 0; i < accumulators.length; i++)
      row[first + i] = this.aggregates[i].result(accumulators[i]);
    return row;
  }
}

function aggregateCall(e: Expression): AggregateCall {
  return (e.kind === 'alias' ? e.child : e) as AggregateCall;
}
