/**
 * The query driver: the one loop that runs a streaming query's micro-batches, behind
 * `writeStream.start()` (a StreamingQuery, until stopped) and behind `runInvocation` (one serverless
 * invocation, within its time budget and period). Each turn of the loop:
 *
 *   1. start     wait until the trigger fires, unless the budget left cannot hold another batch;
 *   2. attempt   one attempt at the next batch (MicroBatchExecution.runNextBatch), to commit by the
 *                end of the budget less the safety margin;
 *   3. judge     a committed batch is reported; another writer on the checkpoint stops the run (an
 *                invocation) or fails it (a query that owns its checkpoint);
 *   4. trigger   when the next batch starts, or why the run stops;
 *   5. maintain  checkpoint maintenance, once a committed batch made it due and no batch starts at
 *                once: before waiting for the trigger, or before stopping.
 *
 * Every decision is a pure function in driver-decisions.ts; this file does the waiting and the I/O.
 * The driver does not stop the execution: whoever started it releases it.
 */
import { type CheckpointMaintenance, maintenanceDue } from './checkpoint-maintenance.js';
import {
  afterAttempt,
  attemptVerdict,
  batchStart,
  type DrivePolicy,
  type DriverStop,
  maintenanceDecision,
} from './driver-decisions.js';
import type { MicroBatchExecution } from './micro-batch-execution.js';
import type { StreamingQueryProgress } from './progress.js';

/** How the driver observes its budget and reports what it does. */
export interface DriverHooks {
  /** Milliseconds left in the budget (Lambda's `getRemainingTimeInMillis`); Infinity without one. */
  readonly remainingMs: () => number;
  /** True once the run should stop after the batch in flight. */
  readonly stopRequested?: () => boolean;
  /** Waits for the trigger; it may return early (`processAllAvailable` and `stop` wake a query). */
  readonly sleep?: (ms: number) => Promise<void>;
  /** Called as each attempt starts. */
  readonly beforeAttempt?: () => void;
  /** Called after each attempt that committed a batch (with its progress) or found nothing to do. */
  readonly afterAttempt?: (progress: StreamingQueryProgress | undefined) => void;
  /** Receives one structured entry per committed batch, stop and maintenance. */
  readonly log?: (entry: Record<string, unknown>) => void;
}

/** How a driven run ended. */
export interface DriverResult {
  readonly stoppedBecause: DriverStop;
  /** What the last checkpoint maintenance of the run did, when one ran. */
  readonly maintenance?: CheckpointMaintenance;
}

/** What the loop carries from one turn to the next. */
interface DriverState {
  nextTriggerAtMs: number;
  longestBatchMs: number;
  maintenancePending: boolean;
  maintenance?: CheckpointMaintenance;
}

/** Runs batches of `execution` as `policy` says until it says stop, or throws what failed the run. */
export async function driveQuery(
  execution: MicroBatchExecution,
  policy: DrivePolicy,
  hooks: DriverHooks,
): Promise<DriverResult> {
  const log = hooks.log ?? (() => {});
  const sleep = hooks.sleep ?? ((ms) => new Promise<void>((r) => setTimeout(r, ms)));
  const stopRequested = hooks.stopRequested ?? (() => false);
  const backfillTotal = await prepareTrigger(execution, policy);
  const state: DriverState = {
    nextTriggerAtMs: Date.now(),
    longestBatchMs: policy.firstBatchEstimateMs,
    maintenancePending: false,
  };
  const finish = async (reason: DriverStop, details = {}): Promise<DriverResult> => {
    if (reason !== 'idle' && reason !== 'stopped')
      log({ message: describeStop(reason), ...details });
    await maintainIfDecided(execution, policy, hooks, state, 'stop');
    return { stoppedBecause: reason, maintenance: state.maintenance };
  };
  while (true) {
    if (stopRequested()) return finish('stopped');
    const start = batchStart(policy, {
      nowMs: Date.now(),
      nextTriggerAtMs: state.nextTriggerAtMs,
      remainingMs: hooks.remainingMs(),
      longestBatchMs: state.longestBatchMs,
    });
    if (start.kind === 'stop') return finish(start.reason);
    if (start.waitMs > 0) {
      await sleep(start.waitMs);
      if (stopRequested()) return finish('stopped');
    }
    const triggeredAtMs = Date.now();
    hooks.beforeAttempt?.();
    const attempted = await execution.runNextBatch(
      start.deadlineMs,
      policy.trigger.kind === 'once',
    );
    const verdict = attemptVerdict(policy, attempted);
    if (verdict.kind === 'fail') throw verdict.error;
    if (verdict.kind === 'stop') return finish(verdict.reason, attempted);
    const { outcome } = verdict;
    let progress: StreamingQueryProgress | undefined;
    if (outcome.kind === 'committed') {
      progress = await withBackfill(execution, outcome.progress, backfillTotal);
      state.longestBatchMs = Math.max(state.longestBatchMs, progress.durationMs.triggerExecution);
      state.maintenancePending ||= maintenanceDue(progress.batchId);
      log({ message: 'batch committed', batchId: progress.batchId, progress });
    }
    hooks.afterAttempt?.(progress);
    const next = afterAttempt(policy, {
      outcome: outcome.kind,
      triggeredAtMs,
      nowMs: Date.now(),
    });
    if (next.kind === 'stop') return finish(next.reason);
    if (stopRequested()) return finish('stopped');
    state.nextTriggerAtMs = next.atMs;
    await maintainIfDecided(
      execution,
      policy,
      hooks,
      state,
      next.atMs <= Date.now() ? 'batch' : 'wait',
    );
  }
}

/**
 * An availableNow trigger fixes what "available now" is before its first batch, and returns the
 * backlog then (the total of its backfill progress), when the sources can tell.
 */
async function prepareTrigger(
  execution: MicroBatchExecution,
  policy: DrivePolicy,
): Promise<number | undefined> {
  if (policy.trigger.kind !== 'availableNow') return undefined;
  await execution.prepareForAvailableNow();
  return execution.backlog();
}

/** The progress with how much of the input available at the start of an availableNow run is done. */
async function withBackfill(
  execution: MicroBatchExecution,
  progress: StreamingQueryProgress,
  total: number | undefined,
): Promise<StreamingQueryProgress> {
  if (total === undefined) return progress;
  const remaining = (await execution.backlog()) ?? 0;
  return { ...progress, backfill: { done: Math.max(0, total - remaining), total } };
}

/** Runs or skips pending checkpoint maintenance as maintenanceDecision says. */
async function maintainIfDecided(
  execution: MicroBatchExecution,
  policy: DrivePolicy,
  hooks: DriverHooks,
  state: DriverState,
  next: 'batch' | 'wait' | 'stop',
): Promise<void> {
  const decision = maintenanceDecision(policy, {
    pending: state.maintenancePending,
    next,
    nowMs: Date.now(),
    remainingMs: hooks.remainingMs(),
  });
  const log = hooks.log ?? (() => {});
  if (decision.kind === 'none') return;
  state.maintenancePending = false;
  if (decision.kind === 'skip') {
    log({ message: 'not enough time left for checkpoint maintenance; a later invocation runs it' });
    return;
  }
  state.maintenance = await execution.maintain(decision.deadlineMs);
  log({ message: 'checkpoint maintained', ...state.maintenance });
}

/** The log message for a stop. */
function describeStop(reason: Exclude<DriverStop, 'idle' | 'stopped'>): string {
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
    case 'once':
      return 'the once trigger ran its batch';
  }
}
