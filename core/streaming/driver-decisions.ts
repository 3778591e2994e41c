/**
 * The query driver's decisions, as pure functions of what it has observed (the trigger, the clock,
 * the time left, the outcome of the last attempt). The driver (query-driver.ts) does the I/O and asks
 * these when to start the next batch, when to stop, what another writer on the checkpoint means, and
 * when checkpoint maintenance runs. One set of rules serves a query started with
 * `writeStream.start()`, which runs until stopped with no time budget, and one serverless invocation,
 * which has a budget and a period.
 */
import { CheckpointError } from '../errors.js';
import type { BatchOutcome } from './micro-batch-execution.js';
import type { ResolvedTrigger } from './trigger.js';

/** How long an idle query waits before polling its sources again when its trigger says "at once". */
export const IDLE_POLL_MS = 10;

/** How a driver paces batches and when it stops. */
export interface DrivePolicy {
  readonly trigger: ResolvedTrigger;
  /** Time kept free before the end of the budget for the commit and the lease release. */
  readonly safetyMarginMs: number;
  /** The expected duration of a batch before one has run. */
  readonly firstBatchEstimateMs: number;
  /** The time checkpoint maintenance needs; it does not start with less left. */
  readonly maintenanceEstimateMs: number;
  /**
   * The clock time after which a processingTime trigger fires no more batches (an invocation's
   * period); Infinity for a query that runs until stopped.
   */
  readonly periodEndsAtMs: number;
  /**
   * What finding another writer on the checkpoint means: `fail` for a query that owns its checkpoint
   * (`start()`), `stop` for invocations, which may be duplicated or overlap by design.
   */
  readonly contention: 'fail' | 'stop';
}

/** The policy of a query that runs until stopped: no budget, no period, one owner per checkpoint. */
export function unboundedPolicy(trigger: ResolvedTrigger): DrivePolicy {
  return {
    trigger,
    safetyMarginMs: 0,
    firstBatchEstimateMs: 0,
    maintenanceEstimateMs: 0,
    periodEndsAtMs: Infinity,
    contention: 'fail',
  };
}

/** An outcome that means another writer on the checkpoint, or a batch abandoned at its deadline. */
export type ContendedOutcome = Exclude<BatchOutcome['kind'], 'committed' | 'idle'>;

/**
 * Why a driver stopped: nothing to do (`idle`), no time for another batch (`time-budget`), the
 * invocation's period is over (`period-over`), a contended outcome, the single batch of a once
 * trigger (`once`), or `stop()` (`stopped`).
 */
export type DriverStop =
  'idle' | 'time-budget' | 'period-over' | ContendedOutcome | 'once' | 'stopped';

/** What the driver observes before it starts a batch. */
export interface StartFacts {
  readonly nowMs: number;
  /** When the trigger fires the next batch (a clock time; in the past means now). */
  readonly nextTriggerAtMs: number;
  /** Time left in the budget; Infinity without one. */
  readonly remainingMs: number;
  /** The longest batch so far, or the first-batch estimate before one ran. */
  readonly longestBatchMs: number;
}

/** Whether the next batch starts, after how long, and by when it must have committed. */
export type BatchStart =
  | { readonly kind: 'start'; readonly waitMs: number; readonly deadlineMs: number }
  | { readonly kind: 'stop'; readonly reason: 'time-budget' };

/**
 * Starts the next batch when its trigger fires, unless the budget left at that moment cannot be
 * expected to hold a batch as long as the longest so far plus the safety margin. The batch must
 * commit by the end of the budget less the margin, or it is abandoned before its commit.
 */
export function batchStart(policy: DrivePolicy, facts: StartFacts): BatchStart {
  const waitMs = Math.max(0, facts.nextTriggerAtMs - facts.nowMs);
  const leftAtStart = facts.remainingMs - waitMs;
  if (leftAtStart < facts.longestBatchMs + policy.safetyMarginMs) {
    return { kind: 'stop', reason: 'time-budget' };
  }
  return {
    kind: 'start',
    waitMs,
    deadlineMs: facts.nowMs + facts.remainingMs - policy.safetyMarginMs,
  };
}

/** What the driver observes after an attempt that committed a batch or found nothing to do. */
export interface AttemptFacts {
  readonly outcome: 'committed' | 'idle';
  /** When the attempt started. */
  readonly triggeredAtMs: number;
  readonly nowMs: number;
}

/** After an attempt: when the next trigger fires, or why the driver stops. */
export type AfterAttempt =
  | { readonly kind: 'next'; readonly atMs: number }
  | { readonly kind: 'stop'; readonly reason: 'once' | 'idle' | 'period-over' };

