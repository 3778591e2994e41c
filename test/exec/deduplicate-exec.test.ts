/**
 * Deduplication of a table: which row of each key survives, and what the key is.
 */
import { describe, expect, it } from 'vitest';
import { SluiceSession } from '../../core/index.js';
import { AnalysisError } from '../../core/errors.js';

const session = new SluiceSession();
const visits = session.createDataFrame(
  [
    { user: 'a', page: 'home', n: 1 },
    { user: 'b', page: 'home', n: 2 },
    { user: 'a', page: 'cart', n: 3 },
    { user: 'a', page: 'home', n: 4 },
    { user: null, page: 'home', n: 5 },
    { user: null, page: 'home', n: 6 },
  ],
  'user STRING, page STRING, n INT',
);
const ns = async (rows: Promise<Record<string, unknown>[]>) => (await rows).map((r) => r.n);

describe('dropDuplicates on a table', () => {
  const cases: ReadonlyArray<readonly [string, () => Promise<unknown[]>, number[]]> = [
    [
      'on one column, the first row of each value',
      () => ns(visits.dropDuplicates('user').collect()),
      [1, 2, 5],
    ],
    ['on two columns', () => ns(visits.dropDuplicates('user', 'page').collect()), [1, 2, 3, 5]],
    ['given as a list', () => ns(visits.dropDuplicates(['page']).collect()), [1, 3]],
    ['on a name in another case', () => ns(visits.dropDuplicates('USER').collect()), [1, 2, 5]],
    [
      'on every column when none is named',
      () => ns(visits.dropDuplicates().collect()),
      [1, 2, 3, 4, 5, 6],
    ],
    [
      'within the watermark, as dropDuplicates',
      () => ns(visits.dropDuplicatesWithinWatermark('page').collect()),
      [1, 3],
    ],
  ];
  for (const [what, run, expected] of cases) {
    it(`keeps, ${what}, in input order`, async () => {
      expect(await run()).toEqual(expected);
    });
  }

  it('distinct() keeps the distinct rows, nulls equal to each other', async () => {
    const rows = session.createDataFrame(
      [
        { user: 'a', page: null },
        { user: 'a', page: null },
        { user: 'a', page: 'home' },
        { user: null, page: null },
        { user: null, page: null },
      ],
      'user STRING, page STRING',
    );
    expect(await rows.distinct().collect()).toEqual([
      { user: 'a', page: null },
      { user: 'a', page: 'home' },
      { user: null, page: null },
    ]);
  });

  it('refuses an unknown column when the DataFrame is built, naming it and the columns there are', () => {
    expect(() => visits.dropDuplicates('user', 'nope')).toThrow(AnalysisError);
    expect(() => visits.dropDuplicates('nope')).toThrow(
      "dropDuplicates: cannot resolve column 'nope' among (user, page, n)",
    );
    expect(() => visits.dropDuplicatesWithinWatermark('nope')).toThrow(
      /^dropDuplicatesWithinWatermark: cannot resolve column 'nope'/,
    );
  });

  it('keys on every column of a name after a join, as Spark does', async () => {
    const left = session.createDataFrame([{ id: 1 }, { id: 1 }], 'id INT');
    const right = session.createDataFrame([{ id: 1 }, { id: 2 }], 'id INT');
    const joined = left.join(right, undefined, 'inner').dropDuplicates('id');
    expect(await joined.collect()).toHaveLength(2);
  });
});
