/**
 * Streaming session-window aggregation (Spark's SessionWindowStateStoreRestoreExec and
 * SessionWindowStateStoreSaveExec in one operator): keeps, per group, the group's open sessions
 * with their accumulators, and merges each micro-batch's rows into them.
 *
 * State: one entry per group (the keys other than the session window) in the default store, its
 * value `[keyValues, sessions]`, the sessions sorted by start and none reaching the next.
 *
 * Per batch, with W this operator's watermark in force:
 * 1. drop late rows: rows whose own session [time, time + gap) ends at or before W; counted.
 *    Not in complete mode: it keeps every session forever, so a late row still has its session
 *    (as Sluice's aggregation does; Spark drops them there too).
 * 2. merge each group's rows into its sessions from state (copied, so the loaded version is never
 *    mutated): a row that reaches two stored sessions merges them, accumulators merged.
 * 3. emit by output mode: complete = every session; append = the sessions W has closed (end <= W),
 *    each once, removed from state: a group the batch touched as it is merged, the others by a walk
 *    of the store, which only a watermark above the previous batch's needs. Update mode is refused when the query starts, as in Spark: a
 *    session that merged into another would stay in the sink as a row no batch corrects.
 */
import { rowsToValuesBatch } from '../columnar/batch-rows.js';
import { ExecutionError } from '../errors.js';
import type { BatchClock } from '../expr/scope.js';
import type { Aggregate } from '../plan/logical-plan.js';
import type { SessionWindowKey } from '../plan/session-window-key.js';
import type { OutputMode } from '../sinks/sink.js';
import { DEFAULT_STORE_NAME } from '../state/state-store-id.js';
import type { StateStore } from '../state/state-store.js';
import { copyStateValue } from '../state/state-value.js';
import type { StructType } from '../types/data-types.js';
import type { Row } from '../types/row.js';
import { countForOperator, type ExecutionContext } from './execution-context.js';
import type { BatchConsumer, PhysicalOperator } from './physical-operator.js';
import { SessionGrouping } from './session-grouping.js';
import { mergeSessions, type Session } from './session-merge.js';
import { aggregateStateDescription } from './stateful-aggregate-exec.js';
import type { StatefulOperator } from './stateful-operator.js';

/** A group's entry in the state store: its key values and its open sessions. */
type GroupSessions = [keyValues: unknown[], sessions: Session[]];

/** Runs a session-window Aggregate node as a stateful streaming operator. */
export class StatefulSessionWindowAggregateExec implements StatefulOperator {
  readonly operatorName = 'sessionWindowStateStoreSaveExec';
  /** One map from group key to the group's sessions. */
  readonly storeNames = [DEFAULT_STORE_NAME];
  /** What the state holds: the grouping keys and aggregates, as the plan fingerprint records them. */
  readonly stateDescription: string;
  private readonly grouping: SessionGrouping;
  private readonly schema: StructType;

  constructor(
    /** Stable id of this stateful operator (its position in plan order); names its state. */
    readonly operatorId: number,
    node: Aggregate,
    session: SessionWindowKey,
    private readonly input: PhysicalOperator,
    clock: BatchClock,
  ) {
    this.grouping = new SessionGrouping(node, session, clock);
    this.schema = node.schema;
    this.stateDescription = aggregateStateDescription('sessionWindowAggregate', node);
  }

  produceBatches(ctx: ExecutionContext, consume: BatchConsumer): void {
    const streaming = ctx.streaming;
    if (!streaming)
      throw new ExecutionError(
        'Internal error: a session-window aggregation ran outside a stream.',
      );
    const store = streaming.stateStore(this.operatorId);
    const watermark = streaming.watermarkMicros(this.operatorId);
    const mode = streaming.outputMode;
    if (mode === 'update')
      throw new ExecutionError(
        'Internal error: a session-window aggregation ran in update mode, which the start-time checks refuse.',
      );
    // late by the previous batch's watermark (Spark's for late events), evicted by the current one
    const lateBefore =
      mode === 'complete' ? undefined : streaming.lateRowsWatermarkMicros(this.operatorId);
    const { groups, late } = this.grouping.gather(this.input, ctx, lateBefore);
    if (late > 0) countForOperator(streaming, this.operatorId, 'numRowsDroppedByWatermark', late);
    const closing = mode === 'append' && this.grouping.watermarked ? watermark : undefined;
    const out: Row[] = [];
    for (const [key, { keyValues, rows }] of groups) {
      const stored = store.get(key) as GroupSessions | undefined;
      const sessions = mergeSessions(stored ? copyStateValue(stored[1]) : [], rows, this.grouping);
      // a group this batch touched is closed here, so that it is put once, not put and evicted
      const open =
        closing === undefined ? sessions : this.closeSessions(keyValues, sessions, closing, out);
      if (open.length > 0) store.put(key, [keyValues, open]);
      else store.remove(key);
    }
    // the groups it did not touch were evicted by the previous batch's watermark: only a higher
    // one can close their sessions
    if (mode === 'complete') out.push(...this.allSessions(store));
    else if (closing !== undefined && closing !== lateBefore)
      out.push(...this.evictClosed(store, closing));
    if (out.length > 0) consume(rowsToValuesBatch(this.schema, out));
  }

  /** In append mode a rising watermark closes sessions, which a batch must emit and evict. */
  shouldRunAnotherBatch(
    outputMode: OutputMode,
    lastMicros: number | undefined,
    nextMicros: number | undefined,
  ): boolean {
    if (outputMode !== 'append' || !this.grouping.watermarked || nextMicros === undefined)
      return false;
    return lastMicros === undefined || nextMicros > lastMicros;
  }

  /** Every session in state, as complete mode emits them. */
  private allSessions(store: StateStore): Row[] {
    return [...store.entries()].flatMap(([, value]) => {
      const [keyValues, sessions] = value as GroupSessions;
      return sessions.map((s) => this.grouping.output(keyValues, s));
    });
  }

  /** The sessions `watermark` leaves open; the rows of those it closed (end <= watermark) go to `out`. */
  private closeSessions(
    keyValues: readonly unknown[],
    sessions: readonly Session[],
    watermark: number,
    out: Row[],
  ): Session[] {
    const open: Session[] = [];
    for (const s of sessions) {
      if (s[1] <= watermark) out.push(this.grouping.output(keyValues, s));
      else open.push(s);
    }
    return open;
  }

  /** Removes the sessions the watermark has closed from every group and returns their rows. */
  private evictClosed(store: StateStore, watermark: number): Row[] {
    const out: Row[] = [];
    const remaining: [string, GroupSessions | undefined][] = [];
    for (const [key, value] of store.entries()) {
      const [keyValues, sessions] = value as GroupSessions;
      if (!sessions.some((s) => s[1] <= watermark)) continue;
      const open = this.closeSessions(keyValues, sessions, watermark, out);
      remaining.push([key, open.length > 0 ? [keyValues, open] : undefined]);
    }
    for (const [key, value] of remaining) {
      if (value) store.put(key, value);
      else store.remove(key);
    }
    return out;
  }
}
