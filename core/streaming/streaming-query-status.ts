/**
 * What a query is doing now (`query.status`), as Spark's StreamingQueryStatus: a message for people,
 * whether the last trigger found data, and whether a trigger is running.
 */

/** A query's current status. */
export interface StreamingQueryStatus {
  /** e.g. `Initializing sources`, `Processing new data`, `Waiting for data to arrive`, `Stopped`. */
  readonly message: string;
  /** Whether the last trigger found new data (or state work) to run a batch for. */
  readonly isDataAvailable: boolean;
  /** Whether a trigger is running now. */
  readonly isTriggerActive: boolean;
}

/** The status of a query that has not run a trigger yet. */
export const INITIAL_STATUS: StreamingQueryStatus = {
  message: 'Initializing sources',
  isDataAvailable: false,
  isTriggerActive: false,
};
