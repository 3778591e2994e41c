/**
 * StreamingQuery: the handle `writeStream.start()` returns. It drives a MicroBatchExecution on the
 * query driver (query-driver.ts) with the query's trigger in the background, without a time budget,
 * and exposes Spark's controls: `awaitTermination`, `stop`, `processAllAvailable`, `lastProgress`,
 * `recentProgress`, `status`. It tells its listener (streaming-query-listener.ts) when it starts,
 * commits a batch, goes idle and terminates. A query started this way owns its checkpoint: finding
 * another writer fails it.
 */
import { unboundedPolicy } from './driver-decisions.js';
import type { MicroBatchExecution } from './micro-batch-execution.js';
import { type StreamingQueryProgress } from './progress.js';
import { driveQuery } from './query-driver.js';
import {
  callListener,
  IDLE_EVENT_INTERVAL_MS,
  type StreamingQueryListener,
} from './streaming-query-listener.js';
import { INITIAL_STATUS, type StreamingQueryStatus } from './streaming-query-status.js';
import type { ResolvedTrigger } from './trigger.js';

const RECENT_PROGRESS_LIMIT = 100;

/** A running (or finished) streaming query. */
export class StreamingQuery {
  /** Progress of recent batches, oldest first (at most 100). */
  readonly recentProgress: StreamingQueryProgress[] = [];
  private stopped = false;
  private failure: unknown;
  private readonly done: Promise<void>;
  private wake: () => void = () => {};
  private idleWaiters: { resolve: () => void; reject: (e: unknown) => void }[] = [];
  private currentStatus: StreamingQueryStatus = INITIAL_STATUS;
  /** When the last idle event was posted; -Infinity after a batch, so the next idle trigger posts one. */
  private lastIdleEventMs = -Infinity;
  private readonly listener: StreamingQueryListener;

  constructor(
    private readonly execution: MicroBatchExecution,
    private readonly trigger: ResolvedTrigger,
    /** The query's name (`queryName`), or null. */
    readonly name: string | null,
    /** The listener the query reports to, given the query (a session's manager keeps it). */
    listenerOf: (query: StreamingQuery) => StreamingQueryListener = () => ({}),
  ) {
    const listener = (this.listener = listenerOf(this));
    this.notify(() =>
      listener.onQueryStarted?.({
        id: this.id,
        runId: this.runId,
        name,
        timestamp: new Date().toISOString(),
      }),
    );
    this.done = this.run();
  }

  /** What the query is doing now. */
  get status(): StreamingQueryStatus {
    return this.currentStatus;
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
    let waiting = 0;
    try {
      await driveQuery(this.execution, unboundedPolicy(this.trigger), {
        remainingMs: () => Infinity,
        stopRequested: () => this.stopped,
        sleep: (ms) => this.sleep(ms),
        // Waiters registered before an attempt are satisfied once an attempt finds nothing to do.
        beforeAttempt: () => {
          waiting = this.idleWaiters.length;
          this.setStatus('Getting offsets from sources', true);
        },
        afterAttempt: (progress) => {
          if (progress) this.record(progress);
          else {
            this.idle();
            this.idleWaiters.splice(0, waiting).forEach((w) => w.resolve());
          }
        },
      });
    } catch (e) {
      this.failure = e;
    } finally {
      this.finished = true;
      await this.execution.stop().catch((e: unknown) => (this.failure ??= e));
      this.setStatus('Stopped', false);
      this.terminated();
      for (const w of this.idleWaiters.splice(0)) {
        if (this.failure) w.reject(this.failure);
        else w.resolve();
      }
    }
  }

  private record(p: StreamingQueryProgress): void {
    this.recentProgress.push(p);
    if (this.recentProgress.length > RECENT_PROGRESS_LIMIT) this.recentProgress.shift();
    this.currentStatus = {
      message: 'Waiting for next trigger',
      isDataAvailable: true,
      isTriggerActive: false,
    };
    this.lastIdleEventMs = -Infinity;
    this.notify(() => this.listener.onQueryProgress?.({ progress: p }));
  }

  /** A trigger found nothing to do: the status says so, and an idle event is posted when due. */
  private idle(): void {
    this.currentStatus = {
      message: 'Waiting for data to arrive',
      isDataAvailable: false,
      isTriggerActive: false,
    };
    const now = Date.now();
    if (now - this.lastIdleEventMs < IDLE_EVENT_INTERVAL_MS) return;
    this.lastIdleEventMs = now;
    const event = { id: this.id, runId: this.runId, timestamp: new Date(now).toISOString() };
    this.notify(() => this.listener.onQueryIdle?.(event));
  }

  private terminated(): void {
    const failure = this.failure;
    const exception = failure === undefined ? null : String((failure as Error)?.message ?? failure);
    this.notify(() =>
      this.listener.onQueryTerminated?.({
        id: this.id,
        runId: this.runId,
        exception,
        ...(failure === undefined ? {} : { error: failure }),
      }),
    );
  }

  private setStatus(message: string, isTriggerActive: boolean): void {
    this.currentStatus = { ...this.currentStatus, message, isTriggerActive };
  }

  private notify(call: () => void): void {
    callListener(this.id, call);
  }

  /** Waits for the trigger, unless a processAllAvailable caller is waiting; stop() and processAllAvailable() wake it. */
  private sleep(ms: number): Promise<void> {
    if (this.idleWaiters.length > 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
