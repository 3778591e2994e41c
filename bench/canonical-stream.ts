/**
 * The engine's side of the engine benchmark (bench/engine.bench.ts): the canonical clickstream
 * query, and a run of it as a stream over events held in memory. It is a module of its own so that
 * a profiling script (bench/engine-profile.ts) runs exactly what the benchmark times.
 */
import { mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import {
  col,
  type DataFrame,
  from_json,
  type RowObject,
  SluiceSession,
  window,
} from '../core/index.js';
import { CLICK_EVENT_SCHEMA } from './clickstream-events.js';

/** Sent after the events: its watermark closes every window of the run, so append mode emits them all. */
const FLUSH_EVENT = JSON.stringify({
  ts: '2099-01-01T00:00:00.000Z',
  category: 'flush',
  user: 'u0',
  page: '/',
});

/** Event counts by `<window start in ms> <category>`: the form every contender's result is compared in. */
export type Counts = Map<string, number>;

/** What one run computed. */
export interface RunResult {
  readonly counts: Counts;
  /** Events dropped as late (only a stream drops any). */
  readonly late: number;
}

/** The events as the stream's input rows: strings, or their UTF-8 bytes. */
export type EventValues = readonly string[] | readonly Uint8Array[];

/**
 * The lines as UTF-8 values the way kafkajs hands them over: each a view of the buffer its fetch
 * response was read into (Buffer.slice shares memory), not an array of its own. A million separate
 * arrays would cost the collector a million backing stores to track, which no Kafka read makes.
 */
export function asFetchedValues(lines: readonly string[]): Uint8Array[] {
  const fetched = Buffer.from(lines.join(''));
  const values: Uint8Array[] = [];
  let offset = 0;
  for (const line of lines) {
    const length = Buffer.byteLength(line);
    values.push(fetched.subarray(offset, offset + length));
    offset += length;
  }
  return values;
}

/**
 * The canonical query: parse, watermark, count per 10-minute window and category. Over binary
 * values it reads them as UTF-8 text first, as a query over Kafka records does.
 */
export function canonicalQuery(events: DataFrame): DataFrame {
  const value =
    events.schema.fields[0].dataType.kind === 'binary' ? col('value').cast('string') : col('value');
  return events
    .select(from_json(value, CLICK_EVENT_SCHEMA).alias('e'))
    .select('e.*')
    .withWatermark('ts', '15 minutes')
    .groupBy(window(col('ts'), '10 minutes'), col('category'))
    .count();
}

/** Adds one output row of the canonical query (its window start a Date, keyed by its ms) to `counts`. */
export function addOutputRow(counts: Counts, row: RowObject): void {
  const { start } = row.window as { start: Date };
  counts.set(`${start.getTime()} ${row.category as string}`, row.count as number);
}

/**
 * Runs the query as a stream of `batchSize`-event micro-batches, with a new checkpoint under
 * `checkpoints` (the caller removes it), and returns its counts and late events.
 */
export async function runEngineStream(
  values: EventValues,
  checkpoints: string,
  batchSize: number,
): Promise<RunResult> {
  const session = new SluiceSession();
  const bytes = typeof values[0] !== 'string';
  const input = session.memoryStream(bytes ? 'value BINARY' : 'value STRING', 'clicks');
  const counts: Counts = new Map();
  let late = 0;
  const query = await canonicalQuery(session.readStream.memory(input))
    .writeStream.outputMode('append')
    .option('checkpointLocation', await mkdtemp(path.join(checkpoints, 'run-')))
    .foreachBatch(async (batch) => {
      for (const r of await batch.collect()) addOutputRow(counts, r);
    })
    .onProgress((p) => (late += p.lateRowsDropped))
    .start();
  // One addData per micro-batch: processAllAvailable returns once the batch and the no-data batch
  // that applies its watermark have run, so batches are cut exactly at batchSize.
  for (let from = 0; from < values.length; from += batchSize) {
    input.addData(values.slice(from, from + batchSize).map((value) => ({ value })));
    await query.processAllAvailable();
  }
  input.addData([{ value: bytes ? Buffer.from(FLUSH_EVENT) : FLUSH_EVENT }]);
  await query.processAllAvailable();
  await query.stop();
  return { counts, late };
}
