/**
 * The DataFrame methods with no SQL form, checked against DuckDB: `groupBy().pivot()`, `na.fill` /
 * `na.drop` and `describe` / `summary` run on generated tables (nulls, NaN and null keys included,
 * several seeds and sizes), and DuckDB answers the same question in its own dialect, written beside
 * each case: conditional aggregation (`FILTER`) or its PIVOT statement for pivot, COALESCE and WHERE
 * for na, plain aggregates for describe. Where Spark and DuckDB differ (count under PivotFirst, NaN
 * as a missing value, casts that truncate), the DuckDB form says Spark's rule.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
} from '../../core/index.js';
import { seededRandom } from '../../core/functions/seeded-random.js';
import { duckAnswer, loadDuckTable, openDuckDB } from '../support/duckdb-tables.js';

const SCHEMA = 'k STRING, p INT, x INT, y DOUBLE, b BIGINT, name STRING, ok BOOLEAN, num STRING';

/** The generated tables: a single row (stddev null), small ones, and one without NaN. */
const TABLES = [
  { seed: 1, size: 1, nan: true },
  { seed: 2, size: 9, nan: true },
  { seed: 3, size: 80, nan: true },
  { seed: 4, size: 300, nan: true },
  { seed: 5, size: 500, nan: false },
];

/** Rows with nulls in every column; `p` takes 0..2 (never 3, the pivot value with no rows). */
function generate(seed: number, size: number, nan: boolean): RowObject[] {
  const next = seededRandom(seed);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)];
  const maybe = <T>(nullShare: number, value: () => T): T | null =>
    next() < nullShare ? null : value();
  return Array.from({ length: size }, () => ({
    k: pick(['a', 'b', 'c', null]),
    p: pick([0, 1, 2, null]),
    x: maybe(0.2, () => Math.floor(next() * 101) - 50),
    y: maybe(0.15, () => (nan && next() < 0.1 ? Number.NaN : next() * 200 - 40)),
    b: maybe(0.2, () => Math.floor(next() * 2e12) - 5e11),
    name: maybe(0.25, () => pick(['ann', 'bob', 'Cy', 'dee', 'éva'])),
    ok: maybe(0.2, () => next() < 0.5),
    num: maybe(0.2, () => pick(['12.5', '-3', ' 7', '1e2', 'x', '', '0.25'])),
  }));
}

/** The columns describe and summary pick by default: the numeric and the string ones. */
const DESCRIBED = ['k', 'p', 'x', 'y', 'b', 'name', 'num'];
const NUMERIC = new Set(['p', 'x', 'y', 'b']);
/** percentile_approx's default accuracy, the one summary uses. */
const ACCURACY = 10_000;
let duck: DuckDBConnection;
const session = new SluiceSession();

beforeAll(async () => {
  duck = await openDuckDB();
});

afterAll(() => duck.closeSync());

/** A cell compared across the engines: numbers to 12 significant digits, NaN as itself. */
function cell(v: unknown): unknown {
  if (typeof v !== 'number') return v;
  return Number.isNaN(v) ? 'NaN' : Number(v.toPrecision(12));
}

/** Rows as sorted texts of their cells in column order. */
function canonical(rows: readonly (readonly unknown[])[]): string[] {
  return rows.map((r) => JSON.stringify(r.map(cell))).sort();
}

/** `ours` has DuckDB's column names, in its order, and the same rows (in any order). */
async function expectDuckAnswer(ours: DataFrame, duckSql: string): Promise<void> {
  const theirs = await duckAnswer(duck, duckSql);
  expect(ours.columns).toEqual(theirs.columns);
  const rows = (await ours.collect()).map((r) => ours.columns.map((c) => r[c]));
  expect(canonical(rows)).toEqual(canonical(theirs.rows));
}

/** In DuckDB, a double column's value is present when not null and not NaN, as in Spark's na. */
const Y_PRESENT = '(y IS NOT NULL AND NOT isnan(y))';

/** A described column read as a double, as Spark's describe does (a string by try_cast). */
const asDouble = (c: string) => (NUMERIC.has(c) ? `${c}::DOUBLE` : `TRY_CAST(${c} AS DOUBLE)`);

/** The sample standard deviation: DuckDB's refuses NaN, Spark's is NaN then. */
const stddevOf = (d: string) =>
  `CASE WHEN bool_or(isnan(${d})) THEN 'NaN'::DOUBLE ELSE stddev_samp(${d}) FILTER (NOT isnan(${d})) END`;

