/**
 * The unification law (docs/architecture.md section 2): for any input and any way of cutting it
 * into micro-batches, the streaming result equals the batch result over the same input — exactly in
 * complete mode; in append mode once a final watermark has passed every window; in update mode the
 * last update of each key equals the batch row.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  avg,
  col,
  count,
  type DataFrame,
  max,
  min,
  type RowObject,
  SluiceSession,
  sum,
  window,
} from '../../core/index.js';
import {
  canonical,
  finalResult,
  microBatches,
  streamOutputs,
  disorderedEventStreams,
  flushEvent,
} from '../support/unification-law.js';

const SCHEMA = 'ts TIMESTAMP, category STRING, amount INT';
const MINUTE = 60_000_000;
/** Events arrive at most this far behind the latest one, so none is late for a watermark of twice it. */
const MAX_DISORDER = 7 * MINUTE;

const categories = fc.constantFrom('a', 'b', 'c', 'd');
const amounts = fc.option(fc.integer({ min: -50, max: 50 }), { nil: null, freq: 8 });

/** Events in roughly increasing time with bounded disorder, plus the cut points of the micro-batches. */
const streams = disorderedEventStreams({
  key: 'category',
  keys: categories,
  amounts,
  maxStep: 4 * MINUTE,
  maxDisorder: MAX_DISORDER,
  maxLength: 60,
  maxCuts: 6,
});

type Query = (df: DataFrame) => DataFrame;

const windowed: Query = (df) =>
  df
    .withWatermark('ts', '14 minutes')
    .groupBy(window(col('ts'), '10 minutes', '5 minutes'), col('category'))
    .agg(
      count().alias('n'),
      sum('amount').alias('total'),
      min('amount').alias('low'),
      max('amount').alias('high'),
      avg('amount').alias('mean'),
    );

const perCategory: Query = (df) =>
  df
    .groupBy('category')
    .agg(count().alias('n'), sum('amount').alias('total'), max('ts').alias('latest'));

async function batchResult(query: Query, events: RowObject[]): Promise<string[]> {
  const session = new SluiceSession();
  return canonical(await query(session.createDataFrame(events, SCHEMA)).collect());
}

async function streamResult(
  query: Query,
  mode: 'append' | 'update' | 'complete',
  parts: RowObject[][],
): Promise<RowObject[]> {
  const stream = { session: new SluiceSession(), schema: SCHEMA, query };
  return finalResult(mode, await streamOutputs(stream, mode, parts));
}

/** Keeps the last row per key (the key columns are all but the aggregates). */
function lastPerKey(rows: RowObject[], keyColumns: string[]): RowObject[] {
  const latest = new Map<string, RowObject>();
  for (const r of rows) latest.set(JSON.stringify(keyColumns.map((k) => r[k])), r);
  return [...latest.values()];
}

describe('the unification law', () => {
  it('complete mode: the stream equals the batch query after every cut', async () => {
    await fc.assert(
      fc.asyncProperty(streams, async ({ events, cuts }) => {
        const streamed = await streamResult(perCategory, 'complete', microBatches(events, cuts));
        expect(canonical(streamed)).toEqual(await batchResult(perCategory, events));
      }),
      { numRuns: 25 },
    );
  });

  it('update mode: the last update of each key equals the batch row', async () => {
    await fc.assert(
      fc.asyncProperty(streams, async ({ events, cuts }) => {
        const streamed = await streamResult(perCategory, 'update', microBatches(events, cuts));
        expect(canonical(lastPerKey(streamed, ['category']))).toEqual(
          await batchResult(perCategory, events),
        );
      }),
      { numRuns: 25 },
    );
  });

  it('append mode: once the watermark passes every window, the stream emitted exactly the batch result', async () => {
    await fc.assert(
      fc.asyncProperty(streams, async ({ events, cuts }) => {
        const flush: RowObject = flushEvent(events, 60 * MINUTE, { category: 'flush' });
        const streamed = await streamResult(windowed, 'append', [
          ...microBatches(events, cuts),
          [flush],
        ]);
        expect(canonical(streamed)).toEqual(await batchResult(windowed, events));
      }),
      { numRuns: 25 },
    );
  });
});
