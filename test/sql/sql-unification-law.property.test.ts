/**
 * The unification law for SQL: a SQL query over a streaming temporary view, for any input cut into
 * any micro-batches, gives the result of the same SQL over a static view of the same rows — in
 * complete mode after every cut, in append mode once a final watermark has passed every window.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type DataFrame, type RowObject, SluiceSession } from '../../core/index.js';
import '../../core/sql/index.js';
import { at } from '../support/events.js';
import {
  canonical,
  finalResult,
  microBatches,
  streamOutputs,
  flushEvent,
} from '../support/unification-law.js';

const SCHEMA = 'ts TIMESTAMP, category STRING, amount INT';
const MINUTE = 60_000_000;
/** Events arrive at most this far behind the latest one, so none is late for the 15-minute watermark. */
const MAX_DISORDER = 7 * MINUTE;

const streams = fc
  .array(
    fc.record({
      step: fc.integer({ min: 0, max: 4 * MINUTE }),
      back: fc.integer({ min: 0, max: MAX_DISORDER }),
      category: fc.constantFrom('a', 'b', 'c'),
      amount: fc.option(fc.integer({ min: -50, max: 50 }), { nil: null, freq: 8 }),
    }),
    { minLength: 1, maxLength: 50 },
  )
  .chain((specs) => {
    let clock = 0;
    const events = specs.map((s) => {
      clock += s.step;
      return { ts: at('10:00:00', clock - s.back), category: s.category, amount: s.amount };
    });
    return fc.record({
      events: fc.constant(events as RowObject[]),
      cuts: fc.uniqueArray(fc.integer({ min: 1, max: specs.length }), { maxLength: 5 }),
    });
  });

const WINDOWED = `
  SELECT window, category, count(*) AS n, sum(amount) AS total, max(amount) AS high
  FROM events
  WHERE amount IS NULL OR amount > -40
  GROUP BY window(ts, '10 minutes', '5 minutes'), category`;

const PER_CATEGORY = `
  SELECT upper(category) AS c, count(*) AS n, sum(amount) AS total
  FROM events GROUP BY upper(category) HAVING count(*) > 1`;

/** Registers `df` with a watermark as the view `events` and runs `sql` over it. */
function overView(df: DataFrame, sql: string): DataFrame {
  df.withWatermark('ts', '15 minutes').createOrReplaceTempView('events');
  return df.session.sql(sql);
}

async function batchResult(sql: string, events: RowObject[]): Promise<string[]> {
  const session = new SluiceSession();
  return canonical(await overView(session.createDataFrame(events, SCHEMA), sql).collect());
}

async function streamResult(
  sql: string,
  mode: 'append' | 'complete',
  parts: RowObject[][],
): Promise<RowObject[]> {
  const stream = {
    session: new SluiceSession(),
    schema: SCHEMA,
    query: (df: DataFrame) => overView(df, sql),
  };
  return finalResult(mode, await streamOutputs(stream, mode, parts));
}

describe('the unification law for SQL over a streaming view', () => {
  it('complete mode: the stream equals the batch query after every cut', async () => {
    await fc.assert(
      fc.asyncProperty(streams, async ({ events, cuts }) => {
        const streamed = await streamResult(PER_CATEGORY, 'complete', microBatches(events, cuts));
        expect(canonical(streamed)).toEqual(await batchResult(PER_CATEGORY, events));
      }),
      { numRuns: 15 },
    );
  });

  it('append mode: once the watermark passes every window, the stream emitted exactly the batch result', async () => {
    await fc.assert(
      fc.asyncProperty(streams, async ({ events, cuts }) => {
        const flush: RowObject = flushEvent(events, 60 * MINUTE, { category: 'flush' });
        const streamed = await streamResult(WINDOWED, 'append', [
          ...microBatches(events, cuts),
          [flush],
        ]);
        expect(canonical(streamed)).toEqual(await batchResult(WINDOWED, events));
      }),
      { numRuns: 15 },
    );
  });
});
