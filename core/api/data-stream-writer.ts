/**
 * DataStreamWriter (`df.writeStream`): configures and starts a streaming query — output mode,
 * trigger, checkpoint location, and the sink (a format of the sink registry, foreachBatch, or any
 * Sink). The query is built by streaming-query-builder.ts, as the Lambda function builds its own.
 */
import type { CheckpointBackend } from '../checkpoint/checkpoint-store.js';
import { InvalidOptionError } from '../errors.js';
import type { OutputMode, Sink } from '../sinks/sink.js';
import {
  type InvocationBudget,
  type InvocationResult,
  runInvocation,
} from '../streaming/invocation.js';
import type { BatchStep } from '../streaming/micro-batch-execution.js';
import type { StreamingQueryProgress } from '../streaming/progress.js';
import { StreamingQuery } from '../streaming/streaming-query.js';
import type { QueryProgressEvent } from '../streaming/streaming-query-listener.js';
import { resolveTrigger, type Trigger } from '../streaming/trigger.js';
import type { DataFrame } from './dataframe.js';
import { type ForeachBatchFunction, ForeachBatchSink } from './foreach-batch-sink.js';
import type { OptionValue } from './reader-options.js';
import { checkSinkFormat } from './sink-formats.js';
import { type CheckedStreamingQuery, checkStreamingQuery } from './streaming-query-builder.js';

export { DEFAULT_SNAPSHOT_INTERVAL, DEFAULT_STATE_PARTITIONS } from './streaming-query-builder.js';

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
  private processingClock?: () => number;

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

  /** An option: checkpointLocation, numStatePartitions, snapshotInterval, minBatchesToRetain, inlineStateMaxBytes, parallelism, shard, and the sink's (e.g. console's numRows/truncate). */
  option(key: string, value: OptionValue): this {
    this.options.set(key.toLowerCase(), value);
    return this;
  }

  /** Several options at once, as {@link option} takes them one by one. */
  optionsFrom(options: Readonly<Record<string, OptionValue>>): this {
    for (const [key, value] of Object.entries(options)) this.option(key, value);
    return this;
  }

  /** Hands each batch's output to `fn` as a static DataFrame, with its batchId, as Spark does. */
  foreachBatch(fn: ForeachBatchFunction): this {
    this.sinkOverride = new ForeachBatchSink(this.df.session, fn);
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
   * Where batches read their processing time (ms since the epoch; default the system clock): the
   * batch timestamp each intent fixes and `current_timestamp()` returns. Tests give a manual clock.
   */
  clock(clock: () => number): this {
    this.processingClock = clock;
    return this;
  }

  /**
   * Checks the query, opens its checkpoint and starts running batches in the background. `path` is
   * the location of a file-based sink (the same as option('path', path)).
   */
  async start(path?: string): Promise<StreamingQuery> {
    const query = this.check(path);
    const execution = await query.start();
    const hook = this.progressHook;
    const own = hook
      ? { onQueryProgress: ({ progress }: QueryProgressEvent) => hook(progress) }
      : {};
    return new StreamingQuery(execution, query.trigger, this.name ?? null, (q) =>
      this.df.session.streams.listenerFor(q, own),
    );
  }

  /**
   * Runs the query's batches for one serverless invocation: back to back (or one per trigger
   * interval, within `budget.runForMs`) while the time budget allows, then releases the lease. The
   * checkpoint must be shared (`checkpoint()`). A runner that serves many invocations (the Lambda
   * function) keeps one execution instead: `check()` once, `start()` once, then core's
   * `runInvocation(execution, budget)` per invocation.
   */
  async runInvocation(budget: InvocationBudget, path?: string): Promise<InvocationResult> {
    const query = this.check(path);
    const { trigger } = query;
    return runInvocation(await query.start(), {
      ...budget,
      triggerIntervalMs:
        budget.triggerIntervalMs ?? (trigger.kind === 'processingTime' ? trigger.intervalMs : 0),
      onProgress: budget.onProgress ?? this.progressHook,
    });
  }

  /**
   * Checks everything about the query that can be checked without I/O (its shape for the output
   * mode, the sink's format and options, the state options, the checkpoint location) and returns it
   * ready to start; throws on the first bad setting. `start()` and `runInvocation()` begin here; the
   * Lambda function calls it at cold start, so a bad configuration fails the container's start.
   */
  check(path?: string): CheckedStreamingQuery {
    return checkStreamingQuery({
      df: this.df,
      outputMode: this.mode,
      trigger: this.triggerSpec,
      queryName: this.name,
      format: this.formatName,
      sink: this.sinkOverride,
      options: path === undefined ? this.options : new Map([...this.options, ['path', path]]),
      backend: this.backend,
      afterStep: this.stepHook,
      clock: this.processingClock,
    });
  }
}
