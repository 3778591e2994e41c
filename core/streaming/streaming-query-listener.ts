/**
 * StreamingQueryListener, as Spark's: the events of a query's life — started, a batch's progress,
 * idle (a trigger found nothing to do), terminated — with Spark's event fields. Listeners are
 * called in order, synchronously, on the query's own loop: a slow listener slows the query.
 */
import type { StreamingQueryProgress } from './progress.js';

/** A query started (or restarted on its checkpoint): `id` is stable, `runId` is this run's. */
export interface QueryStartedEvent {
  readonly id: string;
  readonly runId: string;
  readonly name: string | null;
  /** When it started (ISO 8601). */
  readonly timestamp: string;
}

/** A batch committed. */
export interface QueryProgressEvent {
  readonly progress: StreamingQueryProgress;
}

/**
 * A trigger found no new data and nothing for the state to do. Posted for the first idle trigger
 * after a batch, then at most once per IDLE_EVENT_INTERVAL_MS, as Spark's noDataProgressEventInterval.
 */
export interface QueryIdleEvent {
  readonly id: string;
  readonly runId: string;
  readonly timestamp: string;
}

/** A query stopped; `exception` is the message of the error that stopped it, or null. */
export interface QueryTerminatedEvent {
  readonly id: string;
  readonly runId: string;
  readonly exception: string | null;
  /** The error itself, for code that wants its class and cause (Spark has only the text). */
  readonly error?: unknown;
}

/** Receives the events of queries; every method is optional. */
export interface StreamingQueryListener {
  onQueryStarted?(event: QueryStartedEvent): void;
  onQueryProgress?(event: QueryProgressEvent): void;
  onQueryIdle?(event: QueryIdleEvent): void;
  onQueryTerminated?(event: QueryTerminatedEvent): void;
}

/** How often an idle query posts QueryIdleEvent at most (Spark's default of 10 seconds). */
export const IDLE_EVENT_INTERVAL_MS = 10_000;

/**
 * Calls one listener. As in Spark, a listener that throws does not stop the query nor the other
 * listeners; its error is reported as a process warning (with the error as its cause), never dropped.
 */
export function callListener(queryId: string, call: () => void): void {
  try {
    call();
  } catch (e) {
    process.emitWarning(
      new Error(`A StreamingQueryListener of query ${queryId} threw; the query goes on.`, {
        cause: e,
      }),
    );
  }
}
