/**
 * StreamingQuery: the handle `writeStream.start()` returns. It drives a MicroBatchExecution with the
 * query's trigger in the background and exposes Spark's controls: `awaitTermination`, `stop`,
 * `processAllAvailable`, `lastProgress`, `recentProgress`.
 */
import { CheckpointError } from '../errors.js';
import { maintenanceDue } from './checkpoint-maintenance.js';
import type { MicroBatchExecution } from './micro-batch-execution.js';
import { type StreamingQueryProgress } from './progress.js';
import type { ResolvedTrigger } from './trigger.js';

const RECENT_PROGRESS_LIMIT = 100;
/** How long an idle continuous query (processingTime 0) waits before polling its sources again. */
const IDLE_POLL_MS = 10;

/** A running (or finished) streaming query. */
export class StreamingQuery {
  /** Progress of recent batches, oldest first (at most 100). */
  readonly recentProgress: StreamingQueryProgress[] = [];
  private stopped = false;
  private failure: unknown;
  private readonly done: Promise<void>;
  private wake: () => void = () => {};
  private idleWaiters: { resolve: () => void; reject: (e: unknown) => void }[] = [];

  constructor(
    private readonly execution: MicroBatchExecution,
    private readonly trigger: ResolvedTrigger,
    /** The query's name (`queryName`), or null. */
    readonly name: string | null,
    private readonly onProgress: (p: StreamingQueryProgress) => void = () => {},
  ) {
    this.done = this.run();
  }

  /** Stable across restarts on the same checkpoint. */
  get id(): string {
    return this.execution.queryId;
  }

  /** Unique to this run. */
  get runId(): string {
    return this.execution.runId;
  }

  /** The progress of the last batch, or undefined before the first. */
  get lastProgress(): StreamingQueryProgress | undefined {
    return this.recentProgress[this.recentProgress.length - 1];
  }

  /** True until the query stops or fails. */
  get isActive(): boolean {
    return !this.finished;
  }

  /** The error that stopped the query, if one did. */
  get exception(): unknown {
    return this.failure;
  }

  private finished = false;

  /**
   * Waits until the query terminates (or `timeoutMs` passes: then resolves false).
   * Rejects with the query's error if it failed.
   */
  async awaitTermination(timeoutMs?: number): Promise<boolean> {
    if (timeoutMs === undefined) {
      await this.done;
      this.throwIfFailed();
      return true;
    }
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>(
      (resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)),
    );
    const finished = await Promise.race([this.done.then(() => true as const), timeout]);
    clearTimeout(timer);
    if (finished) this.throwIfFailed();
    return finished;
  }

  /** Waits until every row available now has been processed (and windows it closes are emitted). */
  processAllAvailable(): Promise<void> {
    if (this.finished) return this.failure ? Promise.reject(this.failure) : Promise.resolve();
    const waiter = new Promise<void>((resolve, reject) =>
      this.idleWaiters.push({ resolve, reject }),
    );
    this.wake();
    return waiter;
  }

  /** Stops the query after the batch in flight (if any) and releases its sources. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake();
    await this.done;
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure;
  }

  private async run(): Promise<void> {
    try {
      await this.loop();
    } catch (e) {
      this.failure = e;
    } finally {
      this.finished = true;
      await this.execution.stop().catch((e: unknown) => (this.failure ??= e));
      for (const w of this.idleWaiters.splice(0)) {
        if (this.failure) w.reject(this.failure);
        else w.resolve();
      }
    }
  }

  private async loop(): Promise<void> {
    if (this.trigger.kind === 'availableNow') await this.execution.prepareForAvailableNow();
    const backfill =
      this.trigger.kind === 'availableNow' ? await this.execution.backlog() : undefined;
    while (!this.stopped) {
      const started = Date.now();
      // Waiters registered before this attempt are satisfied once an attempt finds nothing to do.
      const waiting = this.idleWaiters.length;
      const batch = await this.committedBatch();
      const progress =
        batch && backfill !== undefined
          ? { ...batch, backfill: await this.backfillProgress(backfill) }
          : batch;
      if (progress) this.record(progress);
      else this.idleWaiters.splice(0, waiting).forEach((w) => w.resolve());
      if (this.trigger.kind === 'once' || (this.trigger.kind === 'availableNow' && !progress))
        return;
      if (this.trigger.kind === 'availableNow') continue;
      const interval = this.trigger.intervalMs;
      const wait = progress
        ? interval - (Date.now() - started)
        : Math.max(interval - (Date.now() - started), IDLE_POLL_MS);
      if (wait > 0 && this.idleWaiters.length === 0) await this.sleep(wait);
    }
  }

  /**
   * Runs the next batch: its progress, or undefined when there was nothing to do. A query started with
   * writeStream owns its checkpoint, so finding another writer is an error.
   */
  private async committedBatch(): Promise<StreamingQueryProgress | undefined> {
    const outcome = await this.execution.runNextBatch(Infinity, this.trigger.kind === 'once');
    switch (outcome.kind) {
      case 'committed':
        if (maintenanceDue(outcome.progress.batchId)) await this.execution.maintain();
        return outcome.progress;
      case 'idle':
        return undefined;
      case 'lease-held':
        throw new CheckpointError(
          `Another run (${outcome.owner}) holds the lease of this query's checkpoint; two queries must not share a checkpoint.`,
        );
      case 'conflict':
      case 'lease-lost':
      case 'abandoned':
        throw new CheckpointError(
          `Batch ${outcome.batchId} was not committed (${outcome.kind}): another run of this query is writing to the same checkpoint; two queries must not share a checkpoint.`,
        );
    }
  }

  /** How much of the input available at the start of an availableNow run is done. */
  private async backfillProgress(total: number): Promise<{ done: number; total: number }> {
    const remaining = (await this.execution.backlog()) ?? 0;
    return { done: Math.max(0, total - remaining), total };
  }

  private record(p: StreamingQueryProgress): void {
    this.recentProgress.push(p);
    if (this.recentProgress.length > RECENT_PROGRESS_LIMIT) this.recentProgress.shift();
    this.onProgress(p);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
