import { describe, expect, it } from 'vitest';
import { AnalysisError, col, lit, SluiceSession } from '../../core/index.js';

const session = new SluiceSession();
const people = session.createDataFrame(
  [
    { id: 1, name: 'ann' },
    { id: 2, name: null },
  ],
  'id INT, name STRING',
);

describe('unionByName', () => {
  it('matches the second DataFrame columns by name, in any case', async () => {
    const other = session.createDataFrame([{ NAME: 'cy', ID: 3 }], 'NAME STRING, ID INT');
    expect(await people.unionByName(other).collect()).toEqual([
      { id: 1, name: 'ann' },
      { id: 2, name: null },
      { id: 3, name: 'cy' },
    ]);
  });

  it('refuses missing columns unless allowMissingColumns, which fills them with nulls', async () => {
    const other = session.createDataFrame([{ id: 3, age: 40 }], 'id INT, age INT');
    expect(() => people.unionByName(other)).toThrow(AnalysisError);
    expect(() => people.unionByName(other)).toThrow(/name of the first DataFrame are missing/);
    const both = people.unionByName(other, true);
    expect(both.columns).toEqual(['id', 'name', 'age']);
    expect(await both.collect()).toEqual([
      { id: 1, name: 'ann', age: null },
      { id: 2, name: null, age: null },
      { id: 3, name: null, age: 40 },
    ]);
  });
});

describe('withColumns and crossJoin', () => {
  it('withColumns adds and replaces columns in the order given', async () => {
    const rows = await people
      .withColumns({ next: col('id').plus(1), id: col('id').multiply(10), tag: lit('x') })
      .collect();
    expect(rows).toEqual([
      { id: 10, name: 'ann', next: 2, tag: 'x' },
      { id: 20, name: null, next: 3, tag: 'x' },
    ]);
  });

  it('crossJoin pairs every row with every row', async () => {
    const sizes = session.createDataFrame([{ size: 's' }, { size: 'm' }], 'size STRING');
    const rows = await people.crossJoin(sizes).collect();
    expect(rows).toHaveLength(4);
    expect(rows).toContainEqual({ id: 2, name: null, size: 'm' });
  });
});
