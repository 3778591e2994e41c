import { describe, expect, it } from 'vitest';
import {
  AnalysisError,
  col,
  collect_list,
  count,
  max,
  InvalidOptionError,
  SluiceSession,
  sum,
  UnsupportedOperationError,
} from '../../core/index.js';

const session = new SluiceSession();
const sales = session.createDataFrame(
  [
    { shop: 'a', year: 2024, amount: 10, item: 'x' },
    { shop: 'a', year: 2024, amount: 5, item: null },
    { shop: 'a', year: 2025, amount: null, item: 'y' },
    { shop: 'b', year: 2025, amount: 7, item: 'z' },
    { shop: 'b', year: null, amount: 1, item: 'w' },
  ],
  'shop STRING, year INT, amount INT, item STRING',
);

describe('groupBy().pivot()', () => {
  it('spreads each value into a column, null where a group has no rows with it', async () => {
    const rows = await sales
      .groupBy('shop')
      .pivot('year', [2024, 2025, 2026])
      .sum('amount')
      .collect();
    expect(rows).toEqual([
      { shop: 'a', 2024: 15, 2025: null, 2026: null },
      { shop: 'b', 2024: null, 2025: 7, 2026: null },
    ]);
  });

  it('count is null, not 0, for a missing value, as in Spark; a null value matches null', async () => {
    const pivoted = sales.groupBy('shop').pivot(col('year'), [2025, null]).count();
    expect(pivoted.columns).toEqual(['shop', '2025', 'null']);
    expect(await pivoted.collect()).toEqual([
      { shop: 'a', 2025: 1, null: null },
      { shop: 'b', 2025: 1, null: 1 },
    ]);
  });

  it('names value_aggregate columns for several aggregates, and pivots without keys', async () => {
    const pivoted = sales
      .groupBy()
      .pivot('shop', ['a', 'b'])
      .agg(sum('amount').alias('total'), count('item'));
    expect(pivoted.columns).toEqual(['a_total', 'a_count(item)', 'b_total', 'b_count(item)']);
    expect(await pivoted.collect()).toEqual([
      { a_total: 15, 'a_count(item)': 2, b_total: 8, 'b_count(item)': 2 },
    ]);
  });

  it('beside a string or array aggregate, count is 0 and collect_list empty for a missing value', async () => {
    // Spark's PivotFirst spreads only numbers and booleans; otherwise each input is conditioned
    const rows = await sales
      .groupBy('shop')
      .pivot('year', [2025, 2026])
      .agg(count('item'), max('item'), collect_list('amount'))
      .collect();
    expect(rows).toEqual([
      {
        shop: 'a',
        '2025_count(item)': 1,
        '2025_max(item)': 'y',
        '2025_collect_list(amount)': [],
        '2026_count(item)': 0,
        '2026_max(item)': null,
        '2026_collect_list(amount)': [],
      },
      {
        shop: 'b',
        '2025_count(item)': 1,
        '2025_max(item)': 'z',
        '2025_collect_list(amount)': [7],
        '2026_count(item)': 0,
        '2026_max(item)': null,
        '2026_collect_list(amount)': [],
      },
    ]);
  });

  it('refuses a missing value list, an unknown column, a second pivot and streams', () => {
    expect(() => sales.groupBy('shop').pivot('year')).toThrow(InvalidOptionError);
    expect(() => sales.groupBy('shop').pivot('year')).toThrow(/pivot on 'year' needs its values/);
    expect(() => sales.groupBy('shop').pivot('nope', [1])).toThrow(AnalysisError);
    expect(() => sales.groupBy('shop').pivot('year', [1]).pivot('item', ['x'])).toThrow(
      /pivot was already called/,
    );
    expect(() =>
      sales
        .groupBy('shop')
        .pivot('year', [1])
        .transformWithState({} as never, {
          timeMode: 'none',
          outputMode: 'append',
          schema: 'n INT',
        }),
    ).toThrow(/transformWithState cannot follow pivot/);
    const stream = session.readStream.memory(session.memoryStream('k STRING, v INT'));
    expect(() => stream.groupBy('k').pivot('v', [1])).toThrow(UnsupportedOperationError);
    expect(() => stream.groupBy('k').pivot('v', [1])).toThrow(
      /not supported on streaming DataFrames/,
    );
  });
});
