/**
 * The statistical aggregates in a batch groupBy and in SQL: collect_set, approx_count_distinct,
 * percentile_approx and the variance family, with Spark's nulls (no rows, a single row), types
 * and refusals of bad arguments.
 */
import { describe, expect, it } from 'vitest';
import {
  approx_count_distinct,
  col,
  collect_set,
  type Column,
  percentile_approx,
  type RowObject,
  SluiceSession,
  stddev,
  stddev_pop,
  stddev_samp,
  var_pop,
  var_samp,
  variance,
} from '../../core/index.js';
import { AnalysisError } from '../../core/errors.js';
import '../../core/sql/index.js';

const SCHEMA = 'g STRING, x INT, d DOUBLE, m MAP<STRING, INT>';
const rows: RowObject[] = [
  { g: 'a', x: 1, d: 1.5, m: null },
  { g: 'a', x: 3, d: null, m: null },
  { g: 'a', x: null, d: 2.5, m: null },
  { g: 'a', x: 3, d: 4.5, m: null },
  { g: 'one', x: 7, d: 7, m: null },
  { g: 'none', x: null, d: null, m: null },
];

async function perGroup(...aggregates: Column[]): Promise<Record<string, RowObject>> {
  const session = new SluiceSession();
  const out = await session
    .createDataFrame(rows, SCHEMA)
    .groupBy('g')
    .agg(...aggregates)
    .collect();
  return Object.fromEntries(out.map((r) => [r.g as string, r]));
}

describe('the variance family', () => {
  it('gives sample and population statistics of the non-null values, as doubles', async () => {
    const got = await perGroup(
      var_samp('x').alias('vs'),
      var_pop('x').alias('vp'),
      stddev_samp('x').alias('ss'),
      stddev_pop('x').alias('sp'),
      variance('d').alias('v'),
      stddev('d').alias('s'),
    );
    // x in a: 1, 3, 3 (mean 7/3, M2 = 8/3); d in a: 1.5, 2.5, 4.5 (mean 17/6, M2 = 14/3)
    expect(got.a.vs).toBeCloseTo(4 / 3, 12);
    expect(got.a.vp).toBeCloseTo(8 / 9, 12);
    expect(got.a.ss).toBeCloseTo(Math.sqrt(4 / 3), 12);
    expect(got.a.sp).toBeCloseTo(Math.sqrt(8 / 9), 12);
    expect(got.a.v).toBeCloseTo(7 / 3, 12);
    expect(got.a.s).toBeCloseTo(Math.sqrt(7 / 3), 12);
  });

  it("is null for a sample of one row (Spark 4's default) and 0 for its population", async () => {
    const got = await perGroup(var_samp('x'), stddev('x'), var_pop('x'), stddev_pop('x'));
    expect(got.one).toEqual({
      g: 'one',
      'var_samp(x)': null,
      'stddev(x)': null,
      'var_pop(x)': 0,
      'stddev_pop(x)': 0,
    });
  });

  it('is null for a group without non-null values', async () => {
    const got = await perGroup(variance('x'), var_pop('x'), stddev_pop('x'));
    expect(got.none).toEqual({
      g: 'none',
      'variance(x)': null,
      'var_pop(x)': null,
      'stddev_pop(x)': null,
    });
  });

  it('refuses a column that is not numeric, naming it', async () => {
    await expect(perGroup(stddev('g'))).rejects.toThrow(/stddev\(g\) needs a numeric column/);
  });
});

describe('collect_set', () => {
  it('collects each distinct non-null value once; an all-null group gives an empty array', async () => {
    const got = await perGroup(collect_set('x').alias('xs'));
    expect(got.a.xs).toEqual([1, 3]);
    expect(got.one.xs).toEqual([7]);
    expect(got.none.xs).toEqual([]);
  });

  it('refuses map values, which have no equality', async () => {
    await expect(perGroup(collect_set('m'))).rejects.toThrow(AnalysisError);
    await expect(perGroup(collect_set('m'))).rejects.toThrow(/cannot collect map values/);
  });
});

