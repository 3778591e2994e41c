/**
 * The StatefulProcessorHandle of one batch: it hands the processor its declared variables and the
 * timers of the key being processed. The operator sets the key before each call into the processor
 * and clears it after (Spark's implicit grouping key), so a variable used outside such a call (in
 * `init` or `close`) is an error naming the variable.
 *
 * The stores a processor keeps: one per state variable (named as it), `timers-byKey` and
 * `timers-byTime` with a time mode, and `ttl-byTime` (an expiry index of (variable, key) by expiry)
 * when a variable has a TTL.
 */
import { ExecutionError } from '../errors.js';
import type { OutputMode } from '../sinks/sink.js';
import type {
  ListState,
  MapState,
  StatefulProcessorHandle,
  TimeMode,
  ValueState,
} from '../plan/stateful-processor.js';
import type { StateVariableDeclaration } from '../plan/state-variable-declarations.js';
import type { StateStore } from '../state/state-store.js';
import type { BatchCounters } from './execution-context.js';
import { ExpiryIndex } from './expiry-index.js';
import { ProcessorTimers, TIMER_STORE_NAMES } from './processor-timers.js';
import {
  StoredListState,
  StoredMapState,
  StoredValueState,
  type VariableScope,
} from './processor-state-variables.js';

/** The store of the TTL index. */
export const TTL_STORE_NAME = 'ttl-byTime';

/** What a processor with `declarations` in `timeMode` keeps: its state store names. */
export function processorStoreNames(
  declarations: readonly StateVariableDeclaration[],
  timeMode: TimeMode,
): string[] {
  return [
    ...declarations.map((d) => d.name),
    ...(timeMode === 'none' ? [] : TIMER_STORE_NAMES),
    ...(declarations.some((d) => d.ttlMs !== undefined) ? [TTL_STORE_NAME] : []),
  ];
}

/** Everything one batch of a processor runs with. */
export interface ProcessorBatchSetup {
  readonly processorName: string;
  readonly timeMode: TimeMode;
  readonly outputMode: OutputMode;
  readonly declarations: readonly StateVariableDeclaration[];
  /** The processor's store `name`, open for this batch. */
  readonly store: (name: string) => StateStore;
  readonly batchTimestampMs: number;
  /** The figures the batch reports (numRegisteredTimers, ...). */
  readonly counters: BatchCounters;
}

/** The grouping key being processed: its store key and its values. */
export interface CurrentKey {
  readonly key: string;
  readonly row: unknown[];
}

/** The handle of one batch. */
export class BatchProcessorHandle implements StatefulProcessorHandle {
  readonly timers: ProcessorTimers | undefined;
  readonly ttlIndex: ExpiryIndex | undefined;
  private current: CurrentKey | undefined;
  private readonly scope: VariableScope;

  constructor(private readonly setup: ProcessorBatchSetup) {
    this.timers =
      setup.timeMode === 'none'
        ? undefined
        : new ProcessorTimers(setup.store(TIMER_STORE_NAMES[0]), setup.store(TIMER_STORE_NAMES[1]));
    const hasTtl = setup.declarations.some((d) => d.ttlMs !== undefined);
    this.ttlIndex = hasTtl ? new ExpiryIndex(setup.store(TTL_STORE_NAME)) : undefined;
    this.scope = {
      processorName: setup.processorName,
      batchTimestampMs: setup.batchTimestampMs,
      currentKey: (variable) => this.currentKey(`state variable '${variable}'`).key,
      expiresAt: (variable, key, expiresAtMs) =>
        this.ttlIndex!.add(expiresAtMs, `${variable}|${key}`, [variable, key]),
    };
  }

  /** Runs `fn` with `key` as the key being processed. */
  withKey<T>(key: CurrentKey, fn: () => T): T {
    this.current = key;
    try {
      return fn();
    } finally {
      this.current = undefined;
    }
  }

  getValueState<T>(name: string): ValueState<T> {
    return new StoredValueState<T>(
      this.declared(name, 'value'),
      this.setup.store(name),
      this.scope,
    );
  }

  getListState<T>(name: string): ListState<T> {
    return new StoredListState<T>(this.declared(name, 'list'), this.setup.store(name), this.scope);
  }

  getMapState<K, V>(name: string): MapState<K, V> {
    return new StoredMapState<K, V>(this.declared(name, 'map'), this.setup.store(name), this.scope);
  }

  registerTimer(expiryTimeMs: number): void {
    const { key, row } = this.currentKey('registerTimer');
    if (!Number.isSafeInteger(expiryTimeMs)) {
      throw new ExecutionError(
        `Processor ${this.setup.processorName} registered a timer at ${String(expiryTimeMs)}; a timer's time is a whole number of ms since the epoch.`,
      );
    }
    if (this.timersOf('registerTimer').register(key, row, expiryTimeMs))
      this.count('numRegisteredTimers');
  }

  deleteTimer(expiryTimeMs: number): void {
    const { key } = this.currentKey('deleteTimer');
    if (this.timersOf('deleteTimer').delete(key, expiryTimeMs)) this.count('numDeletedTimers');
  }

  listTimers(): number[] {
    return this.timersOf('listTimers').list(this.currentKey('listTimers').key);
  }

  private timersOf(what: string): ProcessorTimers {
    if (!this.timers) {
      throw new ExecutionError(
        `Processor ${this.setup.processorName} called ${what} with timeMode 'none'; use timeMode 'processingTime' or 'eventTime' for timers.`,
      );
    }
    return this.timers;
  }

  private currentKey(what: string): CurrentKey {
    if (!this.current) {
      throw new ExecutionError(
        `Processor ${this.setup.processorName} used ${what} outside the processing of a key (in init or close); use it in handleInputRows, handleExpiredTimer or handleInitialState.`,
      );
    }
    return this.current;
  }

  private declared(name: string, kind: StateVariableDeclaration['kind']): StateVariableDeclaration {
    const d = this.setup.declarations.find((x) => x.name === name);
    if (!d || d.kind !== kind) {
      throw new ExecutionError(
        `Processor ${this.setup.processorName} asked for ${kind} state '${name}', which its init did not declare when the query was built (${this.setup.declarations.map((x) => `${x.kind} '${x.name}'`).join(', ') || 'none'}); init must declare the same variables every time.`,
      );
    }
    return d;
  }

  private count(name: string): void {
    this.setup.counters[name] = (this.setup.counters[name] ?? 0) + 1;
  }
}
