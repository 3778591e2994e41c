/**
 * Streaming aggregation: keeps each group's accumulators in the state store across micro-batches.
 *
 * Per batch, with W this operator's watermark in force (from earlier batches, propagated to it from
 * the watermark nodes beneath it):
 * 1. drop late rows: rows whose group's event time (window end, or the key) is <= the late-rows
 *    watermark (W for rows from a watermark node; for rows from a stateful operator beneath, the
 *    watermark it ran under in the previous batch: see watermark-propagation.ts); counted.
 *    Not in complete mode: it keeps every group forever, so a late row still has its group (Spark).
 * 2. fold the remaining rows into their groups, loaded from state (copied, so the loaded version is
 *    never mutated) or new.
 * 3. emit by output mode: complete = every group; update = groups changed this batch;
 *    append = groups that W has closed (event time <= W), each exactly once.
 * 4. evict closed groups (append and update modes; complete mode keeps everything, as in Spark).
 * Steps 1 and 2 run on column batches with integer group keys (integer-key-fold.ts) when every
 * grouping key is a tumbling window or an atomic column, and row by row otherwise.
 */
import { rowsToValuesBatch } from '../columnar/batch-rows.js';
import type { BatchClock } from '../expr/scope.js';
import type { Aggregate } from '../plan/logical-plan.js';
import { ExecutionError } from '../errors.js';
import type { OutputMode } from '../sinks/sink.js';
import { DEFAULT_STORE_NAME } from '../state/state-store-id.js';
import type { StateStore } from '../state/state-store.js';
import { type StructType, typeName } from '../types/data-types.js';
import { planScope } from '../plan/plan-scope.js';
import type { Row } from '../types/row.js';
import { countForOperator, type ExecutionContext } from './execution-context.js';
import { type Group, Grouping } from './grouping.js';
import type { GroupFold } from './group-fold.js';
import { IntegerKeyFold } from './integer-key-fold.js';
import type { BatchConsumer, PhysicalOperator } from './physical-operator.js';
import { RowKeyFold } from './row-key-fold.js';
import type { StatefulOperator } from './stateful-operator.js';

/** Runs an Aggregate node as a stateful streaming operator. */
export class StatefulAggregateExec implements StatefulOperator {
  readonly operatorName = 'stateStoreSave';
  /** One map from group key to the group's accumulators. */
  readonly storeNames = [DEFAULT_STORE_NAME];
  private readonly grouping: Grouping;
  /** Steps 1 and 2: over column batches with integer keys where the keys allow, else row by row. */
  private readonly groupFold: GroupFold;
  private readonly schema: StructType;
  /** What the state holds: the grouping keys and aggregates, as the plan fingerprint records them. */
  readonly stateDescription: string;

  constructor(
    /** Stable id of this stateful operator (its position in plan order); names its state. */
    readonly operatorId: number,
    node: Aggregate,
    private readonly input: PhysicalOperator,
    clock: BatchClock,
  ) {
    this.grouping = new Grouping(node, clock);
    const scope = { ...planScope(node.input), clock };
    this.groupFold = IntegerKeyFold.of(node, this.grouping, scope) ?? new RowKeyFold(this.grouping);
    this.schema = node.schema;
    this.stateDescription = aggregateStateDescription('aggregate', node);
  }

  produceBatches(ctx: ExecutionContext, consume: BatchConsumer): void {
    const streaming = ctx.streaming;
    if (!streaming)
      throw new ExecutionError('Internal error: a stateful aggregation ran outside a stream.');
    const store = streaming.stateStore(this.operatorId);
    const watermark = streaming.watermarkMicros(this.operatorId);
    const lateBefore =
      streaming.outputMode === 'complete'
        ? undefined
        : streaming.lateRowsWatermarkMicros(this.operatorId);
    const changed = this.fold(store, lateBefore, ctx);
    const rows = this.emit(store, changed, streaming.outputMode, watermark);
    if (rows.length > 0) consume(rowsToValuesBatch(this.schema, rows));
  }

  /** In append and update modes a rising watermark closes groups, which a batch must evict (and emit). */
  shouldRunAnotherBatch(
    outputMode: OutputMode,
    lastMicros: number | undefined,
    nextMicros: number | undefined,
  ): boolean {
    if (outputMode === 'complete' || !this.grouping.eventTimeKey || nextMicros === undefined)
      return false;
    return lastMicros === undefined || nextMicros > lastMicros;
  }

  /** Folds the batch's rows into their groups, dropping those whose event time is <= `lateBefore`. */
  private fold(
    store: StateStore,
    lateBefore: number | undefined,
    ctx: ExecutionContext,
  ): Map<string, Group> {
    const changed = new Map<string, Group>();
    const late = this.groupFold.fold(this.input, ctx, store, lateBefore, changed);
    if (late > 0)
      countForOperator(ctx.streaming!, this.operatorId, 'numRowsDroppedByWatermark', late);
    for (const [key, group] of changed) store.put(key, group);
    return changed;
  }

  /** The rows `mode` emits this batch, under this operator's watermark. */
  private emit(
    store: StateStore,
    changed: Map<string, Group>,
    mode: OutputMode,
    watermark: number | undefined,
  ): Row[] {
    const grouping = this.grouping;
    switch (mode) {
      case 'complete':
        return [...store.entries()].map(([, g]) => grouping.output(g as Group));
      case 'update': {
        const out = [...changed.values()].map((g) => grouping.output(g));
        this.evictClosed(store, watermark);
        return out;
      }
      case 'append':
        return this.evictClosed(store, watermark).map((g) => grouping.output(g));
    }
  }

  /** Removes the groups the watermark has closed and returns them. */
  private evictClosed(store: StateStore, watermark: number | undefined): Group[] {
    if (watermark === undefined || !this.grouping.eventTimeKey) return [];
    const closed: [string, Group][] = [];
    for (const [key, value] of store.entries()) {
      const t = this.grouping.eventTime((value as Group)[0]);
      if (t !== undefined && t <= watermark) closed.push([key, value as Group]);
    }
    for (const [key] of closed) store.remove(key);
    return closed.map(([, g]) => g);
  }
}

/**
 * What an aggregation keeps in state, as its stores record it: `<kind>(keys: k:type, ...; values:
 * v:type, ...)`, the grouping keys then the aggregates of `node`'s output.
 */
export function aggregateStateDescription(kind: string, node: Aggregate): string {
  const fields = node.schema.fields.map((f) => `${f.name}:${typeName(f.dataType)}`);
  const keys = fields.slice(0, node.groupBy.length).join(', ');
  return `${kind}(keys: ${keys}; values: ${fields.slice(node.groupBy.length).join(', ')})`;
}
