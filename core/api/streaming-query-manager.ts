/**
 * StreamingQueryManager (`session.streams`), as Spark's: the session's active queries, their
 * listeners, and waiting for any of them to terminate. Every query started from the session's
 * DataFrames reports to it; it keeps a query from its start until it terminates.
 */
import { InvalidOptionError } from '../errors.js';
import type { StreamingQuery } from '../streaming/streaming-query.js';
import {
  callListener,
  type QueryTerminatedEvent,
  type StreamingQueryListener,
} from '../streaming/streaming-query-listener.js';

/** The queries of one session. */
export class StreamingQueryManager {
  private readonly listeners: StreamingQueryListener[] = [];
  private readonly running = new Map<string, StreamingQuery>();
  /** The first termination since the manager was made or `resetTerminated`, if any. */
  private firstTermination: QueryTerminatedEvent | undefined;
  private terminationWaiters: (() => void)[] = [];

  /** Registers a listener for the events of every query of the session. */
  addListener(listener: StreamingQueryListener): void {
    if (typeof listener !== 'object' || listener === null) {
      throw new InvalidOptionError(
        'addListener takes an object with any of onQueryStarted, onQueryProgress, onQueryIdle, onQueryTerminated.',
      );
    }
    this.listeners.push(listener);
  }

  /** Unregisters a listener added with `addListener` (no effect if it was not). */
  removeListener(listener: StreamingQueryListener): void {
    const i = this.listeners.indexOf(listener);
    if (i >= 0) this.listeners.splice(i, 1);
  }

  /** The queries running now. */
  get active(): StreamingQuery[] {
    return [...this.running.values()];
  }

  /** The running query with this id, or undefined. */
  get(id: string): StreamingQuery | undefined {
    return this.running.get(id);
  }

  /**
   * Waits until any query of the session terminates, or has terminated since the manager was made
   * or `resetTerminated` was called; rejects with its error when it failed. With `timeoutMs`,
   * resolves false when none terminated in time.
   */
  async awaitAnyTermination(timeoutMs?: number): Promise<boolean> {
    if (!this.firstTermination) {
      let timer: NodeJS.Timeout | undefined;
      const terminated = new Promise<boolean>((resolve) =>
        this.terminationWaiters.push(() => resolve(true)),
      );
      const timeout =
        timeoutMs === undefined
          ? terminated
          : new Promise<boolean>(
              (resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)),
            );
      const ended = await Promise.race([terminated, timeout]);
      clearTimeout(timer);
      if (!ended) return false;
    }
    if (this.firstTermination?.error !== undefined) throw this.firstTermination.error;
    return true;
  }

  /** Forgets past terminations, so that `awaitAnyTermination` waits for a new one. */
  resetTerminated(): void {
    this.firstTermination = undefined;
  }

  /**
   * The listener a query of the session reports to: it keeps the query among the active ones while
   * it runs and passes every event to the registered listeners, then to `own` (the writer's hook).
   */
  listenerFor(query: StreamingQuery, own: StreamingQueryListener = {}): StreamingQueryListener {
    const each = (call: (l: StreamingQueryListener) => void) => {
      for (const l of [...this.listeners, own]) callListener(query.id, () => call(l));
    };
    return {
      onQueryStarted: (e) => {
        this.running.set(e.id, query);
        each((l) => l.onQueryStarted?.(e));
      },
      onQueryProgress: (e) => each((l) => l.onQueryProgress?.(e)),
      onQueryIdle: (e) => each((l) => l.onQueryIdle?.(e)),
      onQueryTerminated: (e) => {
        this.running.delete(e.id);
        this.firstTermination ??= e;
        this.terminationWaiters.splice(0).forEach((w) => w());
        each((l) => l.onQueryTerminated?.(e));
      },
    };
  }
}