/**
 * The trigger's rule, as Spark's: `once` stops after its single batch; `availableNow` runs batches
 * back to back and stops at the first attempt with nothing to do; `processingTime` fires one batch
 * every interval counted from the previous start (at once when it overran), and while idle polls no
 * more often than every IDLE_POLL_MS. Within an invocation's period, an idle attempt whose next
 * trigger would fall after the period stops (`idle`), and an interval trigger stops when its next
 * batch would (`period-over`), leaving the rest to the next scheduled invocation.
 */
export function afterAttempt(policy: DrivePolicy, facts: AttemptFacts): AfterAttempt {
  const { trigger } = policy;
  switch (trigger.kind) {
    case 'once':
      return { kind: 'stop', reason: 'once' };
    case 'availableNow':
      return facts.outcome === 'idle'
        ? { kind: 'stop', reason: 'idle' }
        : { kind: 'next', atMs: facts.nowMs };
    case 'processingTime': {
      const nextAtMs = facts.triggeredAtMs + trigger.intervalMs;
      const periodOver = nextAtMs >= policy.periodEndsAtMs;
      if (facts.outcome === 'idle' && periodOver) return { kind: 'stop', reason: 'idle' };
      if (trigger.intervalMs > 0 && periodOver) return { kind: 'stop', reason: 'period-over' };
      if (facts.outcome === 'committed') return { kind: 'next', atMs: nextAtMs };
      return { kind: 'next', atMs: Math.max(nextAtMs, facts.nowMs + IDLE_POLL_MS) };
    }
  }
}

/** What an attempt's outcome means for the run. */
export type AttemptVerdict =
  | {
      readonly kind: 'continue';
      readonly outcome: Extract<BatchOutcome, { kind: 'committed' | 'idle' }>;
    }
  | { readonly kind: 'stop'; readonly reason: ContendedOutcome }
  | { readonly kind: 'fail'; readonly error: CheckpointError };

/**
 * A committed batch or an idle attempt lets the run go on. Any other outcome means another writer on
 * the checkpoint (or, for `abandoned`, a budget that ran out mid-batch): an invocation stops quietly,
 * since invocations may overlap by design; a query that owns its checkpoint fails.
 */
export function attemptVerdict(policy: DrivePolicy, outcome: BatchOutcome): AttemptVerdict {
  if (outcome.kind === 'committed' || outcome.kind === 'idle') return { kind: 'continue', outcome };
  if (policy.contention === 'stop') return { kind: 'stop', reason: outcome.kind };
  if (outcome.kind === 'lease-held') {
    return {
      kind: 'fail',
      error: new CheckpointError(
        `Another run (${outcome.owner}) holds the lease of this query's checkpoint; two queries must not share a checkpoint.`,
      ),
    };
  }
  return {
    kind: 'fail',
    error: new CheckpointError(
      `Batch ${outcome.batchId} was not committed (${outcome.kind}): another run of this query is writing to the same checkpoint; two queries must not share a checkpoint.`,
    ),
  };
}

/** What the driver observes when it considers checkpoint maintenance. */
export interface MaintenanceFacts {
  /** True once a committed batch made maintenance due and it has not run since. */
  readonly pending: boolean;
  /** What the driver does next: start a batch now, wait for the trigger, or stop. */
  readonly next: 'batch' | 'wait' | 'stop';
  readonly nowMs: number;
  /** Time left in the budget; Infinity without one. */
  readonly remainingMs: number;
}

/** Whether checkpoint maintenance runs now (until `deadlineMs`), waits, or is left to a later run. */
export type MaintenanceDecision =
  | { readonly kind: 'none' }
  | { readonly kind: 'run'; readonly deadlineMs: number }
  | { readonly kind: 'skip' };

/**
 * Batches come first: pending maintenance waits while batches run back to back, and runs when the
 * driver would otherwise wait for its trigger or stop, until the end of the budget less the safety
 * margin. With less than its estimate left it is skipped, and a later run whose batch makes it due
 * again does the work (each maintenance finishes what earlier ones left).
 */
export function maintenanceDecision(
  policy: DrivePolicy,
  facts: MaintenanceFacts,
): MaintenanceDecision {
  if (!facts.pending || facts.next === 'batch') return { kind: 'none' };
  const availableMs = facts.remainingMs - policy.safetyMarginMs;
  if (availableMs < policy.maintenanceEstimateMs) return { kind: 'skip' };
  return { kind: 'run', deadlineMs: facts.nowMs + availableMs };
}