/** The rows of a describe or summary, by statistic. */
async function statistics(described: DataFrame): Promise<Map<string, RowObject>> {
  return new Map((await described.collect()).map((r) => [r.summary as string, r]));
}

/** Spark's string for a mean or stddev is DuckDB's double, to 10 significant digits. */
function expectClose(ours: unknown, theirs: unknown): void {
  if (theirs === null) return expect(ours).toBeNull();
  const expected = theirs as number;
  if (Number.isNaN(expected)) return expect(ours).toBe('NaN');
  expect(typeof ours).toBe('string');
  expect(Math.abs(Number(ours) - expected)).toBeLessThanOrEqual(
    1e-10 * Math.max(1, Math.abs(expected)),
  );
}

/** Spark's string for min or max is DuckDB's value: a number for numeric columns, else the string. */
function expectSameValue(column: string, ours: unknown, theirs: unknown): void {
  if (theirs === null) return expect(ours).toBeNull();
  expect(NUMERIC.has(column) ? Number(ours) : ours).toBe(theirs);
}

/**
 * Spark's approximate percentile `ours` (a string) of `column` at `fraction` is a value at the rank
 * ceil(fraction * n) among its n values (as doubles), within n / accuracy ranks: DuckDB counts the
 * values below and up to it. DuckDB's own quantile_disc picks rank floor((n - 1) * fraction) + 1,
 * which can be one off Spark's, so the ranks are counted rather than the values compared.
 */
async function expectPercentile(column: string, fraction: number, ours: unknown): Promise<void> {
  const d = asDouble(column);
  if (ours === null) {
    const [[n]] = (await duckAnswer(duck, `SELECT count(${d}) FROM t`)).rows;
    return expect(n).toBe(0);
  }
  const v = Number(ours);
  const literal = Number.isFinite(v) ? String(v) : `'${v}'::DOUBLE`;
  const [[n, below, upto]] = (
    await duckAnswer(
      duck,
      `SELECT count(${d}), count(*) FILTER (${d} < ${literal}), count(*) FILTER (${d} <= ${literal}) FROM t`,
    )
  ).rows as number[][];
  const rank = Math.ceil(fraction * n);
  expect(rank).toBeGreaterThanOrEqual(below + 1 - n / ACCURACY);
  expect(rank).toBeLessThanOrEqual(upto + n / ACCURACY);
}

