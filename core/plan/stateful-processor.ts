/**
 * The contract of arbitrary keyed state, after Spark 4's `transformWithState`: a user's
 * `StatefulProcessor` sees, per micro-batch, each grouping key's new rows and the timers that
 * expired, and keeps what it needs in named state variables (value, list, map) it declares in
 * `init` through its `StatefulProcessorHandle`.
 *
 * Everything the processor sees is in the user's terms: keys and rows are objects keyed by column
 * name; times are milliseconds since the epoch, as in Spark. A variable declared with a type holds
 * values checked against it (and returned in the same form `collect` uses); one declared without a
 * type holds plain data (numbers, strings, booleans, null, arrays, Maps, Sets, Uint8Arrays).
 */
import type { OutputMode } from '../sinks/sink.js';
import type { DataType } from '../types/data-types.js';
import type { RowObject } from '../types/row.js';

/**
 * What drives timers and TTL: `none` (no timers), `processingTime` (timers fire on the batch's
 * recorded processing time) or `eventTime` (timers fire once the watermark passes them).
 */
export type TimeMode = 'none' | 'processingTime' | 'eventTime';

/** A state variable's time to live: values expire this long after their last write (processing time). */
export interface TTLConfig {
  readonly ttlDurationMs: number;
}

/** The clocks a processor reads in one call: fixed for the whole micro-batch. */
export interface TimerValues {
  /** The batch's processing time (recorded in its intent, so a re-run reads the same). */
  getCurrentProcessingTimeInMs(): number;
  /** The watermark in force for the batch, in ms; -1 when there is none (Spark's value). */
  getCurrentWatermarkInMs(): number;
}

/** The timer that fired, given to `handleExpiredTimer`. */
export interface ExpiredTimerInfo {
  getExpiryTimeInMs(): number;
}

/** One value per grouping key. */
export interface ValueState<T = unknown> {
  exists(): boolean;
  /** The value, or undefined when there is none (or it expired). */
  get(): T | undefined;
  update(value: T): void;
  clear(): void;
}

/** A list of values per grouping key; with a TTL, each element expires on its own. */
export interface ListState<T = unknown> {
  exists(): boolean;
  /** The elements, oldest first (empty when there are none). */
  get(): T[];
  /** Replaces the list. */
  put(values: readonly T[]): void;
  appendValue(value: T): void;
  appendList(values: readonly T[]): void;
  clear(): void;
}

/** A map per grouping key; with a TTL, each entry expires on its own. */
export interface MapState<K = unknown, V = unknown> {
  exists(): boolean;
  getValue(key: K): V | undefined;
  containsKey(key: K): boolean;
  updateValue(key: K, value: V): void;
  /** The entries, in the order their keys were first written. */
  iterator(): [K, V][];
  keys(): K[];
  values(): V[];
  removeKey(key: K): void;
  clear(): void;
}

/**
 * What a processor uses: its state variables (declared in `init`) and, for the key being processed,
 * its timers. Times are ms since the epoch. Timers need a time mode other than `none`.
 */
export interface StatefulProcessorHandle {
  /** Declares (in `init`) the value variable `name`; `type` checks its values. */
  getValueState<T = unknown>(
    name: string,
    type?: DataType | string,
    ttl?: TTLConfig,
  ): ValueState<T>;
  /** Declares (in `init`) the list variable `name`; `elementType` checks its elements. */
  getListState<T = unknown>(
    name: string,
    elementType?: DataType | string,
    ttl?: TTLConfig,
  ): ListState<T>;
  /** Declares (in `init`) the map variable `name`; `keyType` and `valueType` check its entries. */
  getMapState<K = unknown, V = unknown>(
    name: string,
    keyType?: DataType | string,
    valueType?: DataType | string,
    ttl?: TTLConfig,
  ): MapState<K, V>;
  /** Registers a timer at `expiryTimeMs` for the current key (registering it twice keeps one). */
  registerTimer(expiryTimeMs: number): void;
  /** Deletes the current key's timer at `expiryTimeMs`, if there is one. */
  deleteTimer(expiryTimeMs: number): void;
  /** The current key's timers, earliest first. */
  listTimers(): number[];
}

/** Output rows of one call: an array, a generator or any iterable of rows of the declared schema. */
export type ProcessorOutput = Iterable<RowObject>;

/**
 * A user's stateful processor. Per micro-batch the engine calls `init`, then `handleInitialState`
 * for each key of the initial state (first batch only), `handleInputRows` once per key with new
 * rows, `handleExpiredTimer` once per expired timer (ordered by time, then key), and `close`.
 */
export interface StatefulProcessor {
  /** Declares the state variables (only; state cannot be read or written here). */
  init(handle: StatefulProcessorHandle, timeMode: TimeMode, outputMode: OutputMode): void;
  /** The key's new rows of this batch (in arrival order); returns the rows to emit. */
  handleInputRows(
    key: RowObject,
    rows: readonly RowObject[],
    timerValues: TimerValues,
  ): ProcessorOutput;
  /** A timer of `key` expired; returns the rows to emit. Needed when timers are registered. */
  handleExpiredTimer?(
    key: RowObject,
    timerValues: TimerValues,
    expiredTimerInfo: ExpiredTimerInfo,
  ): ProcessorOutput;
  /** Sets up `key`'s state from its one row of the initial state (first batch only). */
  handleInitialState?(key: RowObject, initialState: RowObject, timerValues: TimerValues): void;
  /** Called at the end of every batch. */
  close?(): void;
}
