import { describe, expect, it } from 'vitest';
import { AnalysisError, InvalidOptionError, SluiceSession } from '../../core/index.js';

const session = new SluiceSession();
const rows = session.createDataFrame(
  [
    { id: 1, qty: null, price: Number.NaN, name: null, ok: null },
    { id: 2, qty: 5, price: 2.5, name: 'b', ok: true },
    { id: null, qty: null, price: null, name: null, ok: null },
  ],
  'id INT, qty BIGINT, price DOUBLE, name STRING, ok BOOLEAN',
);

describe('na.fill', () => {
  it('a number fills only numeric columns, nulls and NaN, cast to each column type', async () => {
    expect(await rows.na.fill(7.9).collect()).toEqual([
      { id: 1, qty: 7, price: 7.9, name: null, ok: null },
      { id: 2, qty: 5, price: 2.5, name: 'b', ok: true },
      { id: 7, qty: 7, price: 7.9, name: null, ok: null },
    ]);
  });

  it('a string fills string columns and a boolean boolean columns, within subset', async () => {
    const filled = rows.fillna('n/a').fillna(false, ['ok', 'qty']);
    expect(await filled.collect()).toEqual([
      { id: 1, qty: null, price: Number.NaN, name: 'n/a', ok: false },
      { id: 2, qty: 5, price: 2.5, name: 'b', ok: true },
      { id: null, qty: null, price: null, name: 'n/a', ok: false },
    ]);
  });

  it('an object fills per column, the value cast to the column', async () => {
    const filled = rows.na.fill({ QTY: 0, name: 'none' });
    expect((await filled.collect()).map((r) => [r.qty, r.name])).toEqual([
      [0, 'none'],
      [5, 'b'],
      [0, 'none'],
    ]);
    expect(filled.schema).toEqual(rows.schema);
  });

  it('refuses unknown columns and values of other kinds', () => {
    expect(() => rows.na.fill(0, ['nope'])).toThrow(AnalysisError);
    expect(() => rows.na.fill(0, ['nope'])).toThrow(
      /na.fill: cannot resolve column name 'nope' among \(id, qty, price, name, ok\)/,
    );
    expect(() => rows.na.fill(null as unknown as number)).toThrow(InvalidOptionError);
    expect(() => rows.na.fill({ id: [1] as unknown as number })).toThrow(/not object/);
  });
});

describe('na.drop', () => {
  it('any drops a row with a null or NaN; all only a row missing every column', async () => {
    expect((await rows.na.drop().collect()).map((r) => r.id)).toEqual([2]);
    expect((await rows.dropna('all').collect()).map((r) => r.id)).toEqual([1, 2]);
  });

  it('subset limits the columns looked at, thresh counts present values', async () => {
    expect((await rows.dropna('any', undefined, ['id']).collect()).map((r) => r.id)).toEqual([
      1, 2,
    ]);
    expect((await rows.dropna('any', 1, ['price', 'qty']).collect()).map((r) => r.id)).toEqual([2]);
    expect(await rows.dropna('all', 0).count()).toBe(3);
  });

  it('refuses a bad how, thresh or column', () => {
    expect(() => rows.na.drop('some' as 'any')).toThrow(/how must be 'any' or 'all', not 'some'/);
    expect(() => rows.na.drop('any', -1)).toThrow(/thresh must be a non-negative integer/);
    expect(() => rows.na.drop('any', undefined, ['x'])).toThrow(/cannot resolve column name 'x'/);
  });
});
