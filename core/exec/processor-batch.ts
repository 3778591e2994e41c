/**
 * One batch of a stateful processor, in Spark's order:
 * 1. `init(handle)`;
 * 2. the first batch only: `handleInitialState` once per key of the initial state (one row each);
 * 3. `handleInputRows` once per key with new rows (keys in order of first arrival);
 * 4. `handleExpiredTimer` for each timer before the threshold (the batch's processing time, or the
 *    watermark in event-time mode), ordered by (time, key); a timer is deleted after its call, and
 *    one the processor deleted meanwhile does not fire. Timers registered meanwhile wait for the
 *    next batch;
 * 5. TTL cleanup: values expired by the batch's processing time are removed;
 * 6. `close()`.
 * The stream operator and the processor tester both run batches this way, on their own stores.
 */
import { ExecutionError, InvalidOptionError, SluiceError } from '../errors.js';
import type { TransformWithState } from '../plan/logical-plan.js';
import type {
  ProcessorOutput,
  StatefulProcessor,
  TimerValues,
} from '../plan/stateful-processor.js';
import { encodeStateValue } from '../state/state-value.js';
import { struct, type StructType, typeName } from '../types/data-types.js';
import { type Row, type RowObject, toRowObject } from '../types/row.js';
import { rowInputConverter } from '../types/row-input.js';
import {
  BatchProcessorHandle,
  type CurrentKey,
  type ProcessorBatchSetup,
} from './processor-handle.js';
import { removeExpired } from './processor-state-variables.js';

/** What runs in one batch besides the processor's stores. */
export interface ProcessorBatchInput extends ProcessorBatchSetup {
  readonly node: TransformWithState;
  /** The batch's input rows (late rows already dropped). */
  readonly rows: readonly Row[];
  /** The initial state's rows, in the first batch of a query that has one. */
  readonly initialRows?: readonly Row[];
  /** The watermark in force, in µs; undefined when there is none. */
  readonly watermarkMicros: number | undefined;
  /** False for a batch DataFrame, which has no time to fire timers at. */
  readonly fireTimers: boolean;
}

/** The batch's output rows (engine rows of the node's schema); the stores hold its changes. */
export function runProcessorBatch(input: ProcessorBatchInput): Row[] {
  return new ProcessorBatch(input).run();
}

/** One run of steps 1 to 6 over one batch's input. */
class ProcessorBatch {
  private readonly node: TransformWithState;
  private readonly handle: BatchProcessorHandle;
  private readonly watermarkMs: number;
  private readonly timerValues: TimerValues;
  private readonly keySchema: StructType;
  private readonly output: OutputRows;
  private readonly call: ReturnType<typeof processorCall>;

  constructor(private readonly input: ProcessorBatchInput) {
    this.node = input.node;
    this.handle = new BatchProcessorHandle(input);
    this.watermarkMs =
      input.watermarkMicros === undefined ? -1 : Math.floor(input.watermarkMicros / 1000);
    this.timerValues = {
      getCurrentProcessingTimeInMs: () => input.batchTimestampMs,
      getCurrentWatermarkInMs: () => this.watermarkMs,
    };
    this.keySchema = struct(this.node.keyIndices.map((i) => this.node.input.schema.fields[i]));
    this.output = new OutputRows(this.node);
    this.call = processorCall(this.node.processorName, this.keySchema);
  }

  run(): Row[] {
    const { node, input } = this;
    this.call('init', undefined, () =>
      node.processor.init(this.handle, node.timeMode, node.outputMode),
    );
    if (input.initialRows) this.handleInitialState(input.initialRows);
    this.handleInputRows();
    if (input.fireTimers) {
      this.fireTimers();
      cleanUpExpired(input, this.handle);
    }
    this.call('close', undefined, () => node.processor.close?.());
    return this.output.rows;
  }

  /** Step 2: one call per key of the initial state, which must have one row per key. */
  private handleInitialState(initialRows: readonly Row[]): void {
    const initial = this.node.initialState;
    if (!initial) return;
    for (const [key, rows] of groupByKey(initialRows, initial.keyIndices)) {
      if (rows.length > 1) {
        throw new ExecutionError(
          `Processor ${this.node.processorName}: the initial state has ${rows.length} rows for key ${this.keyText(key)}; give each key at most one.`,
        );
      }
      const row = toRowObject(rows[0], initial.plan.schema);
      this.call('handleInitialState', key, () =>
        this.handle.withKey(key, () =>
          this.node.processor.handleInitialState!(this.keyObject(key), row, this.timerValues),
        ),
      );
    }
  }

  /** Step 3: one call per key with new rows. */
  private handleInputRows(): void {
    for (const [key, rows] of groupByKey(this.input.rows, this.node.keyIndices)) {
      const objects = rows.map((r) => toRowObject(r, this.node.input.schema));
      this.call('handleInputRows', key, () =>
        this.handle.withKey(key, () =>
          this.output.add(
            this.keyText(key),
            this.node.processor.handleInputRows(this.keyObject(key), objects, this.timerValues),
          ),
        ),
      );
    }
  }

