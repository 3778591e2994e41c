/**
 * transformWithState as a stateful operator: runs a user's StatefulProcessor per grouping key over
 * each micro-batch (processor-batch.ts), with its state variables and timers in the operator's
 * named state stores (processor-handle.ts), so they are committed or aborted with the batch like
 * every other state, and a re-run of a batch, under the same recorded clock and watermark, fires
 * the same timers and gives the same output.
 *
 * In event-time mode, rows whose event time (the input's watermark column) is at or before the
 * watermark in force are late: dropped and counted, as Spark does. On a batch DataFrame the
 * processor sees each key's rows once, in stores that live for that run only; no timer fires.
 */
import { rowsToValuesBatch } from '../columnar/batch-rows.js';
import { ExecutionError } from '../errors.js';
import type { BatchClock } from '../expr/scope.js';
import type { TransformWithState } from '../plan/logical-plan.js';
import { declarationText } from '../plan/state-variable-declarations.js';
import type { OutputMode } from '../sinks/sink.js';
import { KeyedStateStore } from '../state/keyed-state-store.js';
import type { StateStore } from '../state/state-store.js';
import type { Row } from '../types/row.js';
import {
  countForOperator,
  type ExecutionContext,
  type StreamingExecution,
} from './execution-context.js';
import { collectRows, type BatchConsumer, type PhysicalOperator } from './physical-operator.js';
import { runProcessorBatch } from './processor-batch.js';
import { processorStoreNames, TTL_STORE_NAME } from './processor-handle.js';
import { ExpiryIndex } from './expiry-index.js';
import { ProcessorTimers, TIMER_STORE_NAMES } from './processor-timers.js';
import type { NextTimer, StatefulOperator } from './stateful-operator.js';

/** Spark's custom metrics of transformWithState that Sluice reports. */
const CUSTOM_METRICS = [
  'numRegisteredTimers',
  'numDeletedTimers',
  'numExpiredTimers',
  'numValuesRemovedDueToTTLExpiry',
] as const;

/** Runs a TransformWithState node. */
export class TransformWithStateExec implements StatefulOperator {
  readonly operatorName = 'transformWithStateExec';
  readonly storeNames: readonly string[];
  readonly stateDescription: string;
  readonly customMetricNames = CUSTOM_METRICS;
  /** The input column whose event time the watermark tracks, in event-time mode. */
  private readonly eventTimeIndex: number | undefined;

  constructor(
    readonly operatorId: number,
    private readonly node: TransformWithState,
    private readonly input: PhysicalOperator,
    private readonly initialState: PhysicalOperator | undefined,
    private readonly clock: BatchClock,
  ) {
    this.storeNames = processorStoreNames(node.stateVariables, node.timeMode);
    this.stateDescription = `transformWithState(${node.processorName}; ${node.stateVariables.map(declarationText).join(', ')})`;
    const index = node.input.schema.fields.findIndex(
      (f) => f.metadata?.eventTimeDelayMicros !== undefined,
    );
    this.eventTimeIndex = node.timeMode === 'eventTime' && index >= 0 ? index : undefined;
  }

  produceBatches(ctx: ExecutionContext, consume: BatchConsumer): void {
    const streaming = this.node.isStreaming ? ctx.streaming : undefined;
    const rows = collectRows(this.input, ctx);
    const output = streaming ? this.runMicroBatch(ctx, streaming, rows) : this.runOnce(ctx, rows);
    if (output.length > 0) consume(rowsToValuesBatch(this.node.schema, output));
  }

  /** A moved watermark alone gives it nothing to do: its timers say when they are due (nextTimer). */
  shouldRunAnotherBatch(): boolean {
    return false;
  }

