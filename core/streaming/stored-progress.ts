/**
 * The progress record a commit stores (CommitRecord.progress): the batch's progress, kept small
 * enough for a DynamoDB item beside the commit's own fields. A record whose sources' offsets make it
 * larger than the budget keeps every figure but leaves the offsets out (`offsetsOmitted`): they
 * are in the batch's intent, which is stored however large it is.
 */
import type { StreamingQueryProgress } from './progress.js';

/** Bytes of JSON a stored progress record may take before its offsets are left out. */
export const MAX_STORED_PROGRESS_BYTES = 16 * 1024;

/** The form of `progress` a commit stores. */
export function storedProgress(
  progress: StreamingQueryProgress,
): Readonly<Record<string, unknown>> {
  const record = progress as unknown as Readonly<Record<string, unknown>>;
  if (Buffer.byteLength(JSON.stringify(record)) <= MAX_STORED_PROGRESS_BYTES) return record;
  const sources = progress.sources.map(
    ({ startOffset: _s, endOffset: _e, latestOffset: _l, ...rest }) => rest,
  );
  return { ...record, sources, offsetsOmitted: true };
}
