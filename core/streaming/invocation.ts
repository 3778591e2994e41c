/**
 * One invocation of a query (a Lambda run): micro-batches while the time budget allows, then the
 * lease, the sources and the sink's connections are released. The batches run on the query driver
 * (query-driver.ts) with a processingTime trigger bounded by the budget and a period. Without a
 * trigger interval batches run back to back until there is no new data; with one, a batch starts
 * every interval until the invocation's period (`runForMs`, the schedule's interval) is over, so a
 * one-minute schedule can drive a ten-second trigger. The invocation starts no batch it cannot expect
 * to finish before its deadline (the longest batch so far, or a first-batch estimate, plus a safety
 * margin), and a batch that still overruns is abandoned before its commit. When a batch it committed
 * makes checkpoint maintenance due (every tenth batch), the invocation maintains the checkpoint (state
 * garbage collection and log pruning) once no batch starts at once, until the deadline, if the budget
 * left affords it; otherwise a later invocation does. Lease and commit outcomes end the invocation
 * quietly, with the reason in the result and the log: they are expected in a system where
 * invocations may be duplicated, retried or overlap.
 */
import { ExecutionError } from '../errors.js';
import type { CheckpointMaintenance } from './checkpoint-maintenance.js';
import type { DrivePolicy, DriverStop } from './driver-decisions.js';
import type { MicroBatchExecution } from './micro-batch-execution.js';
import type { StreamingQueryProgress } from './progress.js';
import { driveQuery } from './query-driver.js';

/** The time kept free at the end of an invocation unless its budget says otherwise. */
const DEFAULT_SAFETY_MARGIN_MS = 2_000;
/** The expected duration of a batch before one has run, unless the budget says otherwise. */
const DEFAULT_FIRST_BATCH_ESTIMATE_MS = 1_000;
/** The time checkpoint maintenance needs, unless the budget says otherwise. */
const DEFAULT_MAINTENANCE_ESTIMATE_MS = 5_000;

/** How an invocation budgets its time. */
export interface InvocationBudget {
  /** Milliseconds left before the invocation is killed (Lambda's `getRemainingTimeInMillis`). */
  readonly remainingMs: () => number;
  /** Time kept free at the end for the commit and the lease release. @default 2000 */
  readonly safetyMarginMs?: number;
  /** The expected duration of a batch before one has run. @default 1000 */
  readonly firstBatchEstimateMs?: number;
  /** Milliseconds between batch starts (a processingTime trigger). @default 0: back to back */
  readonly triggerIntervalMs?: number;
  /**
   * How long the invocation keeps triggering batches, idle or not, before it leaves the rest to the
   * next scheduled invocation. @default 0: stop at the first batch with no new data
   */
  readonly runForMs?: number;
  /** The time checkpoint maintenance needs; it does not start with less left. @default 5000 */
  readonly maintenanceEstimateMs?: number;
  /** Receives one structured entry per batch outcome. */
  readonly log?: (entry: Record<string, unknown>) => void;
  /** Receives the progress of every committed batch. */
  readonly onProgress?: (progress: StreamingQueryProgress) => void;
}

/** Why an invocation stopped. */
export type InvocationStop = Exclude<DriverStop, 'once' | 'stopped'>;

/** What an invocation did. */
export interface InvocationResult {
  readonly batches: readonly StreamingQueryProgress[];
  readonly stoppedBecause: InvocationStop;
  /** What checkpoint maintenance did, when the invocation ran it. */
  readonly maintenance?: CheckpointMaintenance;
}

/** Runs batches until there is nothing to do, the budget runs out, or another invocation owns the query. */
export async function runInvocation(
  execution: MicroBatchExecution,
  budget: InvocationBudget,
): Promise<InvocationResult> {
  const batches: StreamingQueryProgress[] = [];
  try {
    const { stoppedBecause, maintenance } = await driveQuery(execution, invocationPolicy(budget), {
      remainingMs: budget.remainingMs,
      log: budget.log,
      afterAttempt: (progress) => {
        if (!progress) return;
        batches.push(progress);
        budget.onProgress?.(progress);
      },
    });
    if (stoppedBecause === 'once' || stoppedBecause === 'stopped') {
      throw new ExecutionError(
        `Internal error: an invocation's driver stopped because of '${stoppedBecause}', which only a once trigger or stop() can cause.`,
      );
    }
    return maintenance ? { batches, stoppedBecause, maintenance } : { batches, stoppedBecause };
  } finally {
    // The sink's connections are not left open while a container is frozen, when they may die
    // unnoticed; the execution stays usable, and a warm container's next invocation reconnects.
    await execution.stop();
  }
}

/** An invocation is a processingTime trigger bounded by its budget and its period. */
function invocationPolicy(budget: InvocationBudget): DrivePolicy {
  return {
    trigger: { kind: 'processingTime', intervalMs: budget.triggerIntervalMs ?? 0 },
    safetyMarginMs: budget.safetyMarginMs ?? DEFAULT_SAFETY_MARGIN_MS,
    firstBatchEstimateMs: budget.firstBatchEstimateMs ?? DEFAULT_FIRST_BATCH_ESTIMATE_MS,
    maintenanceEstimateMs: budget.maintenanceEstimateMs ?? DEFAULT_MAINTENANCE_ESTIMATE_MS,
    periodEndsAtMs: Date.now() + (budget.runForMs ?? 0),
    contention: 'stop',
  };
}
