/**
 * The unification law for transformWithState where it applies (timeMode none, an output that is a
 * function of all the rows of a key): for any input cut into any micro-batches, the last row per
 * key the stream emits in update mode equals the batch query's row for that key.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type DataFrame,
  type RowObject,
  SluiceSession,
  type StatefulProcessor,
  type StatefulProcessorHandle,
  type ValueState,
} from '../../core/index.js';
import { canonical, microBatches, streamOutputs } from '../support/unification-law.js';

const SCHEMA = 'category STRING, amount INT';

/** A running count, sum and largest amount per category. */
class RunningTotals implements StatefulProcessor {
  private totals!: ValueState<{ n: number; sum: number; high: number | null }>;

  init(handle: StatefulProcessorHandle): void {
    this.totals = handle.getValueState('totals', 'struct<n: bigint, sum: bigint, high: int>');
  }

  handleInputRows(key: RowObject, rows: readonly RowObject[]): RowObject[] {
    const t = this.totals.get() ?? { n: 0, sum: 0, high: null };
    for (const r of rows) {
      const amount = r.amount as number | null;
      t.n += 1;
      t.sum += amount ?? 0;
      if (amount !== null) t.high = t.high === null ? amount : Math.max(t.high, amount);
    }
    this.totals.update(t);
    return [{ category: key.category, ...t }];
  }
}

const query = (df: DataFrame) =>
  df.groupBy('category').transformWithState(new RunningTotals(), {
    timeMode: 'none',
    outputMode: 'update',
    schema: 'category STRING, n BIGINT, sum BIGINT, high INT',
  });

const streams = fc
  .array(
    fc.record({
      category: fc.constantFrom('a', 'b', 'c', 'd'),
      amount: fc.option(fc.integer({ min: -50, max: 50 }), { nil: null, freq: 8 }),
    }),
    { minLength: 1, maxLength: 60 },
  )
  .chain((events) =>
    fc.record({
      events: fc.constant(events as RowObject[]),
      cuts: fc.uniqueArray(fc.integer({ min: 1, max: events.length }), { maxLength: 6 }),
    }),
  );

async function streamed(parts: RowObject[][]): Promise<RowObject[]> {
  const stream = { session: new SluiceSession(), schema: SCHEMA, query };
  return (await streamOutputs(stream, 'update', parts)).flat();
}

describe('the unification law for transformWithState', () => {
  it("update mode: the stream's last row per key equals the batch query's", async () => {
    await fc.assert(
      fc.asyncProperty(streams, async ({ events, cuts }) => {
        const rows = await streamed(microBatches(events, cuts));
        const last = new Map(rows.map((r) => [r.category, r]));
        const batch = await query(new SluiceSession().createDataFrame(events, SCHEMA)).collect();
        expect(canonical([...last.values()])).toEqual(canonical(batch));
      }),
      { numRuns: 25 },
    );
  });
});
