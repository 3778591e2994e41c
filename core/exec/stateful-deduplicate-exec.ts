/**
 * Streaming deduplication (Spark's `dedupe` and `dedupeWithinWatermark` operators): passes on the
 * first row of each key and remembers the key in the state store, so that its later rows, in this
 * batch or any later one, are dropped.
 *
 * Per batch, with this operator's watermarks (propagated to it from beneath):
 * 1. drop late rows: rows whose event time (the input's watermarked column) is <= the late-rows
 *    watermark; counted in numRowsDroppedByWatermark. Without a watermark nothing is late.
 * 2. for each remaining row, in order: if its key is in the state store, drop it; else emit it and
 *    store the key with the watermark at which it may be forgotten: for `dedupe`, the event time
 *    among the keys (never, when no key carries one: state then grows with every key, as in Spark);
 *    for `dedupeWithinWatermark`, the first row's event time plus the watermark delay.
 * 3. evict the keys whose time to be forgotten the eviction watermark has reached; under the
 *    previous batch's watermark, only when this batch stored a key already due.
 * Output modes do not change what it emits: a row is final once emitted.
 */
import { rowsToValuesBatch } from '../columnar/batch-rows.js';
import { ExecutionError } from '../errors.js';
import type { Deduplicate } from '../plan/logical-plan.js';
import type { OutputMode } from '../sinks/sink.js';
import { DEFAULT_STORE_NAME } from '../state/state-store-id.js';
import type { StateStore } from '../state/state-store.js';
import { type StructType, typeName } from '../types/data-types.js';
import type { Row } from '../types/row.js';
import { deduplicationKey } from './deduplicate-exec.js';
import { type EventTimeColumn, eventTimeColumn, eventTimeOf } from './event-time-column.js';
import { countForOperator, type ExecutionContext } from './execution-context.js';
import { type BatchConsumer, type PhysicalOperator, produceRows } from './physical-operator.js';
import type { StatefulOperator } from './stateful-operator.js';

/** The state value of a key seen: the watermark at which it is forgotten; null: never. */
type ForgetAt = number | null;

/** Runs a Deduplicate node as a stateful streaming operator. */
export class StatefulDeduplicateExec implements StatefulOperator {
  readonly operatorName: 'dedupe' | 'dedupeWithinWatermark';
  /** One map from key to the watermark at which it is forgotten. */
  readonly storeNames = [DEFAULT_STORE_NAME];
  /** What the state holds: the key columns and how long they are kept, for the plan fingerprint. */
  readonly stateDescription: string;
  private readonly keyIndexes: readonly number[];
  private readonly schema: StructType;
  /** The input's event time, which decides whether a row is late; undefined without a watermark. */
  private readonly inputEventTime: EventTimeColumn | undefined;
  /** The event time that decides when a key is forgotten; undefined: never. */
  private readonly forgetBy: EventTimeColumn | undefined;

  constructor(
    /** Stable id of this stateful operator (its position in plan order); names its state. */
    readonly operatorId: number,
    node: Deduplicate,
    private readonly input: PhysicalOperator,
  ) {
    this.keyIndexes = node.keyIndexes;
    this.schema = node.schema;
    this.inputEventTime = eventTimeColumn(node.input.schema);
    this.operatorName = node.withinWatermark ? 'dedupeWithinWatermark' : 'dedupe';
    this.forgetBy = node.withinWatermark
      ? this.inputEventTime
      : eventTimeColumn(node.schema, node.keyIndexes);
    if (node.withinWatermark && !this.inputEventTime) {
      throw new ExecutionError(
        'Internal error: dropDuplicatesWithinWatermark was planned over an input without a watermark; the start-time checks refuse that.',
      );
    }
    const keys = node.keyIndexes.map((i) => {
      const f = node.schema.fields[i];
      return `${f.name}:${typeName(f.dataType)}`;
    });
    this.stateDescription = `${this.operatorName}(keys: ${keys.join(', ')})`;
  }

  produceBatches(ctx: ExecutionContext, consume: BatchConsumer): void {
    const streaming = ctx.streaming;
    if (!streaming)
      throw new ExecutionError('Internal error: a streaming deduplication ran outside a stream.');
    const store = streaming.stateStore(this.operatorId);
    const lateBefore = streaming.lateRowsWatermarkMicros(this.operatorId);
    const watermark = streaming.watermarkMicros(this.operatorId);
    const rows: Row[] = [];
    let late = 0;
    let forgottenAtOnce = false;
    produceRows(this.input, ctx, (row) => {
      if (this.isLate(row, lateBefore)) {
        late++;
        return;
      }
      const key = deduplicationKey(row, this.keyIndexes);
      if (store.get(key) !== undefined) return;
      const at = this.forgetAt(row);
      if (at !== null && watermark !== undefined && at <= watermark) forgottenAtOnce = true;
      store.put(key, at);
      rows.push(row);
    });
    if (late > 0) countForOperator(streaming, this.operatorId, 'numRowsDroppedByWatermark', late);
    // The state this batch was given was evicted by the previous batch's watermark: under the same
    // watermark (a batch after a batch without data) only a key stored now can be due.
    if (watermark !== lateBefore || forgottenAtOnce) this.evict(store, watermark);
    if (rows.length > 0) consume(rowsToValuesBatch(this.schema, rows));
  }

  /** A rising watermark makes it forget keys, when its keys are ever forgotten (in every mode). */
  shouldRunAnotherBatch(
    _outputMode: OutputMode,
    lastMicros: number | undefined,
    nextMicros: number | undefined,
  ): boolean {
    if (!this.forgetBy || nextMicros === undefined) return false;
    return lastMicros === undefined || nextMicros > lastMicros;
  }

  private isLate(row: Row, lateBefore: number | undefined): boolean {
    if (lateBefore === undefined || !this.inputEventTime) return false;
    const t = eventTimeOf(row, this.inputEventTime);
    return t !== undefined && t <= lateBefore;
  }

  /**
   * When the key of `row` may be forgotten. A row without event time leaves nothing to wait for
   * within the watermark (its key is forgotten at the next eviction), and a `dedupe` key whose event
   * time is null can never be passed by the watermark, so it is kept.
   */
  private forgetAt(row: Row): ForgetAt {
    if (!this.forgetBy) return null;
    const t = eventTimeOf(row, this.forgetBy);
    if (this.operatorName === 'dedupe') return t ?? null;
    return t === undefined ? Number.NEGATIVE_INFINITY : t + this.forgetBy.delayMicros;
  }

  /** Removes the keys the watermark has reached. */
  private evict(store: StateStore, watermark: number | undefined): void {
    if (watermark === undefined || !this.forgetBy) return;
    const expired: string[] = [];
    for (const [key, value] of store.entries()) {
      const at = value as ForgetAt;
      if (at !== null && at <= watermark) expired.push(key);
    }
    for (const key of expired) store.remove(key);
  }
}
