/**
 * The unification law (docs/architecture.md section 2) for deduplication and chains of stateful
 * operators in append mode: random input cut into random micro-batches, then an event far ahead
 * that moves the watermark past every window, gives exactly the batch query's result over the input.
 *
 * Event times are whole multiples of 30 seconds, so that many rows share a key, and so are the
 * watermarks (as Spark's are whole milliseconds): a window's `window_time` (its end minus one
 * microsecond) is then never equal to a watermark.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  col,
  count,
  type DataFrame,
  max,
  type RowObject,
  SluiceSession,
  sum,
  window,
  window_time,
} from '../../core/index.js';
import {
  canonical,
  microBatches,
  streamOutputs,
  disorderedEventStreams,
  flushEvent,
} from '../support/unification-law.js';

const SCHEMA = 'ts TIMESTAMP, category STRING, amount INT';
const TICK = 30_000_000;
/** Events arrive at most this far behind the latest one: less than the watermark delay, none is late. */
const MAX_DISORDER_TICKS = 14;
const DELAY = '10 minutes';

/** Events in roughly increasing time with bounded disorder, plus the cut points of the micro-batches. */
const streams = disorderedEventStreams({
  key: 'category',
  keys: fc.constantFrom('a', 'b', 'c'),
  amounts: fc.option(fc.integer({ min: -50, max: 50 }), { nil: null, freq: 8 }),
  maxStep: 4,
  maxDisorder: MAX_DISORDER_TICKS,
  tick: TICK,
  maxLength: 60,
  maxCuts: 6,
});

type Query = (df: DataFrame) => DataFrame;

const dedup: Query = (df) => df.withWatermark('ts', DELAY).dropDuplicates('category', 'ts');

const dedupThenWindowedCount: Query = (df) =>
  dedup(df)
    .groupBy(window(col('ts'), '5 minutes'), col('category'))
    .agg(count().alias('n'), sum('amount').alias('total'));

const windowedCountOfWindowedCounts: Query = (df) =>
  df
    .withWatermark('ts', DELAY)
    .groupBy(window(col('ts'), '5 minutes'), col('category'))
    .agg(count().alias('n'), sum('amount').alias('total'))
    .groupBy(window(window_time('window'), '20 minutes'))
    .agg(count().alias('windows'), sum('n').alias('events'), max('total').alias('top'));

async function batchResult(query: Query, events: RowObject[]): Promise<string[]> {
  const session = new SluiceSession();
  return canonical(await query(session.createDataFrame(events, SCHEMA)).collect());
}

/** Every row the stream emitted in append mode, over `parts` then an event hours ahead. */
async function streamResult(query: Query, events: RowObject[], cuts: number[]) {
  const flush: RowObject = flushEvent(events, 240 * TICK, { category: 'flush' });
  const stream = { session: new SluiceSession(), schema: SCHEMA, query };
  const outputs = await streamOutputs(stream, 'append', [...microBatches(events, cuts), [flush]]);
  return canonical(outputs.flat().filter((r) => r.category !== 'flush'));
}

describe('the unification law for stateful chains in append mode', () => {
  const queries: ReadonlyArray<readonly [string, Query]> = [
    ['dropDuplicates on a key with the event time', dedup],
    ['dropDuplicates then a windowed count', dedupThenWindowedCount],
    ['a windowed count of windowed counts', windowedCountOfWindowedCounts],
  ];
  for (const [name, query] of queries) {
    it(`${name}: the stream emits exactly the batch result`, async () => {
      await fc.assert(
        fc.asyncProperty(streams, async ({ events, cuts }) => {
          expect(await streamResult(query, events, cuts)).toEqual(await batchResult(query, events));
        }),
        { numRuns: 20 },
      );
    });
  }
});
