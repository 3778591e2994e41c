/**
 * A local service started for the test run.
 */

/** A started service: where it answers, and how to stop it. */
export interface RunningService {
  /** Base URL on the loopback interface, e.g. `http://127.0.0.1:41234`. */
  readonly endpoint: string;
  /** Stops the service; safe to call once. */
  stop(): Promise<void>;
}
