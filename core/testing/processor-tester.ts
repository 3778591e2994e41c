/**
 * A tester for stateful processors, after Spark's TwsTester: it runs a processor the way a
 * micro-batch does (processor-batch.ts), on state kept in memory, under a processing-time clock and
 * a watermark the test sets, so a user's unit test needs no stream, sink or checkpoint.
 *
 * Each `test(rows)` is one batch; `setProcessingTime` and `setWatermark` move the clocks and run a
 * batch without data, which fires the timers now due and removes expired TTL values, as the
 * stream's batches without data do. State variables and timers of a key can be read (and set up)
 * at any time. A batch that throws leaves the state as it was before it, as an aborted batch does.
 * Unlike the stream, the tester does not drop late rows: every row given to `test` is processed.
 */
import { type RowObject, toRowObject } from '../types/row.js';
import { struct, type StructType } from '../types/data-types.js';
import { rowInputConverter } from '../types/row-input.js';
import { parseSchema } from '../types/type-names.js';
import { InvalidOptionError } from '../errors.js';
import { SluiceSession } from '../api/session.js';
import type { TransformWithState } from '../plan/logical-plan.js';
import type { StatefulProcessor, TimeMode } from '../plan/stateful-processor.js';
import { runProcessorBatch, storeKey } from '../exec/processor-batch.js';
import {
  BatchProcessorHandle,
  type ProcessorBatchSetup,
  processorStoreNames,
} from '../exec/processor-handle.js';
import { KeyedStateStore } from '../state/keyed-state-store.js';

/** What the tester runs the processor on. */
export interface ProcessorTesterOptions {
  /** The grouping key columns of the input. */
  readonly keys: readonly string[];
  /** The input rows' schema: a StructType or DDL. */
  readonly inputSchema: StructType | string;
  /** The schema of the rows the processor returns. */
  readonly outputSchema: StructType | string;
  /** @default 'none' */
  readonly timeMode?: TimeMode;
  /** @default 'update' */
  readonly outputMode?: 'append' | 'update';
  /** Rows (with the same key columns) that set up each key's state before the first batch. */
  readonly initialState?: {
    readonly rows: readonly RowObject[];
    readonly schema: StructType | string;
  };
  /** The processing time of the first batch, in ms since the epoch. @default 0 */
  readonly startTimeMs?: number;
}

/** Runs a StatefulProcessor batch by batch, in memory. */
export class ProcessorTester {
  private readonly node: TransformWithState;
  private readonly inputRow: (obj: unknown, index: number) => unknown[];
  private readonly keyRow: (obj: unknown, index: number) => unknown[];
  private stores = new Map<string, KeyedStateStore>();
  private initialRows: unknown[][] | undefined;
  private processingTimeMs: number;
  private watermarkMs: number | undefined;
  /** The figures of the last batch (numExpiredTimers, numRegisteredTimers, ...). */
  lastMetrics: Readonly<Record<string, number>> = {};

  constructor(processor: StatefulProcessor, options: ProcessorTesterOptions) {
    const session = new SluiceSession();
    const inputSchema = schemaOf(options.inputSchema);
    const initial = options.initialState;
    const initialDf = initial && session.createDataFrame(initial.rows, initial.schema);
    const df = session
      .createDataFrame([], inputSchema)
      .groupBy(...options.keys)
      .transformWithState(processor, {
        timeMode: options.timeMode ?? 'none',
        outputMode: options.outputMode ?? 'update',
        schema: options.outputSchema,
        ...(initialDf ? { initialState: initialDf.groupBy(...options.keys) } : {}),
      });
    this.node = df.plan as TransformWithState;
    this.inputRow = rowInputConverter(inputSchema, 'ProcessorTester.test');
    const keySchema = struct(this.node.keyIndices.map((i) => inputSchema.fields[i]));
    this.keyRow = rowInputConverter(keySchema, 'ProcessorTester key');
    if (initial && initialDf) {
      const toRow = rowInputConverter(initialDf.plan.schema, 'ProcessorTester initialState');
      this.initialRows = initial.rows.map(toRow);
    }
    this.processingTimeMs = options.startTimeMs ?? 0;
    for (const name of processorStoreNames(this.node.stateVariables, this.node.timeMode))
      this.stores.set(name, new KeyedStateStore(1));
  }

