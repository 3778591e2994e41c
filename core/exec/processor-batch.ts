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
import type { ProcessorOutput, TimerValues } from '../plan/stateful-processor.js';
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
  const { node } = input;
  const handle = new BatchProcessorHandle(input);
  const watermarkMs =
    input.watermarkMicros === undefined ? -1 : Math.floor(input.watermarkMicros / 1000);
  const timerValues: TimerValues = {
    getCurrentProcessingTimeInMs: () => input.batchTimestampMs,
    getCurrentWatermarkInMs: () => watermarkMs,
  };
  const keySchema = struct(node.keyIndices.map((i) => node.input.schema.fields[i]));
  const output = new OutputRows(node);
  const call = processorCall(node.processorName, keySchema);
  call('init', undefined, () => node.processor.init(handle, node.timeMode, node.outputMode));
  if (input.initialRows && node.initialState) {
    const initialSchema = node.initialState.plan.schema;
    for (const [key, rows] of groupByKey(input.initialRows, node.initialState.keyIndices)) {
      if (rows.length > 1) {
        throw new ExecutionError(
          `Processor ${node.processorName}: the initial state has ${rows.length} rows for key ${keyText(key, keySchema)}; give each key at most one.`,
        );
      }
      call('handleInitialState', key, () =>
        handle.withKey(key, () =>
          node.processor.handleInitialState!(
            toObject(key, keySchema),
            toRowObject(rows[0], initialSchema),
            timerValues,
          ),
        ),
      );
    }
  }
  for (const [key, rows] of groupByKey(input.rows, node.keyIndices)) {
    const objects = rows.map((r) => toRowObject(r, node.input.schema));
    call('handleInputRows', key, () =>
      handle.withKey(key, () =>
        output.add(
          key,
          keySchema,
          node.processor.handleInputRows(toObject(key, keySchema), objects, timerValues),
        ),
      ),
    );
  }
  const threshold = node.timeMode === 'processingTime' ? input.batchTimestampMs : watermarkMs;
  if (input.fireTimers && handle.timers && threshold >= 0) {
    for (const timer of handle.timers.dueBefore(threshold)) {
      if (!handle.timers.has(timer.key, timer.timeMs)) continue;
      const key = { key: timer.key, row: timer.keyRow };
      const expired = { getExpiryTimeInMs: () => timer.timeMs };
      call('handleExpiredTimer', key, () =>
        handle.withKey(key, () => {
          if (!node.processor.handleExpiredTimer) {
            throw new ExecutionError(
              `Processor ${node.processorName} registered timers but has no handleExpiredTimer method; add one.`,
            );
          }
          output.add(
            key,
            keySchema,
            node.processor.handleExpiredTimer(toObject(key, keySchema), timerValues, expired),
          );
        }),
      );
      handle.timers.delete(timer.key, timer.timeMs);
      input.counters.numExpiredTimers = (input.counters.numExpiredTimers ?? 0) + 1;
    }
  }
  if (input.fireTimers) cleanUpExpired(input, handle);
  call('close', undefined, () => node.processor.close?.());
  return output.rows;
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

  add(key: CurrentKey, keySchema: StructType, produced: ProcessorOutput): void {
    if (
      produced === undefined ||
      produced === null ||
      typeof produced[Symbol.iterator] !== 'function'
    ) {
      throw new ExecutionError(
        `Processor ${this.node.processorName} returned ${String(produced)} for key ${keyText(key, keySchema)}; return an array (or iterable) of rows, [] for none.`,
      );
    }
    let i = 0;
    for (const row of produced) {
      try {
        this.rows.push(this.convert(row, i++));
      } catch (e) {
        if (!(e instanceof InvalidOptionError)) throw e;
        throw new ExecutionError(
          `${e.message} (key ${keyText(key, keySchema)}; the declared schema is ${typeName(this.node.schema)})`,
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

function toObject(key: CurrentKey, keySchema: StructType): RowObject {
  return toRowObject(key.row, keySchema);
}

function keyText(key: CurrentKey, keySchema: StructType): string {
  return JSON.stringify(toObject(key, keySchema), (_, v: unknown) =>
    typeof v === 'bigint' ? String(v) : v instanceof Uint8Array ? [...v] : v,
  );
}
