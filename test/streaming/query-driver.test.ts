import { describe, expect, it } from 'vitest';
import { unboundedPolicy, type DrivePolicy } from '../../core/streaming/driver-decisions.js';
import type {
  BatchOutcome,
  MicroBatchExecution,
} from '../../core/streaming/micro-batch-execution.js';
import type { StreamingQueryProgress } from '../../core/streaming/progress.js';
import { driveQuery } from '../../core/streaming/query-driver.js';

/**
 * An execution that plays the outcomes it is given, one per attempt (then idles), and writes what
 * the driver asked of it into `calls`.
 */
function scripted(outcomes: BatchOutcome[]) {
  const calls: string[] = [];
  const execution = {
    runNextBatch: async (deadlineMs: number, readAllAvailable: boolean) => {
      const outcome = outcomes.shift() ?? { kind: 'idle' };
      const id = outcome.kind === 'committed' ? ` ${outcome.progress.batchId}` : '';
      calls.push(
        `${outcome.kind}${id}${readAllAvailable ? ' all' : ''}${deadlineMs === Infinity ? '' : ' by deadline'}`,
      );
      return outcome;
    },
    maintain: async () => {
      calls.push('maintain');
      return {
        stateFiles: { deleted: 0, finished: true },
        logEntriesDeleted: 0,
        abandonedWritesDeleted: 0,
        finished: true,
      };
    },
    prepareForAvailableNow: async () => void calls.push('prepare'),
    backlog: async () => undefined,
  };
  return { execution: execution as unknown as MicroBatchExecution, calls };
}

const committed = (batchId: number): BatchOutcome => ({
  kind: 'committed',
  progress: { batchId, durationMs: { triggerExecution: 1 } } as StreamingQueryProgress,
});

function invocationPolicy(): DrivePolicy {
  return {
    trigger: { kind: 'processingTime', intervalMs: 0 },
    safetyMarginMs: 100,
    firstBatchEstimateMs: 10,
    maintenanceEstimateMs: 10,
    periodEndsAtMs: 0,
    contention: 'stop',
  };
}

describe('the query driver', () => {
  it('runs maintenance a batch made due after the batches that follow back to back, once, before it stops', async () => {
    const { execution, calls } = scripted([
      committed(8),
      committed(9),
      committed(10),
      committed(11),
    ]);
    const result = await driveQuery(execution, invocationPolicy(), { remainingMs: () => 60_000 });
    expect(calls).toEqual([
      'committed 8 by deadline',
      'committed 9 by deadline',
      'committed 10 by deadline',
      'committed 11 by deadline',
      'idle by deadline',
      'maintain',
    ]);
    expect(result).toMatchObject({ stoppedBecause: 'idle', maintenance: { finished: true } });
  });

  it('leaves due maintenance to a later run when the budget left cannot afford it', async () => {
    const { execution, calls } = scripted([committed(9)]);
    const logged: Record<string, unknown>[] = [];
    let remainingMs = 60_000;
    const result = await driveQuery(execution, invocationPolicy(), {
      remainingMs: () => remainingMs,
      afterAttempt: () => (remainingMs = 105),
      log: (entry) => logged.push(entry),
    });
    expect(calls).toEqual(['committed 9 by deadline']);
    expect(result).toEqual({ stoppedBecause: 'time-budget', maintenance: undefined });
    expect(logged.map((e) => e.message)).toEqual([
      'batch committed',
      'not enough time left for another batch',
      'not enough time left for checkpoint maintenance; a later invocation runs it',
    ]);
  });

  it('runs one batch of a once trigger reading everything available, without a deadline, and stops', async () => {
    const { execution, calls } = scripted([committed(0), committed(1)]);
    const result = await driveQuery(execution, unboundedPolicy({ kind: 'once' }), {
      remainingMs: () => Infinity,
    });
    expect(calls).toEqual(['committed 0 all']);
    expect(result.stoppedBecause).toBe('once');
  });

  it('prepares an availableNow trigger before its first batch and stops at the first idle attempt', async () => {
    const { execution, calls } = scripted([committed(0), committed(1)]);
    const result = await driveQuery(execution, unboundedPolicy({ kind: 'availableNow' }), {
      remainingMs: () => Infinity,
    });
    expect(calls).toEqual(['prepare', 'committed 0', 'committed 1', 'idle']);
    expect(result.stoppedBecause).toBe('idle');
  });

  it('stops without another batch when stop is asked for while it waits for the trigger', async () => {
    const { execution, calls } = scripted([committed(0), committed(1)]);
    let stopped = false;
    const result = await driveQuery(
      execution,
      unboundedPolicy({ kind: 'processingTime', intervalMs: 60_000 }),
      {
        remainingMs: () => Infinity,
        sleep: async () => {
          calls.push('sleep');
          stopped = true;
        },
        stopRequested: () => stopped,
      },
    );
    expect(calls).toEqual(['committed 0', 'sleep']);
    expect(result.stoppedBecause).toBe('stopped');
  });

  it('fails a query that owns its checkpoint when another run holds the lease, and stops an invocation quietly', async () => {
    const held: BatchOutcome = { kind: 'lease-held', owner: 'run-2' };
    const owner = scripted([held]);
    await expect(
      driveQuery(owner.execution, unboundedPolicy({ kind: 'processingTime', intervalMs: 0 }), {
        remainingMs: () => Infinity,
      }),
    ).rejects.toThrow(/Another run \(run-2\) holds the lease/);
    const invocation = scripted([held]);
    const logged: Record<string, unknown>[] = [];
    const result = await driveQuery(invocation.execution, invocationPolicy(), {
      remainingMs: () => 60_000,
      log: (entry) => logged.push(entry),
    });
    expect(result.stoppedBecause).toBe('lease-held');
    expect(logged).toEqual([
      {
        message: 'another invocation holds the lease; stopping',
        kind: 'lease-held',
        owner: 'run-2',
      },
    ]);
  });
});
