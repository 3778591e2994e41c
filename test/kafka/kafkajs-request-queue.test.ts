/**
 * The changes to kafkajs's request queue that let an idle connection stay open without burning CPU
 * or keeping the process alive (the whole effect is tested in kafka-connections.test.ts, with a
 * process that must exit by itself).
 */
import { createRequire } from 'node:module';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { quietIdleRequestQueues } from '../../core/kafka/kafkajs-request-queue.js';

interface Queue {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  requestTimeoutIntervalId?: NodeJS.Timeout;
  scheduleCheckPendingRequests(): void;
  scheduleRequestTimeoutCheck(): void;
  destroy(): void;
}

const RequestQueue = createRequire(import.meta.url)(
  'kafkajs/src/network/requestQueue/index.js',
) as new (options: Record<string, unknown>) => Queue;

const silent = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
const queues: Queue[] = [];

beforeAll(() => quietIdleRequestQueues());

/** A request queue as kafkajs makes one per broker connection. */
function queue(): Queue {
  const q = new RequestQueue({
    maxInFlightRequests: null,
    requestTimeout: 10_000,
    enforceRequestTimeout: true,
    clientId: 'test',
    broker: 'b:1',
    logger: silent,
  });
  queues.push(q);
  return q;
}

afterEach(() => queues.splice(0).forEach((q) => q.destroy()));

describe("kafkajs's request queue, quieted", () => {
  it('schedules no check when no request waits and the broker does not throttle', () => {
    const q = queue();
    q.scheduleCheckPendingRequests();
    expect(q.throttleCheckTimeoutId).toBeNull();
  });

  it('still schedules a check for a waiting request, and for the end of a throttle', () => {
    const waiting = queue();
    waiting.pending.push({});
    waiting.scheduleCheckPendingRequests();
    expect(waiting.throttleCheckTimeoutId).not.toBeNull();

    const throttled = queue();
    throttled.throttledUntil = Date.now() + 60_000;
    throttled.scheduleCheckPendingRequests();
    expect(throttled.throttleCheckTimeoutId).not.toBeNull();
  });

  it('checks request timeouts on an interval that does not keep the process alive', () => {
    const q = queue();
    q.scheduleRequestTimeoutCheck();
    expect(q.requestTimeoutIntervalId).toBeDefined();
    expect(q.requestTimeoutIntervalId!.hasRef()).toBe(false);
  });
});
