/**
 * The canonical query of the Delta tests — clicks counted per 10-minute event-time window and
 * category, with a 10-minute watermark — its input cut into micro-batches, and helpers that run it as
 * a stream into a sink and as a batch query, so tests compare the two.
 */
import {
  type BatchStep,
  col,
  count,
  type DataFrame,
  type MemoryStream,
  type OutputMode,
  type RowObject,
  type Sink,
  SluiceSession,
  type StreamingQuery,
  window,
} from '../../core/index.js';
import { at, clickSchema } from '../support/events.js';
import { tempDir } from '../support/temp-dir.js';
import { dateEpochMicros } from '../../core/types/timestamp.js';

/** Categories, including a NULL and names that need escaping in partition directories. */
export const CATEGORIES = ['books', 'games', 'music & film', 'a=b/c%d:e', null];

/**
 * Clicks in `batches` chunks of `perBatch`, event time advancing 20 s a click with up to 3 minutes
 * of disorder: never late for a 10-minute watermark, so a stream drops nothing.
 */
export function clickBatches(batches = 5, perBatch = 40): RowObject[][] {
  const chunks: RowObject[][] = [];
  let n = 0;
  for (let b = 0; b < batches; b++) {
    const chunk: RowObject[] = [];
    for (let i = 0; i < perBatch; i++, n++) {
      const disorderMicros = ((n * 7919) % 180) * 1_000_000;
      chunk.push({
        ts: at('10:00:00', n * 20_000_000 - disorderMicros),
        category: CATEGORIES[(n * 31) % CATEGORIES.length],
        user: `u${n % 17}`,
      });
    }
    chunks.push(chunk);
  }
  return chunks;
}

/** A click far ahead that moves the watermark past every window of `clickBatches`. */
export const FLUSH: RowObject = { ts: at('23:00:00'), category: 'flush', user: 'z' };

/** The canonical query over a DataFrame of clicks. */
export function windowCounts(clicks: DataFrame): DataFrame {
  return clicks
    .withWatermark('ts', '10 minutes')
    .groupBy(window(col('ts'), '10 minutes'), col('category'))
    .agg(count().alias('n'));
}

/** Rows of the query's result as sorted comparable strings. */
export function canonical(rows: readonly RowObject[]): string[] {
  return rows
    .map((r) => {
      const w = r.window as { start: Date; end: Date };
      return JSON.stringify([dateEpochMicros(w.start), dateEpochMicros(w.end), r.category, r.n]);
    })
    .sort();
}

/** The batch query's result over `clicks`. */
export async function batchResult(clicks: readonly RowObject[]): Promise<string[]> {
  const session = new SluiceSession();
  return canonical(await windowCounts(session.createDataFrame(clicks, clickSchema)).collect());
}

/** How to run the canonical query as a stream. */
export interface StreamOptions {
  readonly sink: Sink;
  readonly checkpoint: string;
  readonly events: MemoryStream;
  readonly outputMode?: OutputMode;
  readonly afterStep?: (step: BatchStep, batchId: number) => void;
}

/** Starts the canonical query over `events` into `sink`. */
export function startStream(options: StreamOptions): Promise<StreamingQuery> {
  const session = new SluiceSession();
  const writer = windowCounts(session.readStream.memory(options.events))
    .writeStream.outputMode(options.outputMode ?? 'append')
    .sink(options.sink)
    .option('checkpointLocation', options.checkpoint);
  if (options.afterStep) writer.afterStep(options.afterStep);
  return writer.start();
}

/** A new MemoryStream of clicks. */
export function clickStream(): MemoryStream {
  return new SluiceSession().memoryStream(clickSchema, 'clicks');
}

/** Streams every chunk, then the flush click, into `sink` on a new checkpoint; returns the query's id. */
export async function streamAll(sink: Sink, chunks: readonly RowObject[][]): Promise<string> {
  const events = clickStream();
  const query = await startStream({ sink, checkpoint: tempDir(), events });
  for (const chunk of [...chunks, [FLUSH]]) {
    events.addData(chunk);
    await query.processAllAvailable();
  }
  await query.stop();
  return query.id;
}
