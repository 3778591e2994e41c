/**
 * Two changes to kafkajs 2.2.4's per-connection request queue, so that an open connection with no
 * request in flight neither burns CPU nor keeps Node alive; without them, a connection kept for the
 * next query or invocation would do both (kafkajs-connection.ts).
 *
 * 1. The idle loop (kafkajs issues #1556 and #1704, unfixed upstream): after its first response, a
 *    queue re-arms a timer that fires every millisecond, whether or not a request waits, for as long
 *    as the connection is open. Fixed as proposed upstream: the queue schedules a check only when a
 *    request waits or the broker throttles the client. A request that arrives later is sent at once,
 *    or scheduled by the queue itself when it must wait; a response that frees a slot checks the
 *    queue as before.
 * 2. The request-timeout check, an interval per connection, is unref'd: it still times out requests,
 *    but does not keep the process alive on its own. While a request is in flight, the connection's
 *    socket does (kafkajs-connection.ts refs it for the duration of each call).
 *
 * Applied once, to the exact kafkajs version package.json pins, for every kafkajs client of the
 * process.
 */
import type RequestQueue from 'kafkajs/src/network/requestQueue/index.js';

let applying: Promise<void> | undefined;

/**
 * Applies both changes, once: every caller waits for the same application. It loads kafkajs, so it
 * runs when the first connection opens rather than when the module is imported.
 */
export function quietIdleRequestQueues(): Promise<void> {
  applying ??= apply();
  return applying;
}

async function apply(): Promise<void> {
  const { default: queue } = await import('kafkajs/src/network/requestQueue/index.js');
  const { scheduleCheckPendingRequests, scheduleRequestTimeoutCheck } = queue.prototype;
  queue.prototype.scheduleCheckPendingRequests = function (this: RequestQueue) {
    if (this.pending.length === 0 && this.throttledUntil <= Date.now()) return;
    scheduleCheckPendingRequests.call(this);
  };
  queue.prototype.scheduleRequestTimeoutCheck = function (this: RequestQueue) {
    scheduleRequestTimeoutCheck.call(this);
    this.requestTimeoutIntervalId?.unref();
  };
}
