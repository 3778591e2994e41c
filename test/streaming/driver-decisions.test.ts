import { describe, expect, it } from 'vitest';
import { CheckpointError } from '../../core/errors.js';
import {
  afterAttempt,
  attemptVerdict,
  batchStart,
  type DrivePolicy,
  IDLE_POLL_MS,
  maintenanceDecision,
  unboundedPolicy,
} from '../../core/streaming/driver-decisions.js';
import type { BatchOutcome } from '../../core/streaming/micro-batch-execution.js';
import type { StreamingQueryProgress } from '../../core/streaming/progress.js';
import type { ResolvedTrigger } from '../../core/streaming/trigger.js';

const every = (intervalMs: number): ResolvedTrigger => ({ kind: 'processingTime', intervalMs });

/** An invocation's policy: a 200 ms margin, a period ending at clock time `periodEndsAtMs`. */
function invocation(trigger: ResolvedTrigger, periodEndsAtMs: number): DrivePolicy {
  return {
    trigger,
    safetyMarginMs: 200,
    firstBatchEstimateMs: 100,
    maintenanceEstimateMs: 1_000,
    periodEndsAtMs,
    contention: 'stop',
  };
}

describe('batchStart: whether the next batch starts, after how long, and its deadline', () => {
  it.each([
    {
      case: 'a trigger already due starts at once, to commit by the end of the budget less the margin',
      policy: invocation(every(0), 0),
      facts: { nowMs: 1_000, nextTriggerAtMs: 900, remainingMs: 5_000, longestBatchMs: 100 },
      expected: { kind: 'start', waitMs: 0, deadlineMs: 5_800 },
    },
    {
      case: 'a trigger due later waits for it; the deadline stays the end of the budget',
      policy: invocation(every(500), 10_000),
      facts: { nowMs: 1_000, nextTriggerAtMs: 1_300, remainingMs: 5_000, longestBatchMs: 100 },
      expected: { kind: 'start', waitMs: 300, deadlineMs: 5_800 },
    },
    {
      case: 'no batch starts when the longest batch and the margin would not fit in the time left',
      policy: invocation(every(0), 0),
      facts: { nowMs: 1_000, nextTriggerAtMs: 1_000, remainingMs: 500, longestBatchMs: 400 },
      expected: { kind: 'stop', reason: 'time-budget' },
    },
    {
      case: 'the time spent waiting for the trigger counts against the budget',
      policy: invocation(every(1_000), 10_000),
      facts: { nowMs: 1_000, nextTriggerAtMs: 2_000, remainingMs: 1_500, longestBatchMs: 400 },
      expected: { kind: 'stop', reason: 'time-budget' },
    },
    {
      case: 'a batch that exactly fits starts',
      policy: invocation(every(0), 0),
      facts: { nowMs: 0, nextTriggerAtMs: 0, remainingMs: 600, longestBatchMs: 400 },
      expected: { kind: 'start', waitMs: 0, deadlineMs: 400 },
    },
    {
      case: 'a query without a budget always starts and has no deadline',
      policy: unboundedPolicy(every(50)),
      facts: { nowMs: 1_000, nextTriggerAtMs: 1_050, remainingMs: Infinity, longestBatchMs: 1e9 },
      expected: { kind: 'start', waitMs: 50, deadlineMs: Infinity },
    },
  ])('$case', ({ policy, facts, expected }) => {
    expect(batchStart(policy, facts)).toEqual(expected);
  });
});

describe('afterAttempt: when the next trigger fires, or why the run stops', () => {
  it.each([
    {
      case: 'once stops after its batch',
      policy: unboundedPolicy({ kind: 'once' }),
      outcome: 'committed',
      expected: { kind: 'stop', reason: 'once' },
    },
    {
      case: 'once stops after an attempt that found nothing',
      policy: unboundedPolicy({ kind: 'once' }),
      outcome: 'idle',
      expected: { kind: 'stop', reason: 'once' },
    },
    {
      case: 'availableNow runs the next batch at once after a committed one',
      policy: unboundedPolicy({ kind: 'availableNow' }),
      outcome: 'committed',
      expected: { kind: 'next', atMs: 1_040 },
    },
    {
      case: 'availableNow stops at the first attempt with nothing to do',
      policy: unboundedPolicy({ kind: 'availableNow' }),
      outcome: 'idle',
      expected: { kind: 'stop', reason: 'idle' },
    },
    {
      case: 'processingTime fires an interval after the previous start',
      policy: unboundedPolicy(every(100)),
      outcome: 'committed',
      expected: { kind: 'next', atMs: 1_100 },
    },
    {
      case: 'processingTime 0 runs the next batch at once after a committed one',
      policy: unboundedPolicy(every(0)),
      outcome: 'committed',
      expected: { kind: 'next', atMs: 1_000 },
    },
    {
      case: 'processingTime 0 polls an idle source no more often than the idle poll',
      policy: unboundedPolicy(every(0)),
      outcome: 'idle',
      expected: { kind: 'next', atMs: 1_040 + IDLE_POLL_MS },
    },
    {
      case: 'an idle processingTime query keeps its interval when that is longer than the idle poll',
      policy: unboundedPolicy(every(100)),
      outcome: 'idle',
      expected: { kind: 'next', atMs: 1_100 },
    },
    {
      case: 'an invocation without a period stops at its first idle attempt',
      policy: invocation(every(0), 1_000),
      outcome: 'idle',
      expected: { kind: 'stop', reason: 'idle' },
    },
    {
      case: 'an invocation without an interval runs batches back to back whatever its period',
      policy: invocation(every(0), 1_000),
      outcome: 'committed',
      expected: { kind: 'next', atMs: 1_000 },
    },
    {
      case: 'an invocation within its period keeps polling while idle',
      policy: invocation(every(0), 5_000),
      outcome: 'idle',
      expected: { kind: 'next', atMs: 1_040 + IDLE_POLL_MS },
    },
    {
      case: 'an interval invocation fires the next batch while it falls within the period',
      policy: invocation(every(200), 1_300),
      outcome: 'committed',
      expected: { kind: 'next', atMs: 1_200 },
    },
    {
      case: 'an interval invocation stops when its next batch would fall after the period',
      policy: invocation(every(200), 1_200),
      outcome: 'committed',
      expected: { kind: 'stop', reason: 'period-over' },
    },
    {
      case: 'an idle interval invocation stops as idle when the period is over',
      policy: invocation(every(200), 1_200),
      outcome: 'idle',
      expected: { kind: 'stop', reason: 'idle' },
    },
  ] as const)('$case', ({ policy, outcome, expected }) => {
    expect(afterAttempt(policy, { outcome, triggeredAtMs: 1_000, nowMs: 1_040 })).toEqual(expected);
  });
});

