/**
 * DataStreamWriter (`df.writeStream`): configures and starts a streaming query — output mode,
 * trigger, checkpoint location, and the sink (memory, console, foreachBatch, or any Sink).
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CheckpointBackend } from '../checkpoint/checkpoint-store.js';
import { FileCheckpointStore } from '../checkpoint/file-checkpoint-store.js';
import { LocalDirectoryStore } from '../checkpoint/local-directory-store.js';
import { InvalidOptionError } from '../errors.js';
import { checkStreamingPlan } from '../plan/unsupported-operation-checker.js';
import { type ForeachBatchFunction, ForeachBatchSink } from '../sinks/foreach-batch-sink.js';
import type { OutputMode, Sink } from '../sinks/sink.js';
import {
  type InvocationBudget,
  type InvocationResult,
  runInvocation,
} from '../streaming/invocation.js';
import { type BatchStep, MicroBatchExecution } from '../streaming/micro-batch-execution.js';
import type { StreamingQueryProgress } from '../streaming/progress.js';
import { StreamingQuery } from '../streaming/streaming-query.js';
import { resolveTrigger, type Trigger } from '../streaming/trigger.js';
import type { DataFrame } from './dataframe.js';
import { type OptionValue, positiveIntegerOption } from './reader-options.js';
import { checkSink, checkSinkFormat, type SinkCreator } from './sink-formats.js';

/** Default number of state partitions (fixed when a checkpoint is created). */
export const DEFAULT_STATE_PARTITIONS = 16;
/** Default number of deltas after which a state partition is written as a snapshot. */
export const DEFAULT_SNAPSHOT_INTERVAL = 10;

/** Builds and starts a streaming query. */
export class DataStreamWriter {
  private mode: OutputMode = 'append';
  private triggerSpec: Trigger = { processingTime: 0 };
  private name?: string;
  private formatName = 'memory';
  private sinkOverride?: Sink;
  private readonly options = new Map<string, OptionValue>();
  private stepHook?: (step: BatchStep, batchId: number) => void;
  private backend?: CheckpointBackend;
  private progressHook?: (p: StreamingQueryProgress) => void;

  constructor(private readonly df: DataFrame) {}

  /** append (default): only final rows; update: rows changed by each batch; complete: the whole result each batch. */
  outputMode(mode: OutputMode): this {
    if (!['append', 'update', 'complete'].includes(mode)) {
      throw new InvalidOptionError(
        `Unknown output mode '${mode}'; use append, update or complete.`,
      );
    }
    this.mode = mode;
    return this;
  }

  /** When batches run: `{ processingTime: '10 seconds' }` (default: as fast as possible), `{ once: true }`, `{ availableNow: true }`. */
  trigger(trigger: Trigger): this {
    resolveTrigger(trigger);
    this.triggerSpec = trigger;
    return this;
  }

  /** The query's name; with the memory sink also the name of `session.table(name)`. */
  queryName(name: string): this {
    this.name = name;
    return this;
  }

  /** The sink by name: memory (default), console, or a connector's format. */
  format(name: string): this {
    this.formatName = checkSinkFormat(name);
    return this;
  }

  /** An option: checkpointLocation, numStatePartitions, snapshotInterval, minBatchesToRetain, and console's numRows/truncate. */
  option(key: string, value: OptionValue): this {
    this.options.set(key.toLowerCase(), value);
    return this;
  }

  /** Hands each batch's rows and batchId to `fn`. */
  foreachBatch(fn: ForeachBatchFunction): this {
    this.sinkOverride = new ForeachBatchSink(fn);
    return this;
  }

  /** Writes to a custom sink (it must be idempotent per batchId for exactly-once results). */
  sink(sink: Sink): this {
    this.sinkOverride = sink;
    return this;
  }

  /**
   * Keeps the checkpoint somewhere other than a local directory (e.g. `MemoryObjectStore` for an
   * in-memory checkpoint); replaces option('checkpointLocation').
   */
  checkpoint(backend: CheckpointBackend): this {
    this.backend = backend;
    return this;
  }

  /** Called with each batch's progress record (like a StreamingQueryListener). */
  onProgress(fn: (p: StreamingQueryProgress) => void): this {
    this.progressHook = fn;
    return this;
  }

  /**
   * Called after each step of the commit protocol. An error thrown here aborts the batch exactly as a
   * crash at that point would; recovery tests use it.
   */
  afterStep(fn: (step: BatchStep, batchId: number) => void): this {
    this.stepHook = fn;
    return this;
  }

  /**
   * Checks the query, opens its checkpoint and starts running batches in the background. `path` is
   * the location of a file-based sink (the same as option('path', path)).
   */
  async start(path?: string): Promise<StreamingQuery> {
    const trigger = resolveTrigger(this.triggerSpec);
    const execution = await this.execution(path);
    return new StreamingQuery(execution, trigger, this.name ?? null, this.progressHook);
  }

  /**
   * Runs the query's batches for one serverless invocation: back to back (or one per trigger
   * interval, within `budget.runForMs`) while the time budget allows, then releases the lease. The
   * Lambda runner calls this once per scheduled event; the checkpoint must be shared (`checkpoint()`).
   */
  async runInvocation(budget: InvocationBudget, path?: string): Promise<InvocationResult> {
    const trigger = resolveTrigger(this.triggerSpec);
    const execution = await this.execution(path);
    return runInvocation(execution, {
      ...budget,
      triggerIntervalMs:
        budget.triggerIntervalMs ?? (trigger.kind === 'processingTime' ? trigger.intervalMs : 0),
      onProgress: budget.onProgress ?? this.progressHook,
    });
  }

  private async execution(path: string | undefined): Promise<MicroBatchExecution> {
    if (path !== undefined) this.options.set('path', path);
    checkStreamingPlan(this.df.plan, this.mode);
    const createSink = this.sinkOverride ? undefined : this.namedSink();
    const sink = this.sinkOverride ?? (await createSink!());
    return MicroBatchExecution.start({
      ...(this.backend ?? this.localBackend()),
      plan: this.df.plan,
      outputMode: this.mode,
      sink,
      numStatePartitions:
        positiveIntegerOption('numStatePartitions', this.options.get('numstatepartitions')) ??
        DEFAULT_STATE_PARTITIONS,
      snapshotInterval:
        positiveIntegerOption('snapshotInterval', this.options.get('snapshotinterval')) ??
        DEFAULT_SNAPSHOT_INTERVAL,
      minBatchesToRetain: positiveIntegerOption(
        'minBatchesToRetain',
        this.options.get('minbatchestoretain'),
      ),
      queryName: this.name,
      afterStep: this.stepHook,
    });
  }

  private localBackend(): CheckpointBackend {
    const directory = this.checkpointLocation();
    const store = new LocalDirectoryStore(directory);
    return {
      checkpoint: new FileCheckpointStore(store),
      stateObjects: store,
    };
  }

  private checkpointLocation(): string {
    const given = this.options.get('checkpointlocation');
    if (given !== undefined) return String(given);
    if (this.sinkOverride) {
      throw new InvalidOptionError(
        "option('checkpointLocation', dir) is required for this sink: it is where offsets and state survive a restart.",
      );
    }
    return mkdtempSync(path.join(os.tmpdir(), 'sluice-checkpoint-'));
  }

  private namedSink(): SinkCreator {
    return checkSink(this.formatName, {
      options: this.options,
      df: this.df,
      queryName: this.name,
    });
  }
}
