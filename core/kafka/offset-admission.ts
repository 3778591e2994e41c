/**
 * Admission control of a Kafka stream: how many offsets the next batch reads.
 *
 * `maxOffsetsPerTrigger`: when the partitions hold more new offsets than one batch may read, the
 * limit is split across them in proportion to each one's lag, so a partition far behind catches up as
 * fast as the others. A partition with a small lag is not starved: each one with pending offsets gets
 * at least one per batch (when the limit allows one each), as in Spark, but without Spark's overshoot
 * of the limit. The split is exact (largest remainders, integer arithmetic): a batch admits exactly
 * the limit, and the same lags always give the same ends, whichever attempt plans the batch.
 *
 * `minOffsetsPerTrigger` with `maxTriggerDelay` (Spark 3.3): a trigger that finds fewer new offsets
 * runs no batch, unless the delay has passed since the last batch. Spark measures the delay from the
 * last batch this process ran, so every restart runs a batch at once; here it is measured from the
 * last committed batch's timestamp in the checkpoint, so invocations of a scheduled Lambda (each a
 * restart) hold small batches back as one long-running query would. The first batch of a checkpoint
 * is never held back, as Spark's first trigger is not.
 */

/** One partition's pending offsets: from `start` (where the last batch ended) to `latest`. */
export interface PendingOffsets {
  readonly start: number;
  readonly latest: number;
}

/**
 * The end offset of each partition for the next batch: `latest`, or less when more than `limit`
 * offsets are pending in all. Partitions with nothing pending end where they start.
 */
export function admitOffsets(pending: readonly PendingOffsets[], limit?: number): number[] {
  const lags = pending.map((p) => Math.max(0, p.latest - p.start));
  const total = lags.reduce((a, b) => a + b, 0);
  if (limit === undefined || total <= limit) return pending.map((p, i) => p.start + lags[i]);
  const lagging = lags.filter((lag) => lag > 0).length;
  const floor = lags.map((lag): number => (lag > 0 && limit >= lagging ? 1 : 0));
  const split = proportionalSplit(
    lags.map((lag, i) => lag - floor[i]),
    limit - floor.reduce((a, b) => a + b, 0),
  );
  return pending.map((p, i) => p.start + floor[i] + split[i]);
}

/** `amount` (less than the sum of `weights`) split in proportion to the weights, exactly. */
function proportionalSplit(weights: readonly number[], amount: number): number[] {
  const total = BigInt(weights.reduce((a, b) => a + b, 0));
  // share_i = amount * weight_i / total, in BigInt: the products exceed 2^53 for large lags
  const shares = weights.map((w) => {
    const scaled = BigInt(amount) * BigInt(w);
    return { whole: Number(scaled / total), remainder: scaled % total };
  });
  let left = amount - shares.reduce((a, s) => a + s.whole, 0);
  // The units the whole parts leave go to the largest remainders; ties to the earlier partition.
  const order = shares
    .map((s, i) => ({ remainder: s.remainder, i }))
    .sort((a, b) => (a.remainder === b.remainder ? a.i - b.i : a.remainder > b.remainder ? -1 : 1));
  const result = shares.map((s) => s.whole);
  for (const { i } of order) {
    if (left === 0) break;
    result[i]++;
    left--;
  }
  return result;
}

/** A minimum batch size and how long it may hold batches back. */
export interface MinimumAdmission {
  readonly minOffsets: number;
  readonly maxDelayMs: number;
}

/** When the batch being planned runs and when the last one ran (undefined: none has). */
export interface BatchTimes {
  readonly nowMs: number;
  readonly previousMs?: number;
}

/** True when the next batch waits: fewer than the minimum offsets pending, and the delay not over. */
export function holdsBatchBack(
  pending: readonly PendingOffsets[],
  minimum: MinimumAdmission,
  times: BatchTimes,
): boolean {
  if (times.previousMs === undefined) return false;
  if (times.nowMs - times.previousMs >= minimum.maxDelayMs) return false;
  const total = pending.reduce((sum, p) => sum + Math.max(0, p.latest - p.start), 0);
  return total < minimum.minOffsets;
}