  /** Step 4: the timers before the batch's processing time (or watermark), in (time, key) order. */
  private fireTimers(): void {
    const timers = this.handle.timers;
    const threshold =
      this.node.timeMode === 'processingTime' ? this.input.batchTimestampMs : this.watermarkMs;
    if (!timers || threshold < 0) return;
    for (const timer of timers.dueBefore(threshold)) {
      if (!timers.has(timer.key, timer.timeMs)) continue; // deleted by an earlier call
      const key = { key: timer.key, row: timer.keyRow };
      const expired = { getExpiryTimeInMs: () => timer.timeMs };
      this.call('handleExpiredTimer', key, () =>
        this.handle.withKey(key, () =>
          this.output.add(
            this.keyText(key),
            this.expiredTimerHandler()(this.keyObject(key), this.timerValues, expired),
          ),
        ),
      );
      timers.delete(timer.key, timer.timeMs);
      this.input.counters.numExpiredTimers = (this.input.counters.numExpiredTimers ?? 0) + 1;
    }
  }

  private expiredTimerHandler(): NonNullable<StatefulProcessor['handleExpiredTimer']> {
    const processor = this.node.processor;
    if (!processor.handleExpiredTimer) {
      throw new ExecutionError(
        `Processor ${this.node.processorName} registered timers but has no handleExpiredTimer method; add one.`,
      );
    }
    return processor.handleExpiredTimer.bind(processor);
  }

  private keyObject(key: CurrentKey): RowObject {
    return toRowObject(key.row, this.keySchema);
  }

  private keyText(key: CurrentKey): string {
    return keyText(key, this.keySchema);
  }
}

/** Step 5: removes the values the TTL index says expired by the batch's processing time. */
function cleanUpExpired(input: ProcessorBatchInput, handle: BatchProcessorHandle): void {
  const index = handle.ttlIndex;
  if (!index) return;
  let removed = 0;
  for (const entry of index.dueBefore(input.batchTimestampMs + 1)) {
    const [variable, key] = entry.payload as [string, string];
    const declaration = input.declarations.find((d) => d.name === variable);
    if (declaration)
      removed += removeExpired(declaration, input.store(variable), key, input.batchTimestampMs);
    index.remove(entry.timeMs, entry.id);
  }
  input.counters.numValuesRemovedDueToTTLExpiry =
    (input.counters.numValuesRemovedDueToTTLExpiry ?? 0) + removed;
}

/** The rows a processor returned, checked against the declared schema. */
class OutputRows {
  readonly rows: Row[] = [];
  private readonly convert: (obj: unknown, index: number) => Row;

  constructor(private readonly node: TransformWithState) {
    this.convert = rowInputConverter(node.schema, `the output of processor ${node.processorName}`);
  }

  add(keyText: string, produced: ProcessorOutput): void {
    if (
      produced === undefined ||
      produced === null ||
      typeof produced[Symbol.iterator] !== 'function'
    ) {
      throw new ExecutionError(
        `Processor ${this.node.processorName} returned ${String(produced)} for key ${keyText}; return an array (or iterable) of rows, [] for none.`,
      );
    }
    let i = 0;
    for (const row of produced) {
      try {
        this.rows.push(this.convert(row, i++));
      } catch (e) {
        if (!(e instanceof InvalidOptionError)) throw e;
        throw new ExecutionError(
          `${e.message} (key ${keyText}; the declared schema is ${typeName(this.node.schema)})`,
          { cause: e },
        );
      }
    }
  }
}

/**
 * Wraps each call into the processor: an error it throws becomes an ExecutionError naming the
 * processor, the method and the key (errors Sluice raised already say what happened, and pass).
 */
function processorCall(processorName: string, keySchema: StructType) {
  return (method: string, key: CurrentKey | undefined, fn: () => void): void => {
    try {
      fn();
    } catch (e) {
      if (e instanceof SluiceError) throw e;
      const where = key ? ` for key ${keyText(key, keySchema)}` : '';
      throw new ExecutionError(
        `Processor ${processorName} failed in ${method}${where}: ${e instanceof Error ? e.message : String(e)}`,
        { cause: e },
      );
    }
  };
}

/** Rows grouped by the values at `keyIndices`, keys in order of first appearance. */
function groupByKey(rows: readonly Row[], keyIndices: readonly number[]): Map<CurrentKey, Row[]> {
  const byKey = new Map<string, { key: CurrentKey; rows: Row[] }>();
  for (const row of rows) {
    const keyRow = keyIndices.map((i) => row[i]);
    const key = storeKey(keyRow);
    let group = byKey.get(key);
    if (!group) {
      group = { key: { key, row: keyRow }, rows: [] };
      byKey.set(key, group);
    }
    group.rows.push(row);
  }
  return new Map([...byKey.values()].map((g) => [g.key, g.rows]));
}

/** A grouping key's store key: its values, encoded as state values are. */
export function storeKey(keyRow: readonly unknown[]): string {
  return JSON.stringify(encodeStateValue(keyRow));
}

function keyText(key: CurrentKey, keySchema: StructType): string {
  return JSON.stringify(toRowObject(key.row, keySchema), (_, v: unknown) =>
    typeof v === 'bigint' ? String(v) : v instanceof Uint8Array ? [...v] : v,
  );
}
