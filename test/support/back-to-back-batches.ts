/**
 * A stream whose data batches follow one another without a batch without data between them, so
 * that a batch runs under a higher watermark than the one before it: the only way to see the two
 * watermarks of a stateful operator apart (Spark's for late rows, the previous batch's; and for
 * eviction, the current one). Each feed after the first is added when the batch before it commits,
 * so the driver finds data and plans a data batch rather than the batch without data the moved
 * watermark would otherwise run.
 */
import type { DataFrame, RowObject, StreamingQueryProgress } from '../../core/index.js';
import { tempDir } from './temp-dir.js';

/** One data batch of every batch the stream ran: its rows out and its progress. */
export interface BackToBackBatch {
  readonly rows: RowObject[];
  readonly progress: StreamingQueryProgress;
}

/**
 * Runs `df` in append mode over `feeds`, each adding one batch's data: the first before the start,
 * each next one as the batch before commits. Returns the data batches (those that read input) in
 * order, one per feed.
 */
export async function backToBackBatches(
  df: DataFrame,
  feeds: readonly (() => void)[],
): Promise<BackToBackBatch[]> {
  const rows = new Map<number, RowObject[]>();
  const progress: StreamingQueryProgress[] = [];
  let fed = 0;
  const feed = () => {
    if (fed < feeds.length) feeds[fed++]();
  };
  feed();
  const query = await df.writeStream
    .outputMode('append')
    .foreachBatch(async (batch, batchId) => {
      rows.set(batchId, await batch.collect());
    })
    .afterStep((step) => {
      if (step === 'commit') feed();
    })
    .onProgress((p) => progress.push(p))
    .option('checkpointLocation', tempDir())
    .start();
  await query.processAllAvailable();
  await query.stop();
  return progress
    .filter((p) => p.numInputRows > 0)
    .map((p) => ({ rows: rows.get(p.batchId) ?? [], progress: p }));
}
