/**
 * The internal kafkajs 2.2.4 modules Sluice imports directly: the per-connection request queue,
 * which kafkajs-request-queue.ts changes.
 */
declare module 'kafkajs/src/network/requestQueue/index.js' {
  class RequestQueue {
    pending: unknown[];
    throttledUntil: number;
    requestTimeoutIntervalId?: NodeJS.Timeout;
    scheduleCheckPendingRequests(): void;
    scheduleRequestTimeoutCheck(): void;
  }
  export = RequestQueue;
}
