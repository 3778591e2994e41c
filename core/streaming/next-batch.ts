/**
 * What the next batch is: step 2 of the commit protocol (docs/architecture.md section 3) as a pure
 * decision over observed facts. It does no I/O: MicroBatchExecution gathers the facts (the head it
 * got with the lease, the head batch's intent, the sources' latest offsets), writes the intent this
 * plans with a create-if-absent and, when that create loses, decides again with the intent it got
 * back, which then is the truth for the batch.
 *
 * With N = the head's batch + 1 (0 before the first commit):
 * - `reuse-intent`: an intent for N already exists (an earlier attempt planned N and crashed, or a
 *   rival planned it first). N reads exactly that, whatever the sources say now.
 * - `plan-new`: some source has data after the head's end offsets; a new intent reads it.
 * - `no-data`: no source has new data, but the head batch moved the watermark past the one the head
 *   batch ran under, and a stateful operator may emit or evict under it (Spark's no-data batch);
 *   or an operator's timer is due under the watermark and processing time N would run with.
 * - `idle`: nothing to do.
 *
 * A planned intent starts where the head batch ended, fixes the batch's processing time, and runs
 * under the watermark the head proposed for N. Offsets and time only grow, so a crashed attempt
 * that wrote an intent for N saw data or a moved watermark too: an `idle` decision never hides one.
 */
import {
  CHECKPOINT_FORMAT_VERSION,
  type CommitRecord,
  type OffsetIntent,
} from '../checkpoint/checkpoint-store.js';
import { ExecutionError } from '../errors.js';
import { type Offset, sameOffset } from '../sources/source.js';

/** The next batch, and the intent it runs when there is one. */
export type NextBatch =
  | { readonly kind: 'reuse-intent'; readonly intent: OffsetIntent }
  | { readonly kind: 'plan-new'; readonly intent: OffsetIntent }
  | { readonly kind: 'no-data'; readonly intent: OffsetIntent }
  | { readonly kind: 'idle' };

/** What the protocol observed before planning batch N. */
export interface NextBatchFacts {
  /** The commit of the last committed batch (N-1), read with the lease; undefined before the first. */
  readonly head: CommitRecord | undefined;
  /** The intent of the head batch: where it ended and the watermark it ran under. */
  readonly committedIntent: OffsetIntent | undefined;
  /** Per source, the offset a batch planned now would read up to (null: no data yet). */
  readonly latestOffsets: readonly (Offset | null)[];
  /**
   * Whether a stateful operator would evict state or emit rows if the watermark moved from the one
   * the head batch ran under to the one the head proposes (StatefulOperator.shouldRunAnotherBatch):
   * only then is a batch without new data worth running.
   */
  readonly operatorsActOnWatermark: boolean;
  /**
   * Whether a stateful operator's timer (as the head's commit recorded it) is due under the
   * watermark the head proposes and `batchTimestampMs` (isTimerDue). Absent: no timer is.
   */
  readonly timersDue?: boolean;
  /** The processing time (ms since the epoch) a batch planned now runs under. */
  readonly batchTimestampMs: number;
  /** The intent of batch N that a losing create-if-absent found, when one did. */
  readonly existingIntent?: OffsetIntent;
}

/** Decides the next batch from `facts`; broken invariants among them are internal errors. */
export function nextBatch(facts: NextBatchFacts): NextBatch {
  const batchId = nextBatchId(facts);
  if (facts.existingIntent) return reuse(facts.existingIntent, batchId);
  const start = facts.latestOffsets.map((_, i) => facts.committedIntent?.end[i] ?? null);
  const hasData = facts.latestOffsets.some((end, i) => !sameOffset(end, start[i]));
  if (!hasData && !watermarkMoved(facts) && !facts.timersDue) return { kind: 'idle' };
  const intent: OffsetIntent = {
    formatVersion: CHECKPOINT_FORMAT_VERSION,
    batchId,
    start,
    end: facts.latestOffsets,
    batchTimestampMs: facts.batchTimestampMs,
    watermarkMicros: facts.head?.nextWatermarkMicros ?? null,
  };
  return { kind: hasData ? 'plan-new' : 'no-data', intent };
}

/** N: one past the head, whose intent must be the committed one. */
function nextBatchId({ head, committedIntent }: NextBatchFacts): number {
  if (head?.batchId !== committedIntent?.batchId) {
    throw new ExecutionError(
      `Internal error: the next batch was planned from commit ${head?.batchId ?? 'none'} with the intent of batch ${committedIntent?.batchId ?? 'none'}.`,
    );
  }
  return head ? head.batchId + 1 : 0;
}

function reuse(intent: OffsetIntent, batchId: number): NextBatch {
  if (intent.batchId !== batchId) {
    throw new ExecutionError(
      `Internal error: the intent found for batch ${batchId} is the intent of batch ${intent.batchId}.`,
    );
  }
  return { kind: 'reuse-intent', intent };
}

/** True when the head proposes a watermark other than the one its batch ran under, and it matters. */
function watermarkMoved({
  head,
  committedIntent,
  operatorsActOnWatermark,
}: NextBatchFacts): boolean {
  if (!operatorsActOnWatermark || !head || head.nextWatermarkMicros === null) return false;
  return head.nextWatermarkMicros !== (committedIntent?.watermarkMicros ?? null);
}
