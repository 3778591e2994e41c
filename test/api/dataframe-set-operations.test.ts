import { describe, expect, it } from 'vitest';
import '../../core/sql/index.js';
import {
  AnalysisError,
  type RowObject,
  SluiceSession,
  UnsupportedOperationError,
} from '../../core/index.js';

const session = new SluiceSession();
const left = session.createDataFrame(
  [
    { k: 1, v: 'a' },
    { k: 1, v: 'a' },
    { k: 1, v: 'a' },
    { k: 2, v: null },
    { k: 2, v: null },
    { k: null, v: 'c' },
  ],
  'k INT, v STRING',
);
const right = session.createDataFrame(
  [
    { k: 1, v: 'a' },
    { k: 2, v: null },
    { k: 2, v: null },
    { k: 2, v: null },
    { k: 3, v: 'd' },
  ],
  'k INT, v STRING',
);

const sorted = (rows: RowObject[]) =>
  rows.map((r) => JSON.stringify(r)).sort((a, b) => a.localeCompare(b));

describe('except and intersect', () => {
  it('except keeps the distinct left rows missing on the right, nulls equal to nulls', async () => {
    expect(sorted(await left.except(right).collect())).toEqual(sorted([{ k: null, v: 'c' }]));
  });

  it('exceptAll keeps max(k - m, 0) copies of a row with k left and m right copies', async () => {
    expect(sorted(await left.exceptAll(right).collect())).toEqual(
      sorted([
        { k: 1, v: 'a' },
        { k: 1, v: 'a' },
        { k: null, v: 'c' },
      ]),
    );
  });

  it('intersect keeps the distinct rows on both sides', async () => {
    expect(sorted(await left.intersect(right).collect())).toEqual(
      sorted([
        { k: 1, v: 'a' },
        { k: 2, v: null },
      ]),
    );
  });

  it('intersectAll keeps min(k, m) copies', async () => {
    expect(sorted(await left.intersectAll(right).collect())).toEqual(
      sorted([
        { k: 1, v: 'a' },
        { k: 2, v: null },
        { k: 2, v: null },
      ]),
    );
  });

  it('agrees with SQL EXCEPT ALL and INTERSECT ALL', async () => {
    left.createOrReplaceTempView('l');
    right.createOrReplaceTempView('r');
    expect(
      sorted(await session.sql('SELECT * FROM l EXCEPT ALL SELECT * FROM r').collect()),
    ).toEqual(sorted(await left.exceptAll(right).collect()));
    expect(
      sorted(await session.sql('SELECT * FROM l INTERSECT ALL SELECT * FROM r').collect()),
    ).toEqual(sorted(await left.intersectAll(right).collect()));
  });

  it('matches columns by position and widens numbers', async () => {
    const longs = session.createDataFrame([{ n: 1, s: 'a' }], 'n BIGINT, s STRING');
    expect(await left.intersect(longs).collect()).toEqual([{ k: 1, v: 'a' }]);
  });

  it('refuses other column counts or types, naming both schemas', () => {
    const one = session.createDataFrame([{ k: 1 }], 'k INT');
    expect(() => left.except(one)).toThrow(AnalysisError);
    expect(() => left.except(one)).toThrow(
      /except needs the same number of columns on both sides: 2 vs 1; left \(k integer, v string\), right \(k integer\)/,
    );
    const swapped = session.createDataFrame([{ v: 'a', k: 1 }], 'v STRING, k INT');
    expect(() => left.intersectAll(swapped)).toThrow(
      /intersectAll column 1 \('k'\) is integer on the left and string on the right; left \(k integer, v string\), right \(v string, k integer\)/,
    );
  });

  it('on streams refuses what Spark refuses, naming the operation', () => {
    const stream = session.readStream.memory(session.memoryStream('k INT, v STRING'));
    expect(() => left.except(stream)).toThrow(UnsupportedOperationError);
    expect(() => left.except(stream)).toThrow(
      /except is not supported with a streaming DataFrame on the right/,
    );
    expect(() => stream.intersect(stream)).toThrow(
      /intersect is not supported between two streaming/,
    );
    expect(() => stream.exceptAll(right)).toThrow(/exceptAll is not supported on a streaming/);
    expect(stream.except(right).isStreaming).toBe(true);
    expect(stream.intersect(right).isStreaming).toBe(true);
  });
});
