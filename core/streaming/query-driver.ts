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

/** Why a turn of the loop ends the run, with what the log should say about it. */
interface Stop {
  readonly reason: DriverStop;
  readonly details?: object;
}

/** Runs batches of `execution` as `policy` says until it says stop, or throws what failed the run. */
export function driveQuery(
  execution: MicroBatchExecution,
  policy: DrivePolicy,
  hooks: DriverHooks,
): Promise<DriverResult> {
  return new QueryDriver(execution, policy, hooks).run();
}

/** One run of the loop, and what it carries from one turn to the next. */
class QueryDriver {
  private nextTriggerAtMs = Date.now();
  private longestBatchMs: number;
  private maintenancePending = false;
  private maintenance?: CheckpointMaintenance;
  private backfillTotal?: number;
  private readonly log: (entry: Record<string, unknown>) => void;

  constructor(
    private readonly execution: MicroBatchExecution,
    private readonly policy: DrivePolicy,
    private readonly hooks: DriverHooks,
  ) {
    this.longestBatchMs = policy.firstBatchEstimateMs;
    this.log = hooks.log ?? (() => {});
  }

  async run(): Promise<DriverResult> {
    this.backfillTotal = await prepareTrigger(this.execution, this.policy);
    while (true) {
      const stop = await this.turn();
      if (stop) return this.finish(stop);
    }
  }

  /** Steps 1 to 5 once; the reason to stop, when there is one. */
  private async turn(): Promise<Stop | undefined> {
    const start = await this.awaitTrigger();
    if (start.kind === 'stop') return start;
    const triggeredAtMs = Date.now();
    this.hooks.beforeAttempt?.();
    const attempted = await this.execution.runNextBatch(
      start.deadlineMs,
      this.policy.trigger.kind === 'once',
    );
    const verdict = attemptVerdict(this.policy, attempted);
    if (verdict.kind === 'fail') throw verdict.error;
    if (verdict.kind === 'stop') return { reason: verdict.reason, details: attempted };
    const progress =
      verdict.outcome.kind === 'committed'
        ? await this.committed(verdict.outcome.progress)
        : undefined;
    this.hooks.afterAttempt?.(progress);
    const next = afterAttempt(this.policy, {
      outcome: verdict.outcome.kind,
      triggeredAtMs,
      nowMs: Date.now(),
    });
    if (next.kind === 'stop') return next;
    if (this.stopRequested()) return { reason: 'stopped' };
    this.nextTriggerAtMs = next.atMs;
    await this.maintainIfDecided(next.atMs <= Date.now() ? 'batch' : 'wait');
    return undefined;
  }

  /** Step 1: waits for the trigger, unless the budget cannot hold another batch or stop() came. */
  private async awaitTrigger(): Promise<
    { kind: 'start'; deadlineMs: number } | { kind: 'stop'; reason: DriverStop }
  > {
    if (this.stopRequested()) return { kind: 'stop', reason: 'stopped' };
    const start = batchStart(this.policy, {
      nowMs: Date.now(),
      nextTriggerAtMs: this.nextTriggerAtMs,
      remainingMs: this.hooks.remainingMs(),
      longestBatchMs: this.longestBatchMs,
    });
    if (start.kind === 'stop' || start.waitMs === 0) return start;
    await (this.hooks.sleep ?? sleep)(start.waitMs);
    return this.stopRequested() ? { kind: 'stop', reason: 'stopped' } : start;
  }

  /** Step 3 for a committed batch: its progress, logged, and what it teaches the budget and maintenance. */
  private async committed(batch: StreamingQueryProgress): Promise<StreamingQueryProgress> {
    const progress = await withBackfill(this.execution, batch, this.backfillTotal);
    this.longestBatchMs = Math.max(this.longestBatchMs, progress.durationMs.triggerExecution);
    this.maintenancePending ||= maintenanceDue(progress.batchId);
    this.log({ message: 'batch committed', batchId: progress.batchId, progress });
    return progress;
  }

  /**
   * Ends the run: logs why, unless it is the routine end of a run (nothing new, asked to stop, its
   * period over), which the result says; a routine line per invocation would be billed as log
   * ingestion every minute. Runs maintenance if it is due.
   */
  private async finish(stop: Stop): Promise<DriverResult> {
    if (!isRoutineStop(stop.reason)) {
      this.log({ message: describeStop(stop.reason), ...stop.details });
    }
    await this.maintainIfDecided('stop');
    return { stoppedBecause: stop.reason, maintenance: this.maintenance };
  }

  /** Step 5: runs or skips pending checkpoint maintenance as maintenanceDecision says. */
  private async maintainIfDecided(next: 'batch' | 'wait' | 'stop'): Promise<void> {
    const decision = maintenanceDecision(this.policy, {
      pending: this.maintenancePending,
      next,
      nowMs: Date.now(),
      remainingMs: this.hooks.remainingMs(),
    });
    if (decision.kind === 'none') return;
    this.maintenancePending = false;
    if (decision.kind === 'skip') {
      this.log({
        message: 'not enough time left for checkpoint maintenance; a later invocation runs it',
      });
      return;
    }
    this.maintenance = await this.execution.maintain(decision.deadlineMs);
    this.log({ message: 'checkpoint maintained', ...this.maintenance });
  }

  private stopRequested(): boolean {
    return this.hooks.stopRequested?.() ?? false;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
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

type RoutineStop = 'idle' | 'stopped' | 'period-over';

/** Whether a stop ends the run as planned, so the log has nothing to say about it. */
function isRoutineStop(reason: DriverStop): reason is RoutineStop {
  return reason === 'idle' || reason === 'stopped' || reason === 'period-over';
}

/** The log message for a stop. */
function describeStop(reason: Exclude<DriverStop, RoutineStop>): string {
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
    case 'once':
      return 'the once trigger ran its batch';
  }
}