describe('attemptVerdict: what an outcome means for the run', () => {
  const committed: BatchOutcome = {
    kind: 'committed',
    progress: { batchId: 0 } as StreamingQueryProgress,
  };
  const contended: { outcome: BatchOutcome; message: RegExp }[] = [
    { outcome: { kind: 'lease-held', owner: 'run-2' }, message: /Another run \(run-2\) holds/ },
    {
      outcome: { kind: 'lease-lost', batchId: 3 },
      message: /Batch 3 was not committed \(lease-lost\)/,
    },
    {
      outcome: { kind: 'conflict', batchId: 4 },
      message: /Batch 4 was not committed \(conflict\)/,
    },
    {
      outcome: { kind: 'abandoned', batchId: 5, reason: 'out of time' },
      message: /Batch 5 was not committed \(abandoned\)/,
    },
  ];

  it.each([{ outcome: committed }, { outcome: { kind: 'idle' } as BatchOutcome }])(
    'a $outcome.kind attempt lets the run go on, whoever owns the checkpoint',
    ({ outcome }) => {
      for (const policy of [invocation(every(0), 0), unboundedPolicy(every(0))]) {
        expect(attemptVerdict(policy, outcome)).toEqual({ kind: 'continue', outcome });
      }
    },
  );

  it.each(contended)('an invocation stops quietly on $outcome.kind', ({ outcome }) => {
    expect(attemptVerdict(invocation(every(0), 0), outcome)).toEqual({
      kind: 'stop',
      reason: outcome.kind,
    });
  });

  it.each(contended)(
    'a query that owns its checkpoint fails on $outcome.kind, saying two queries must not share it',
    ({ outcome, message }) => {
      const verdict = attemptVerdict(unboundedPolicy(every(0)), outcome);
      expect(verdict.kind).toBe('fail');
      const error = verdict.kind === 'fail' ? verdict.error : undefined;
      expect(error).toBeInstanceOf(CheckpointError);
      expect(error?.message).toMatch(message);
      expect(error?.message).toMatch(/two queries must not share a checkpoint/);
    },
  );
});

describe('maintenanceDecision: batches first, then maintenance while the budget affords it', () => {
  it.each([
    {
      case: 'nothing pending: nothing to do',
      policy: invocation(every(0), 0),
      facts: { pending: false, next: 'stop', nowMs: 0, remainingMs: 60_000 },
      expected: { kind: 'none' },
    },
    {
      case: 'pending while the next batch starts at once: it waits',
      policy: invocation(every(0), 0),
      facts: { pending: true, next: 'batch', nowMs: 0, remainingMs: 60_000 },
      expected: { kind: 'none' },
    },
    {
      case: 'pending at the stop: it runs until the end of the budget less the margin',
      policy: invocation(every(0), 0),
      facts: { pending: true, next: 'stop', nowMs: 1_000, remainingMs: 60_000 },
      expected: { kind: 'run', deadlineMs: 60_800 },
    },
    {
      case: 'pending while waiting for the trigger: it runs now',
      policy: invocation(every(10_000), 60_000),
      facts: { pending: true, next: 'wait', nowMs: 1_000, remainingMs: 60_000 },
      expected: { kind: 'run', deadlineMs: 60_800 },
    },
    {
      case: 'less left than its estimate: skipped, for a later run',
      policy: invocation(every(0), 0),
      facts: { pending: true, next: 'stop', nowMs: 1_000, remainingMs: 1_199 },
      expected: { kind: 'skip' },
    },
    {
      case: 'exactly its estimate left: it runs',
      policy: invocation(every(0), 0),
      facts: { pending: true, next: 'stop', nowMs: 1_000, remainingMs: 1_200 },
      expected: { kind: 'run', deadlineMs: 2_000 },
    },
    {
      case: 'a query without a budget maintains without a deadline',
      policy: unboundedPolicy(every(0)),
      facts: { pending: true, next: 'wait', nowMs: 1_000, remainingMs: Infinity },
      expected: { kind: 'run', deadlineMs: Infinity },
    },
  ] as const)('$case', ({ policy, facts, expected }) => {
    expect(maintenanceDecision(policy, facts)).toEqual(expected);
  });
});