  /** The earliest timer (and TTL expiry) this batch leaves in the stores. */
  nextTimer(streaming: StreamingExecution): NextTimer | undefined {
    const store = (name: string) => streaming.stateStore(this.operatorId, name);
    const timer =
      this.node.timeMode === 'none'
        ? undefined
        : new ProcessorTimers(store(TIMER_STORE_NAMES[0]), store(TIMER_STORE_NAMES[1])).earliest();
    const ttl = this.storeNames.includes(TTL_STORE_NAME)
      ? new ExpiryIndex(store(TTL_STORE_NAME)).earliest()
      : undefined;
    // a timer at t fires once the clock (or watermark, in ms) is past t; a value expires at its expiry
    const byClock = [
      ...(this.node.timeMode === 'processingTime' && timer !== undefined ? [timer + 1] : []),
      ...(ttl !== undefined ? [ttl] : []),
    ];
    const next: NextTimer = {
      ...(this.node.timeMode === 'eventTime' && timer !== undefined
        ? { dueAtWatermarkMicros: (timer + 1) * 1000 }
        : {}),
      ...(byClock.length > 0 ? { dueAtProcessingTimeMs: Math.min(...byClock) } : {}),
    };
    return Object.keys(next).length === 0 ? undefined : next;
  }

  private runMicroBatch(ctx: ExecutionContext, streaming: StreamingExecution, rows: Row[]): Row[] {
    const watermark = streaming.watermarkMicros(this.operatorId);
    // late by the previous batch's watermark (Spark's for late events); timers fire by the current one
    const onTime = this.dropLate(
      rows,
      streaming.lateRowsWatermarkMicros(this.operatorId),
      streaming,
    );
    const initialRows =
      this.initialState && streaming.batchId === 0
        ? collectRows(this.initialState, ctx)
        : undefined;
    const output = runProcessorBatch({
      ...this.setup(streaming.operatorCounters(this.operatorId)),
      store: (name) => streaming.stateStore(this.operatorId, name),
      rows: onTime,
      ...(initialRows ? { initialRows } : {}),
      watermarkMicros: watermark,
      fireTimers: true,
    });
    this.requireNotOlderThan(watermark, output);
    return output;
  }

  /**
   * Rows carrying event time on (eventTimeColumnName) must not be older than the watermark: the
   * operators above would drop them as late, or have already evicted the state they belong to.
   */
  private requireNotOlderThan(watermark: number | undefined, output: readonly Row[]): void {
    const index = this.node.eventTimeColumnIndex;
    if (index === undefined || watermark === undefined) return;
    const old = output.find((r) => r[index] !== null && (r[index] as number) < watermark);
    if (!old) return;
    const column = this.node.schema.fields[index].name;
    const at = (micros: number) => new Date(micros / 1000).toISOString();
    throw new ExecutionError(
      `transformWithState(${this.node.processorName}) returned a row whose ${column} (${at(old[index] as number)}) is older than the watermark (${at(watermark)}); Spark's EMITTING_ROWS_OLDER_THAN_WATERMARK_NOT_ALLOWED. Return rows at or after the watermark in the event-time column.`,
    );
  }

  /** A batch DataFrame: every key once, in stores of this run only; no timer fires. */
  private runOnce(ctx: ExecutionContext, rows: Row[]): Row[] {
    const stores = new Map<string, StateStore>();
    const store = (name: string) => {
      if (!this.storeNames.includes(name))
        throw new ExecutionError(`Internal error: processor store '${name}' was not declared.`);
      if (!stores.has(name)) stores.set(name, new KeyedStateStore(1));
      return stores.get(name)!;
    };
    return runProcessorBatch({
      ...this.setup(ctx.counters),
      store,
      rows,
      ...(this.initialState ? { initialRows: collectRows(this.initialState, ctx) } : {}),
      watermarkMicros: undefined,
      fireTimers: false,
    });
  }

  private setup(counters: Record<string, number>) {
    return {
      node: this.node,
      processorName: this.node.processorName,
      timeMode: this.node.timeMode,
      outputMode: this.node.outputMode as OutputMode,
      declarations: this.node.stateVariables,
      batchTimestampMs: Math.floor(this.clock.batchTimestampMicros / 1000),
      counters,
    };
  }

  /** Rows at or before the watermark, in event-time mode, are late: dropped and counted. */
  private dropLate(
    rows: Row[],
    watermark: number | undefined,
    streaming: StreamingExecution,
  ): Row[] {
    const index = this.eventTimeIndex;
    if (index === undefined || watermark === undefined) return rows;
    const onTime = rows.filter((r) => r[index] === null || (r[index] as number) > watermark);
    const late = rows.length - onTime.length;
    if (late > 0) countForOperator(streaming, this.operatorId, 'numRowsDroppedByWatermark', late);
    return onTime;
  }
}
