import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rowsToValuesBatch } from '../../core/columnar/batch-rows.js';
import type { ColumnBatch } from '../../core/columnar/column-batch.js';
import { rowsToBatch } from '../../core/columnar/column-builder.js';
import type { DataFrame } from '../../core/api/dataframe.js';
import type { GroupedData } from '../../core/api/grouped-data.js';
import type { ExecutionContext } from '../../core/exec/execution-context.js';
import type { GroupFold } from '../../core/exec/group-fold.js';
import { type Group, Grouping } from '../../core/exec/grouping.js';
import { IntegerKeyFold } from '../../core/exec/integer-key-fold.js';
import type { PhysicalOperator } from '../../core/exec/physical-operator.js';
import { RowKeyFold } from '../../core/exec/row-key-fold.js';
import {
  avg,
  col,
  collect_list,
  count,
  countDistinct,
  first,
  lit,
  max,
  min,
  SluiceSession,
  sum,
  window,
} from '../../core/index.js';
import type { Aggregate } from '../../core/plan/logical-plan.js';
import { planScope } from '../../core/plan/plan-scope.js';
import { KeyedStateStore } from '../../core/state/keyed-state-store.js';
import type { Row } from '../../core/types/row.js';

const MINUTE = 60_000_000;
const session = new SluiceSession();
const events = session.createDataFrame([], 't TIMESTAMP, s STRING, n INT, x DOUBLE, b BOOLEAN');
const watermarked = events.withWatermark('t', '10 minutes');
const aggregates = [
  count(),
  count('n'),
  sum('n'),
  sum('x'),
  avg('x'),
  min('x'),
  max('n'),
  min('s'),
  first('s'),
  countDistinct('n'),
  collect_list('n'),
];

const rows: fc.Arbitrary<Row[]> = fc.array(
  fc.tuple(
    fc.option(
      fc.integer({ min: 0, max: 100 }).map((m) => m * MINUTE + 13),
      { freq: 8 },
    ),
    fc.option(fc.constantFrom('a', 'b', 'c', ''), { freq: 6 }),
    fc.option(fc.integer({ min: -3, max: 3 }), { freq: 6 }),
    fc.option(fc.constantFrom(0.1, 0.2, -0, 0, NaN, 1e16, 3e10, -2.5), { freq: 6 }),
    fc.option(fc.boolean(), { freq: 6 }),
  ),
  { maxLength: 60 },
);

/** One micro-batch: its rows, whether its columns are typed, and the watermark in force. */
const microBatch = fc.record({
  rows,
  typed: fc.boolean(),
  lateBefore: fc.constantFrom(undefined, 20 * MINUTE, 50 * MINUTE),
});

function aggregateNode(df: DataFrame): Aggregate {
  return df.plan as Aggregate;
}

function batchOf(node: Aggregate, input: Row[], typed: boolean): ColumnBatch {
  const schema = node.input.schema;
  return typed ? rowsToBatch(schema, input) : rowsToValuesBatch(schema, input);
}

function operatorOf(batch: ColumnBatch): PhysicalOperator {
  return { produceBatches: (_ctx, consume) => consume(batch) };
}

/** Folds one micro-batch as the streaming aggregate does; returns what it changed and counted. */
function foldInto(
  fold: GroupFold,
  store: KeyedStateStore,
  batch: ColumnBatch,
  lateBefore: number | undefined,
) {
  const ctx: ExecutionContext = { inputs: new Map(), counters: {} };
  const changed = new Map<string, Group>();
  let late: number;
  try {
    late = fold.fold(operatorOf(batch), ctx, store, lateBefore, changed);
  } catch (e) {
    return { failed: (e as Error).message };
  }
  for (const [key, group] of changed) store.put(key, group);
  return { changed: [...changed], late, counters: ctx.counters };
}

const groupings: [string, GroupedData][] = [
  [
    'a watermarked tumbling window and a string',
    watermarked.groupBy(window(col('t'), '10 minutes'), col('s')),
  ],
  ['a tumbling window without a watermark', events.groupBy(window(col('t'), '7 minutes'))],
  ['a string and a boolean', events.groupBy(col('s'), col('b'))],
  ['an int', events.groupBy(col('n'))],
  ['a double with NaN and -0', events.groupBy(col('x'))],
  ['a watermarked timestamp', watermarked.groupBy(col('t'), col('n'))],
  ['no key (a global aggregate)', events.groupBy()],
];

describe('the integer-key fold', () => {
  it.each(groupings)(
    'leaves the same groups, state and counts as the row fold, grouping by %s',
    (_name, grouped) => {
      const node = aggregateNode(grouped.agg(...aggregates));
      const clock = { batchTimestampMicros: 0 };
      const grouping = new Grouping(node, clock);
      const integerKeys = IntegerKeyFold.of(node, grouping, { ...planScope(node.input), clock });
      expect(integerKeys).toBeDefined();
      const rowFold = new RowKeyFold(grouping);
      fc.assert(
        fc.property(fc.array(microBatch, { minLength: 1, maxLength: 3 }), (batches) => {
          const byRows = new KeyedStateStore(4);
          const byIntegers = new KeyedStateStore(4);
          for (const { rows: input, typed, lateBefore } of batches) {
            const batch = batchOf(node, input, typed);
            const expected = foldInto(rowFold, byRows, batch, lateBefore);
            const actual = foldInto(integerKeys!, byIntegers, batch, lateBefore);
            expect(actual).toEqual(expected);
          }
          expect([...byIntegers.entries()]).toEqual([...byRows.entries()]);
        }),
        { numRuns: 150 },
      );
    },
  );

  it.each(groupings.slice(0, 3))(
    "fails with the row fold's first failure in row order, grouping by %s",
    (_name, grouped) => {
      // two inputs that fail with different messages: x beyond the int range, n + MAX_INT when n > 0
      const failing = [count(), max(col('x').cast('int')), sum(col('n').plus(lit(2 ** 31 - 1)))];
      const node = aggregateNode(grouped.agg(...failing));
      const clock = { batchTimestampMicros: 0 };
      const grouping = new Grouping(node, clock);
      const integerKeys = IntegerKeyFold.of(node, grouping, { ...planScope(node.input), clock })!;
      const rowFold = new RowKeyFold(grouping);
      let failures = 0;
      fc.assert(
        fc.property(microBatch, ({ rows: input, typed, lateBefore }) => {
          const batch = batchOf(node, input, typed);
          const expected = foldInto(rowFold, new KeyedStateStore(4), batch, lateBefore);
          const actual = foldInto(integerKeys, new KeyedStateStore(4), batch, lateBefore);
          if ('failed' in expected) failures++;
          expect(actual).toEqual(expected);
        }),
        { numRuns: 150 },
      );
      expect(failures).toBeGreaterThan(10);
    },
  );

  it('leaves sliding windows to the row fold', () => {
    const node = aggregateNode(
      watermarked.groupBy(window(col('t'), '10 minutes', '5 minutes')).agg(count()),
    );
    const clock = { batchTimestampMicros: 0 };
    const grouping = new Grouping(node, clock);
    expect(IntegerKeyFold.of(node, grouping, { ...planScope(node.input), clock })).toBeUndefined();
  });
});
