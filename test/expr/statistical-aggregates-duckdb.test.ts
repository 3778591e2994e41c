/**
 * The statistical aggregates checked against DuckDB on the same generated table (nulls included):
 * the variance family to 12 significant digits; approx_count_distinct within three relative
 * standard deviations of DuckDB's exact distinct count; percentile_approx's answers at ranks
 * DuckDB counts, within the rank error of their accuracy.
 */
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RowObject, SluiceSession } from '../../core/index.js';
import '../../core/sql/index.js';

const GROUPS = 5;
const ROWS = 30_000;
const ACCURACY = 200;
const PERCENTAGES = [0.01, 0.2, 0.5, 0.8, 0.99];

/** A deterministic generator (mulberry32), so a failure reproduces. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const next = random(7);
const rows: RowObject[] = Array.from({ length: ROWS }, (_, i) => ({
  g: i % GROUPS,
  x: next() < 0.05 ? null : Math.floor(next() * 1000 * (1 + (i % GROUPS))),
  d: next() < 0.05 ? null : 1e6 + next() * 100,
}));

let duck: DuckDBConnection;
let session: SluiceSession;

beforeAll(async () => {
  duck = await (await DuckDBInstance.create(':memory:')).connect();
  session = new SluiceSession();
  session.createDataFrame(rows, 'g INT, x INT, d DOUBLE').createOrReplaceTempView('t');
  await duck.run('CREATE TABLE t (g INTEGER, x INTEGER, d DOUBLE)');
  const values = rows.map((r) => `(${r.g as number}, ${r.x ?? 'NULL'}, ${r.d ?? 'NULL'})`);
  await duck.run(`INSERT INTO t VALUES ${values.join(', ')}`);
});

afterAll(() => duck.closeSync());

async function ours(select: string): Promise<Map<number, RowObject>> {
  const out = await session.sql(`SELECT g, ${select} FROM t GROUP BY g`).collect();
  return new Map(out.map((r) => [r.g as number, r]));
}

async function theirs(select: string): Promise<Map<number, Record<string, unknown>>> {
  const reader = await duck.runAndReadAll(`SELECT g, ${select} FROM t GROUP BY g`);
  return new Map(reader.getRowObjectsJS().map((r) => [Number(r.g), r]));
}

describe('the statistical aggregates checked against DuckDB', () => {
  it('the variance family agrees to 12 significant digits, on a column with a large mean', async () => {
    const names = ['stddev', 'stddev_samp', 'stddev_pop', 'variance', 'var_samp', 'var_pop'];
    const select = names.flatMap((f) => [`${f}(x) AS ${f}_x`, `${f}(d) AS ${f}_d`]).join(', ');
    const [a, b] = await Promise.all([ours(select), theirs(select)]);
    expect(a.size).toBe(GROUPS);
    for (const [g, row] of a) {
      for (const column of names.flatMap((f) => [`${f}_x`, `${f}_d`])) {
        const value = row[column];
        const expected = Number(b.get(g)![column]);
        expect(Math.abs((value as number) - expected) / expected).toBeLessThan(1e-12);
      }
    }
  });

  it('approx_count_distinct stays within three relative standard deviations of the exact count', async () => {
    const [a, b] = await Promise.all([
      ours('approx_count_distinct(x) AS n, approx_count_distinct(x, 0.02) AS fine'),
      theirs('count(DISTINCT x) AS n'),
    ]);
    for (const [g, row] of a) {
      const exact = Number(b.get(g)!.n);
      expect(Math.abs((row.n as number) - exact)).toBeLessThan(3 * 0.05 * exact);
      expect(Math.abs((row.fine as number) - exact)).toBeLessThan(3 * 0.02 * exact);
    }
  });

  it('percentile_approx answers values whose DuckDB ranks are within n / accuracy', async () => {
    const answers = await ours(
      `percentile_approx(x, ${PERCENTAGES[0]}, ${ACCURACY}) AS p0, ` +
        PERCENTAGES.slice(1)
          .map((p, i) => `percentile_approx(x, ${p}, ${ACCURACY}) AS p${i + 1}`)
          .join(', '),
    );
    for (const [g, row] of answers) {
      for (const [i, p] of PERCENTAGES.entries()) {
        const v = row[`p${i}`] as number;
        const [ranks] = (
          await duck.runAndReadAll(
            `SELECT count(x) AS n, count(*) FILTER (x < ${v}) AS below, count(*) FILTER (x <= ${v}) AS upto FROM t WHERE g = ${g}`,
          )
        ).getRowObjectsJS();
        const [n, below, upto] = [ranks.n, ranks.below, ranks.upto].map(Number);
        const rank = Math.ceil(p * n);
        // v occupies ranks below + 1 .. upto; the wanted rank is at most n / accuracy away
        expect(rank).toBeGreaterThanOrEqual(below + 1 - n / ACCURACY);
        expect(rank).toBeLessThanOrEqual(upto + n / ACCURACY);
      }
    }
  });
});
