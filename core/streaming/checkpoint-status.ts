/**
 * What a query's checkpoint says about it, read without taking its lease (for `sluice status` and
 * for code that watches a deployed query): the last committed batch and the watermark the next runs
 * under, the lease holder, a batch planned but not committed (an attempt running, or one that
 * failed and will be re-run from the same intent), the last progress and how far the sources
 * were behind their latest offsets when the last batch was planned, and the recent failed attempts.
 */
import type { BatchFailure, CheckpointStore, LeaseHolder } from '../checkpoint/checkpoint-store.js';
import { CheckpointError } from '../errors.js';
import { eventTimeText, type SourceProgress, type StreamingQueryProgress } from './progress.js';
import { progressHistory } from './progress-history.js';

/** A query's state as its checkpoint records it. */
export interface CheckpointStatus {
  readonly location: string;
  readonly queryId: string;
  /** The last committed batch, or null before the first. */
  readonly lastCommittedBatch: number | null;
  /** The watermark the next batch runs under (ISO 8601), when there is one. */
  readonly nextWatermark?: string;
  /** Who holds the lease, when the backend records one (DynamoDB's does; the local one is advisory). */
  readonly lease?: LeaseHolder & { readonly expired: boolean };
  /**
   * The batch after the last committed one, when its intent was written but it has no commit: an
   * attempt is running, or one failed or timed out and the next attempt re-runs it.
   */
  readonly uncommittedBatch?: { readonly batchId: number; readonly plannedAt: string };
  readonly lastProgress?: StreamingQueryProgress;
  /** Per source of the last batch, the offsets it was behind the latest when planned, when known. */
  readonly sourceLag: readonly { readonly description: string; readonly lag: number }[];
  /** The most recent attempts that failed with an error, newest first (at most STATUS_FAILURES). */
  readonly recentFailures: readonly BatchFailure[];
}

/** How many failed attempts a status shows. */
export const STATUS_FAILURES = 5;

/** Reads the status of the query whose checkpoint is `checkpoint`, at time `nowMs`. */
export async function checkpointStatus(
  checkpoint: CheckpointStore,
  nowMs = Date.now(),
): Promise<CheckpointStatus> {
  const metadata = await checkpoint.getMetadata();
  if (!metadata) {
    throw new CheckpointError(
      `${checkpoint.location} holds no checkpoint: check the location (or the table and query id); a query creates its checkpoint when it first starts.`,
    );
  }
  const head = await checkpoint.latestCommit();
  const next = await checkpoint.getIntent(head ? head.batchId + 1 : 0);
  const lease = await checkpoint.readLease?.();
  const [lastProgress] = await progressHistory(checkpoint, 1);
  const recentFailures = await checkpoint.recentFailures(STATUS_FAILURES);
  return {
    location: checkpoint.location,
    queryId: metadata.queryId,
    lastCommittedBatch: head?.batchId ?? null,
    ...(head?.nextWatermarkMicros == null
      ? {}
      : { nextWatermark: eventTimeText(head.nextWatermarkMicros) }),
    ...(lease ? { lease: { ...lease, expired: lease.expiresAtMs <= nowMs } } : {}),
    ...(next
      ? {
          uncommittedBatch: {
            batchId: next.batchId,
            plannedAt: new Date(next.batchTimestampMs).toISOString(),
          },
        }
      : {}),
    ...(lastProgress ? { lastProgress } : {}),
    sourceLag: (lastProgress?.sources ?? []).flatMap((s) => {
      const lag = offsetLag(s);
      return lag === undefined ? [] : [{ description: s.description, lag }];
    }),
    recentFailures,
  };
}

/**
 * How many offsets a source's batch ended behind the latest it reported: the sum over the numeric
 * leaves of its offsets (a Kafka offset is `{ topic: { partition: offset } }`), when both have them.
 */
function offsetLag(source: SourceProgress): number | undefined {
  if (source.latestOffset === undefined) return undefined;
  const end = numericLeaves(source.endOffset);
  const latest = numericLeaves(source.latestOffset);
  if (latest.size === 0) return undefined;
  let lag = 0;
  for (const [path, offset] of latest) lag += Math.max(0, offset - (end.get(path) ?? 0));
  return lag;
}

/** The numbers in an offset, by their path of keys. */
function numericLeaves(value: unknown, path = '', into = new Map<string, number>()) {
  if (typeof value === 'number') into.set(path, value);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) numericLeaves(v, `${path}/${k}`, into);
  }
  return into;
}
