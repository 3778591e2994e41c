/**
 * One invocation of a query (a Lambda run): micro-batches while the time budget allows, then the
 * lease, the sources and the sink's connections are released. Without a trigger interval
 * batches run back to back until there is no new data;
 * with one, a batch starts every interval until the invocation's period (`runForMs`, the schedule's
 * interval) is over, so a one-minute schedule can drive a ten-second trigger. The invocation starts no
 * batch it cannot expect to finish before its deadline (the longest batch so far, or a first-batch
 * estimate, plus a safety margin), and a batch that still overruns is abandoned before its commit.
 * When a batch it committed makes checkpoint maintenance due (every tenth batch) and the budget left
 * affords it, it maintains the checkpoint (state garbage collection and log pruning) until the
 * deadline; otherwise a later invocation does. Lease and commit outcomes end the invocation
 * quietly, with the reason in the result and the log: they are expected in a system where
 * invocations may be duplicated, retried or overlap.
 */
import { type CheckpointMaintenance, maintenanceDue } from './checkpoint-maintenance.js';
import type { BatchOutcome, MicroBatchExecution } from './micro-batch-execution.js';
import type { StreamingQueryProgress } from './progress.js';

/** The time kept free at the end of an invocation unless its budget says otherwise. */
const DEFAULT_SAFETY_MARGIN_MS = 2_000;

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
export type InvocationStop =
  'idle' | 'time-budget' | 'period-over' | Exclude<BatchOutcome['kind'], 'committed' | 'idle'>;

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
  try {
    const result = await runBatches(execution, budget);
    const maintenance = await maintainIfDue(execution, budget, result.batches);
    return maintenance ? { ...result, maintenance } : result;
  } finally {
    // The sink's connections are not left open while a container is frozen, when they may die
    // unnoticed; the execution stays usable, and a warm container's next invocation reconnects.
    await execution.stop();
  }
}

/** Maintains the checkpoint when a committed batch made it due and the budget affords it. */
async function maintainIfDue(
  execution: MicroBatchExecution,
  budget: InvocationBudget,
  batches: readonly StreamingQueryProgress[],
): Promise<CheckpointMaintenance | undefined> {
  if (!batches.some((b) => maintenanceDue(b.batchId))) return undefined;
  const log = budget.log ?? (() => {});
  const margin = budget.safetyMarginMs ?? DEFAULT_SAFETY_MARGIN_MS;
  const available = budget.remainingMs() - margin;
  if (available < (budget.maintenanceEstimateMs ?? 5_000)) {
    log({ message: 'not enough time left for checkpoint maintenance; a later invocation runs it' });
    return undefined;
  }
  const maintenance = await execution.maintain(Date.now() + available);
  log({ message: 'checkpoint maintained', ...maintenance });
  return maintenance;
}

/** Runs batches until there is nothing to do, the budget runs out, or another invocation owns the query. */
async function runBatches(
  execution: MicroBatchExecution,
  budget: InvocationBudget,
): Promise<InvocationResult> {
  const margin = budget.safetyMarginMs ?? DEFAULT_SAFETY_MARGIN_MS;
  const intervalMs = budget.triggerIntervalMs ?? 0;
  const log = budget.log ?? (() => {});
  const batches: StreamingQueryProgress[] = [];
  const periodEndsAt = Date.now() + (budget.runForMs ?? 0);
  let longestMs = budget.firstBatchEstimateMs ?? 1_000;
  let nextTriggerAt = Date.now();
  while (true) {
    const waitMs = Math.max(0, nextTriggerAt - Date.now());
    if (budget.remainingMs() - waitMs < longestMs + margin) return stop('time-budget');
    if (waitMs > 0) await sleep(waitMs);
    const triggeredAt = Date.now();
    const deadlineMs = triggeredAt + budget.remainingMs() - margin;
    const outcome = await execution.runNextBatch(deadlineMs);
    if (outcome.kind === 'committed') {
      batches.push(outcome.progress);
      longestMs = Math.max(longestMs, outcome.progress.durationMs.triggerExecution);
      log({
        message: 'batch committed',
        batchId: outcome.progress.batchId,
        progress: outcome.progress,
      });
      budget.onProgress?.(outcome.progress);
    } else if (outcome.kind !== 'idle') {
      return stop(outcome.kind, outcome);
    }
    nextTriggerAt = triggeredAt + intervalMs;
    const periodOver = nextTriggerAt >= periodEndsAt;
    if (outcome.kind === 'idle' && periodOver) return stop('idle');
    if (intervalMs > 0 && periodOver) return stop('period-over');
  }

  function stop(reason: InvocationStop, outcome?: BatchOutcome): InvocationResult {
    if (reason !== 'idle') log({ message: describe(reason), ...outcome });
    return { batches, stoppedBecause: reason };
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function describe(reason: InvocationStop): string {
  switch (reason) {
    case 'lease-held':
      return 'another invocation holds the lease; stopping';
    case 'lease-lost':
      return 'lost the lease to another invocation; stopped without committing';
    case 'conflict':
      return 'another attempt committed this batch first; stopped without committing';
    case 'abandoned':
      return 'time budget ran out before the commit; the batch is abandoned and re-runs from its intent';
    case 'time-budget':
      return 'not enough time left for another batch';
    case 'period-over':
      return "this invocation's trigger period is over; the next scheduled invocation continues";
    case 'idle':
      return 'no new data';
  }
}