  /** One batch with `rows` (objects of the input schema): returns what the processor emitted. */
  test(rows: readonly RowObject[]): RowObject[] {
    return this.runBatch(rows.map(this.inputRow));
  }

  /** Moves the processing time to `ms` and runs a batch without data (due timers fire, TTL expires). */
  setProcessingTime(ms: number): RowObject[] {
    if (ms < this.processingTimeMs) {
      throw new InvalidOptionError(
        `ProcessorTester.setProcessingTime(${ms}) would move the clock back from ${this.processingTimeMs}; processing time only grows.`,
      );
    }
    this.processingTimeMs = ms;
    return this.runBatch([]);
  }

  /** Moves the watermark to `ms` and runs a batch without data (due event-time timers fire). */
  setWatermark(ms: number): RowObject[] {
    if (this.watermarkMs !== undefined && ms < this.watermarkMs) {
      throw new InvalidOptionError(
        `ProcessorTester.setWatermark(${ms}) would move the watermark back from ${this.watermarkMs}; a watermark never moves back.`,
      );
    }
    this.watermarkMs = ms;
    return this.runBatch([]);
  }

  /** Value variable `name` of `key` (an object of the key columns), as the processor reads it now. */
  valueState(name: string, key: RowObject): unknown {
    return this.withHandle(key, (h) => h.getValueState(name).get());
  }

  /** Sets value variable `name` of `key`, as if the processor had written it now. */
  setValueState(name: string, key: RowObject, value: unknown): void {
    this.withHandle(key, (h) => h.getValueState(name).update(value));
  }

  /** List variable `name` of `key`, as the processor reads it now. */
  listState(name: string, key: RowObject): unknown[] {
    return this.withHandle(key, (h) => h.getListState(name).get());
  }

  /** Map variable `name` of `key`, as the processor reads it now. */
  mapState(name: string, key: RowObject): Map<unknown, unknown> {
    return this.withHandle(key, (h) => new Map(h.getMapState(name).iterator()));
  }

  /** The timers of `key`, earliest first. */
  timers(key: RowObject): number[] {
    return this.withHandle(key, (h) => h.listTimers());
  }

  private runBatch(rows: unknown[][]): RowObject[] {
    // the batch runs on copies, so one that throws leaves the state as it was (values are never
    // changed in place, so copying the entries is enough)
    const working = new Map([...this.stores].map(([name, store]) => [name, copyOf(store)]));
    const counters: Record<string, number> = {};
    const output = runProcessorBatch({
      ...this.setup((name) => working.get(name)!, counters),
      node: this.node,
      rows,
      ...(this.initialRows ? { initialRows: this.initialRows } : {}),
      watermarkMicros: this.watermarkMs === undefined ? undefined : this.watermarkMs * 1000,
      fireTimers: true,
    });
    this.stores = working;
    this.initialRows = undefined;
    this.lastMetrics = counters;
    return output.map((row) => toRowObject(row, this.node.schema));
  }

  private withHandle<T>(key: RowObject, fn: (handle: BatchProcessorHandle) => T): T {
    const keyRow = this.keyRow(key, 0);
    // the handle refuses a variable the processor did not declare before it asks for its store
    const handle = new BatchProcessorHandle(this.setup((name) => this.stores.get(name)!, {}));
    return handle.withKey({ key: storeKey(keyRow), row: keyRow }, () => fn(handle));
  }

  private setup(
    store: (name: string) => KeyedStateStore,
    counters: Record<string, number>,
  ): ProcessorBatchSetup {
    return {
      processorName: this.node.processorName,
      timeMode: this.node.timeMode,
      outputMode: this.node.outputMode,
      declarations: this.node.stateVariables,
      store,
      batchTimestampMs: this.processingTimeMs,
      counters,
    };
  }
}

function schemaOf(schema: StructType | string): StructType {
  return typeof schema === 'string' ? parseSchema(schema) : schema;
}

function copyOf(store: KeyedStateStore): KeyedStateStore {
  const copy = new KeyedStateStore(store.numPartitions);
  for (const [key, value] of store.entries()) copy.put(key, value);
  return copy;
}