describe('approx_count_distinct', () => {
  it('counts small groups exactly and gives 0 for an all-null group', async () => {
    const got = await perGroup(approx_count_distinct('x').alias('n'));
    expect(got.a.n).toBe(2);
    expect(got.one.n).toBe(1);
    expect(got.none.n).toBe(0);
  });

  it('stays within three relative standard deviations on 100 000 distinct values', async () => {
    const session = new SluiceSession();
    const many = Array.from({ length: 200_000 }, (_, i) => ({ v: `user-${i % 100_000}` }));
    const df = session.createDataFrame(many, 'v STRING');
    for (const rsd of [0.05, 0.01]) {
      const [row] = await df.agg(approx_count_distinct('v', rsd).alias('n')).collect();
      expect(Math.abs((row.n as number) - 100_000)).toBeLessThan(3 * rsd * 100_000);
    }
  });

  it('refuses an rsd that leaves fewer than 4 bits of addressing, or one that is a column', async () => {
    await expect(perGroup(approx_count_distinct('x', 0.5))).rejects.toThrow(
      /rsd 0.5 is too large.*at most 0.39/,
    );
    await expect(perGroup(approx_count_distinct('x', 0))).rejects.toThrow(/positive number/);
    const session = new SluiceSession();
    session.createDataFrame(rows, SCHEMA).createOrReplaceTempView('t');
    await expect(async () =>
      session.sql('SELECT approx_count_distinct(x, d) FROM t').collect(),
    ).rejects.toThrow(/rsd must be a constant number, got d/);
  });
});

describe('percentile_approx', () => {
  it("gives a value of the input in the input's type, the smallest at or above the rank", async () => {
    const got = await perGroup(
      percentile_approx('x', 0.5).alias('median'),
      percentile_approx('x', [0, 0.5, 1], 100).alias('spread'),
      percentile_approx('d', 0.9).alias('p90'),
    );
    expect(got.a.median).toBe(3); // of 1, 3, 3 the rank ceil(0.5 * 3) = 2 holds 3
    expect(got.a.spread).toEqual([1, 3, 3]);
    expect(got.a.p90).toBe(4.5);
    expect(got.none.median).toBeNull();
    expect(got.none.spread).toBeNull();
  });

  it('names the column as Spark does, with the accuracy, in the API and in SQL', async () => {
    const session = new SluiceSession();
    const df = session.createDataFrame(rows, SCHEMA);
    df.createOrReplaceTempView('t');
    expect(df.agg(percentile_approx('x', 0.5)).columns).toEqual([
      'percentile_approx(x, 0.5, 10000)',
    ]);
    const sql = session.sql(
      'SELECT g, percentile_approx(x, 0.25), stddev_pop(d) FROM t GROUP BY g',
    );
    expect(sql.columns).toEqual(['g', 'percentile_approx(x, 0.25, 10000)', 'stddev_pop(d)']);
    const byGroup = Object.fromEntries((await sql.collect()).map((r) => [r.g, r]));
    expect(byGroup.a['percentile_approx(x, 0.25, 10000)']).toBe(1);
  });

  it('refuses percentages outside [0, 1], columns as percentages, and a bad accuracy', async () => {
    await expect(perGroup(percentile_approx('x', 1.5))).rejects.toThrow(
      /percentage must be a constant in \[0.0, 1.0\]/,
    );
    await expect(perGroup(percentile_approx('x', [0.5, -0.1]))).rejects.toThrow(/percentage/);
    await expect(perGroup(percentile_approx('x', 0.5, 0))).rejects.toThrow(
      /accuracy must be an integer literal in \(0, 2147483647\], got 0/,
    );
    await expect(perGroup(percentile_approx('g', 0.5))).rejects.toThrow(
      /needs a numeric, date or timestamp column, got string/,
    );
  });

  it('keeps every answer within its rank error on 50 000 values at accuracy 100', async () => {
    const session = new SluiceSession();
    const n = 50_000;
    const values = Array.from({ length: n }, (_, i) => ({ v: (i * 7919) % n }));
    const percentages = [0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99];
    const [row] = await session
      .createDataFrame(values, 'v INT')
      .agg(percentile_approx(col('v'), percentages, 100).alias('p'))
      .collect();
    // v is a permutation of 0 .. n-1, so a value's rank is the value plus one
    (row.p as number[]).forEach((value, i) => {
      expect(Math.abs(value + 1 - Math.ceil(percentages[i] * n))).toBeLessThanOrEqual(n / 100);
    });
  });
});