describe.each(TABLES)('on $size generated rows (seed $seed)', ({ seed, size, nan }) => {
  const rows = generate(seed, size, nan);
  const t = session.createDataFrame(rows, SCHEMA);

  beforeAll(async () => {
    await loadDuckTable(duck, 't', t.schema, rows);
  });

  describe('groupBy().pivot()', () => {
    it('sum: a value without rows (3) and a key without rows for a value are null; null keys group', async () => {
      await expectDuckAnswer(
        t.groupBy('k').pivot('p', [0, 1, 2, 3]).sum('x'),
        `SELECT k, sum(x) FILTER (p = 0) AS "0", sum(x) FILTER (p = 1) AS "1",
           sum(x) FILTER (p = 2) AS "2", sum(x) FILTER (p = 3) AS "3" FROM t GROUP BY k`,
      );
    });

    it('count is null, not 0, where a key has no rows for a value (PivotFirst); null matches null', async () => {
      const countWhere = (when: string, name: string) =>
        `CASE WHEN count(*) FILTER (${when}) > 0 THEN count(*) FILTER (${when}) END AS "${name}"`;
      await expectDuckAnswer(
        t.groupBy('k').pivot('p', [1, 3, null]).count(),
        `SELECT k, ${countWhere('p = 1', '1')}, ${countWhere('p = 3', '3')},
           ${countWhere('p IS NULL', 'null')} FROM t GROUP BY k`,
      );
    });

    it('avg over doubles with NaN, grouped by two keys', async () => {
      await expectDuckAnswer(
        t.groupBy('k', 'ok').pivot('p', [0, 2]).avg('y'),
        `SELECT k, ok, avg(y) FILTER (p = 0) AS "0", avg(y) FILTER (p = 2) AS "2"
           FROM t GROUP BY k, ok`,
      );
    });

    it('min and max at once name their columns value_aggregate; NaN is the largest double', async () => {
      await expectDuckAnswer(
        t.groupBy('ok').pivot('p', [0, 1, 3]).agg(min('y'), max('x'), max('y')),
        `SELECT ok,
           min(y) FILTER (p = 0) AS "0_min(y)", max(x) FILTER (p = 0) AS "0_max(x)",
           max(y) FILTER (p = 0) AS "0_max(y)",
           min(y) FILTER (p = 1) AS "1_min(y)", max(x) FILTER (p = 1) AS "1_max(x)",
           max(y) FILTER (p = 1) AS "1_max(y)",
           min(y) FILTER (p = 3) AS "3_min(y)", max(x) FILTER (p = 3) AS "3_max(x)",
           max(y) FILTER (p = 3) AS "3_max(y)"
         FROM t GROUP BY ok`,
      );
    });

    it('beside a string aggregate (not PivotFirst), count is 0 where a key has no rows for a value', async () => {
      const perValue = (when: string, value: string) =>
        `count(x) FILTER (${when}) AS "${value}_count(x)", sum(b) FILTER (${when}) AS "${value}_sum(b)",
         min(name) FILTER (${when}) AS "${value}_min(name)", max(name) FILTER (${when}) AS "${value}_max(name)"`;
      await expectDuckAnswer(
        t
          .groupBy('ok')
          .pivot('k', ['a', 'c', 'zz', null])
          .agg(count('x'), sum('b'), min('name'), max('name')),
        `SELECT ok, ${perValue("k = 'a'", 'a')}, ${perValue("k = 'c'", 'c')},
           ${perValue("k = 'zz'", 'zz')}, ${perValue('k IS NULL', 'null')} FROM t GROUP BY ok`,
      );
    });

    it("agrees with DuckDB's PIVOT statement, aliased aggregates naming the columns", async () => {
      await expectDuckAnswer(
        t.groupBy('k').pivot('p', [0, 1, 3]).agg(sum('x').alias('total'), max('y').alias('top')),
        'PIVOT t ON p IN (0, 1, 3) USING sum(x) AS total, max(y) AS top GROUP BY k',
      );
    });

    it('without keys gives one row, of nulls for an empty table', async () => {
      await expectDuckAnswer(
        t.groupBy().pivot('k', ['a', 'b']).agg(avg('x'), count()),
        `SELECT avg(x) FILTER (k = 'a') AS "a_avg(x)",
           CASE WHEN count(*) FILTER (k = 'a') > 0 THEN count(*) FILTER (k = 'a') END AS "a_count(1)",
           avg(x) FILTER (k = 'b') AS "b_avg(x)",
           CASE WHEN count(*) FILTER (k = 'b') > 0 THEN count(*) FILTER (k = 'b') END AS "b_count(1)"
         FROM t`,
      );
      await expectDuckAnswer(
        t.filter(col('x').gt(1000)).groupBy().pivot('k', ['a']).sum('x'),
        `SELECT sum(x) FILTER (k = 'a') AS a FROM t WHERE x > 1000`,
      );
    });
  });

  describe('na.fill and na.drop', () => {
    it('fill(number) fills every numeric column, NaN too, cast to each column (truncating)', async () => {
      await expectDuckAnswer(
        t.na.fill(-2.5),
        // Spark's cast of -2.5 to an integer truncates to -2, DuckDB's rounds: -2 is written out
        `SELECT k, coalesce(p, -2) AS p, coalesce(x, -2) AS x,
           CASE WHEN ${Y_PRESENT} THEN y ELSE -2.5 END AS y, coalesce(b, -2) AS b, name, ok, num
         FROM t`,
      );
    });

    it('fill(string) fills the string columns, fill(boolean, subset) the boolean ones of subset', async () => {
      await expectDuckAnswer(
        t.fillna('n/a').fillna(true, ['ok', 'x']),
        `SELECT coalesce(k, 'n/a') AS k, p, x, y, b, coalesce(name, 'n/a') AS name,
           coalesce(ok, true) AS ok, coalesce(num, 'n/a') AS num FROM t`,
      );
    });

    it('fill(number, subset) fills the numeric columns of subset, names matched ignoring case', async () => {
      await expectDuckAnswer(
        t.na.fill(7, ['y', 'B', 'name']),
        `SELECT k, p, x, CASE WHEN ${Y_PRESENT} THEN y ELSE 7 END AS y, coalesce(b, 7) AS b,
           name, ok, num FROM t`,
      );
    });

    it('fill(per column) casts each value to its column', async () => {
      await expectDuckAnswer(
        t.na.fill({ x: 3.7, y: 0, name: 'none', ok: false }),
        `SELECT k, p, coalesce(x, 3) AS x, CASE WHEN ${Y_PRESENT} THEN y ELSE 0 END AS y, b,
           coalesce(name, 'none') AS name, coalesce(ok, false) AS ok, num FROM t`,
      );
    });

    it('drop() drops a row missing any value, NaN counting as missing', async () => {
      await expectDuckAnswer(
        t.na.drop(),
        `SELECT * FROM t WHERE k IS NOT NULL AND p IS NOT NULL AND x IS NOT NULL AND ${Y_PRESENT}
           AND b IS NOT NULL AND name IS NOT NULL AND ok IS NOT NULL AND num IS NOT NULL`,
      );
    });

    it('drop(any, subset) and dropna(all, subset) look only at subset', async () => {
      await expectDuckAnswer(
        t.na.drop('any', undefined, ['x', 'y']),
        `SELECT * FROM t WHERE x IS NOT NULL AND ${Y_PRESENT}`,
      );
      await expectDuckAnswer(
        t.dropna('all', undefined, ['x', 'y']),
        `SELECT * FROM t WHERE x IS NOT NULL OR ${Y_PRESENT}`,
      );
    });

    it('thresh keeps a row with at least that many present values, whatever how says', async () => {
      await expectDuckAnswer(
        t.na.drop('any', 6),
        `SELECT * FROM t WHERE (k IS NOT NULL)::INT + (p IS NOT NULL)::INT + (x IS NOT NULL)::INT
           + ${Y_PRESENT}::INT + (b IS NOT NULL)::INT + (name IS NOT NULL)::INT
           + (ok IS NOT NULL)::INT + (num IS NOT NULL)::INT >= 6`,
      );
      await expectDuckAnswer(
        t.dropna('all', 2, ['x', 'y', 'name', 'ok']),
        `SELECT * FROM t WHERE (x IS NOT NULL)::INT + ${Y_PRESENT}::INT
           + (name IS NOT NULL)::INT + (ok IS NOT NULL)::INT >= 2`,
      );
    });
  });

  describe('describe and summary', () => {
    it('describe gives count, mean, stddev, min and max of the numeric and string columns', async () => {
      const described = t.describe();
      expect(described.columns).toEqual(['summary', ...DESCRIBED]);
      const ours = await statistics(described);
      expect([...ours.keys()]).toEqual(['count', 'mean', 'stddev', 'min', 'max']);
      for (const c of DESCRIBED) {
        const d = asDouble(c);
        const [[n, mean, stddev, least, most]] = (
          await duckAnswer(
            duck,
            `SELECT count(${c}), avg(${d}), ${stddevOf(d)}, min(${c}), max(${c}) FROM t`,
          )
        ).rows;
        expect(ours.get('count')![c]).toBe(String(n));
        expectClose(ours.get('mean')![c], mean);
        expectClose(ours.get('stddev')![c], stddev);
        expectSameValue(c, ours.get('min')![c], least);
        expectSameValue(c, ours.get('max')![c], most);
      }
    });

    it("summary adds the quartiles, percentile_approx's within its rank bound, of strings as doubles", async () => {
      const ours = await statistics(t.summary());
      expect([...ours.keys()]).toEqual([
        'count',
        'mean',
        'stddev',
        'min',
        '25%',
        '50%',
        '75%',
        'max',
      ]);
      for (const c of DESCRIBED) {
        const [[mean, stddev]] = (
          await duckAnswer(duck, `SELECT avg(${asDouble(c)}), ${stddevOf(asDouble(c))} FROM t`)
        ).rows;
        expectClose(ours.get('mean')![c], mean);
        expectClose(ours.get('stddev')![c], stddev);
        for (const fraction of [0.25, 0.5, 0.75]) {
          await expectPercentile(c, fraction, ours.get(`${fraction * 100}%`)![c]);
        }
      }
    });

    it('summary gives the statistics named, in any case, count_distinct and approx_count_distinct too', async () => {
      const named = ['MEAN', '10%', '90%', 'count_distinct', 'approx_count_distinct'];
      const ours = await statistics(t.summary(...named));
      expect([...ours.keys()]).toEqual(named);
      for (const c of DESCRIBED) {
        const [[mean, distinct]] = (
          await duckAnswer(duck, `SELECT avg(${asDouble(c)}), count(DISTINCT ${c}) FROM t`)
        ).rows as number[][];
        expectClose(ours.get('MEAN')![c], mean);
        await expectPercentile(c, 0.1, ours.get('10%')![c]);
        await expectPercentile(c, 0.9, ours.get('90%')![c]);
        expect(ours.get('count_distinct')![c]).toBe(String(distinct));
        // approx_count_distinct's default relative standard deviation is 0.05
        const approx = Number(ours.get('approx_count_distinct')![c]);
        expect(Math.abs(approx - distinct)).toBeLessThanOrEqual(3 * 0.05 * distinct);
      }
    });
  });
});
