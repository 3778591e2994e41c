/**
 * A small stateful query run to completion on a given checkpoint backend: clicks counted per
 * category (update mode, memory sink), one batch per group of clicks.
 */
import {
  type CheckpointBackend,
  col,
  count,
  type RowObject,
  SluiceSession,
  type StreamingQuery,
} from '../../core/index.js';
import { clickSchema } from './events.js';

/** Runs the count on `backend` over `batches`, then stops it; returns the stopped query. */
export async function countCategories(
  backend: CheckpointBackend,
  batches: readonly RowObject[][],
): Promise<StreamingQuery> {
  const session = new SluiceSession();
  const events = session.memoryStream(clickSchema, 'clicks');
  const query = await session.readStream
    .memory(events)
    .groupBy(col('category'))
    .agg(count().alias('n'))
    .writeStream.format('memory')
    .queryName('category_counts')
    .outputMode('update')
    .checkpoint(backend)
    .start();
  for (const batch of batches) {
    events.addData(batch);
    await query.processAllAvailable();
  }
  await query.stop();
  return query;
}
