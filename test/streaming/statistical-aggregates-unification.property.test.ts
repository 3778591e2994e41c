/**
 * The unification law for the statistical aggregates: random input cut into random micro-batches
 * gives the batch query's result, whether the accumulators continue across batches (a streaming
 * aggregation in complete and update mode, a windowed one in append mode) or merge (session
 * windows joining the sessions a row bridges).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  approx_count_distinct,
  col,
  collect_set,
  type DataFrame,
  type OutputMode,
  percentile_approx,
  type RowObject,
  session_window,
  SluiceSession,
  stddev,
  var_pop,
  window,
} from '../../core/index.js';
import { comparableRows } from '../support/comparable-rows.js';
import {
  finalResult,
  microBatches,
  streamOutputs,
  disorderedEventStreams,
  flushEvent,
} from '../support/unification-law.js';

const SCHEMA = 'ts TIMESTAMP, user STRING, amount INT';
const MINUTE = 60_000_000;
/** Events arrive at most this far behind the latest one, so none is late for a 10-minute watermark. */
const MAX_DISORDER = 4 * MINUTE;

const streams = disorderedEventStreams({
  key: 'user',
  keys: fc.constantFrom('a', 'b', 'c'),
  amounts: fc.option(fc.integer({ min: -20, max: 20 }), { nil: null, freq: 6 }),
  maxStep: 6 * MINUTE,
  maxDisorder: MAX_DISORDER,
  maxLength: 40,
  maxCuts: 5,
});

const statistics = () => [
  collect_set('amount').alias('amounts'),
  approx_count_distinct('amount').alias('distinct'),
  percentile_approx('amount', [0.25, 0.5, 0.75]).alias('quartiles'),
  stddev('amount').alias('sd'),
  var_pop('amount').alias('vp'),
];

type Query = (df: DataFrame) => DataFrame;

const perUser: Query = (df) => df.groupBy('user').agg(...statistics());
const windowed: Query = (df) =>
  df
    .withWatermark('ts', '10 minutes')
    .groupBy(window(col('ts'), '10 minutes'), col('user'))
    .agg(...statistics());
const sessions: Query = (df) =>
  df
    .withWatermark('ts', '10 minutes')
    .groupBy(session_window(col('ts'), '5 minutes'), col('user'))
    .agg(...statistics());

async function batchResult(query: Query, events: RowObject[]): Promise<string[]> {
  return comparableRows(await query(new SluiceSession().createDataFrame(events, SCHEMA)).collect());
}

async function streamResult(
  query: Query,
  mode: OutputMode,
  parts: RowObject[][],
): Promise<RowObject[]> {
  const stream = { session: new SluiceSession(), schema: SCHEMA, query };
  return finalResult(mode, await streamOutputs(stream, mode, parts));
}

function withFlush(events: RowObject[], cuts: number[]): RowObject[][] {
  return [...microBatches(events, cuts), [flushEvent(events, 60 * MINUTE, { user: 'flush' })]];
}

describe('the unification law for collect_set, approx_count_distinct, percentile_approx and stddev/variance', () => {
  it('complete mode: the stream equals the batch query', async () => {
    await fc.assert(
      fc.asyncProperty(streams, async ({ events, cuts }) => {
        const streamed = await streamResult(perUser, 'complete', microBatches(events, cuts));
        expect(comparableRows(streamed)).toEqual(await batchResult(perUser, events));
      }),
      { numRuns: 12 },
    );
  });

  it("update mode: each key's last update equals the batch row", async () => {
    await fc.assert(
      fc.asyncProperty(streams, async ({ events, cuts }) => {
        const streamed = await streamResult(perUser, 'update', microBatches(events, cuts));
        const last = new Map(streamed.map((r) => [r.user, r]));
        expect(comparableRows([...last.values()])).toEqual(await batchResult(perUser, events));
      }),
      { numRuns: 12 },
    );
  });

  for (const [name, query] of [
    ['event-time windows', windowed],
    ['session windows', sessions],
  ] as const) {
    it(`append mode over ${name}: once the watermark passes, the stream emitted the batch result`, async () => {
      await fc.assert(
        fc.asyncProperty(streams, async ({ events, cuts }) => {
          const streamed = await streamResult(query, 'append', withFlush(events, cuts));
          expect(comparableRows(streamed)).toEqual(await batchResult(query, events));
        }),
        { numRuns: 12 },
      );
    });
  }
});
