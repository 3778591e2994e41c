/**
 * The unification law for session windows: random input cut into random micro-batches gives the
 * sessions of the batch query — in append mode once a final watermark has closed every session, in
 * complete mode after every cut — with a static gap and with a gap per row. (Update mode is refused
 * for session windows, as in Spark.) Events arrive at most MAX_DISORDER behind the latest one and
 * the watermark trails by more, so no row is late and no session closes before all its rows came.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  avg,
  col,
  count,
  type DataFrame,
  lit,
  max,
  min,
  type RowObject,
  session_window,
  SluiceSession,
  sum,
  when,
} from '../../core/index.js';
import {
  canonical,
  finalResult,
  microBatches,
  streamOutputs,
  disorderedEventStreams,
  flushEvent,
} from '../support/unification-law.js';

const SCHEMA = 'ts TIMESTAMP, user STRING, amount INT';
const MINUTE = 60_000_000;
const MAX_DISORDER = 7 * MINUTE;

const streams = disorderedEventStreams({
  key: 'user',
  keys: fc.constantFrom('a', 'b', 'c', 'd'),
  amounts: fc.option(fc.integer({ min: -50, max: 50 }), { nil: null, freq: 8 }),
  maxStep: 6 * MINUTE,
  maxDisorder: MAX_DISORDER,
  maxLength: 60,
  maxCuts: 6,
});

type Query = (df: DataFrame) => DataFrame;

/** A gap per user: user d's rows have none, so they belong to no session. */
const perUserGap = when(col('user').eq('a'), lit('2 minutes'))
  .when(col('user').eq('b'), lit('9 minutes'))
  .when(col('user').eq('c'), lit('5 minutes'))
  .otherwise(lit('0 seconds'));

function sessionsQuery(gap: 'static' | 'dynamic'): Query {
  return (df) =>
    df
      .withWatermark('ts', '8 minutes')
      .groupBy(col('user'), session_window(col('ts'), gap === 'static' ? '5 minutes' : perUserGap))
      .agg(
        count().alias('n'),
        sum('amount').alias('total'),
        min('amount').alias('low'),
        max('amount').alias('high'),
        avg('amount').alias('mean'),
      );
}

async function batchResult(query: Query, events: RowObject[]): Promise<string[]> {
  const session = new SluiceSession();
  return canonical(await query(session.createDataFrame(events, SCHEMA)).collect());
}

async function streamResult(
  query: Query,
  mode: 'append' | 'complete',
  parts: RowObject[][],
): Promise<RowObject[]> {
  const stream = { session: new SluiceSession(), schema: SCHEMA, query };
  return finalResult(mode, await streamOutputs(stream, mode, parts));
}

describe('the unification law for session windows', () => {
  for (const gap of ['static', 'dynamic'] as const) {
    const query = sessionsQuery(gap);

    it(`append mode, ${gap} gap: once the watermark passes every session, the stream emitted exactly the batch sessions`, async () => {
      await fc.assert(
        fc.asyncProperty(streams, async ({ events, cuts }) => {
          const flush: RowObject = flushEvent(events, 60 * MINUTE, { user: 'flush' });
          const streamed = await streamResult(query, 'append', [
            ...microBatches(events, cuts),
            [flush],
          ]);
          expect(canonical(streamed)).toEqual(await batchResult(query, events));
        }),
        { numRuns: 20 },
      );
    });

    it(`complete mode, ${gap} gap: the stream's last result equals the batch sessions`, async () => {
      await fc.assert(
        fc.asyncProperty(streams, async ({ events, cuts }) => {
          const streamed = await streamResult(query, 'complete', microBatches(events, cuts));
          expect(canonical(streamed)).toEqual(await batchResult(query, events));
        }),
        { numRuns: 20 },
      );
    });
  }
});
