/**
 * Which output columns identify a result row: an aggregation's grouping keys, followed through the
 * nodes above it, or none.
 */
import { describe, expect, it } from 'vitest';
import { col, count, SluiceSession, window } from '../../core/index.js';
import { resultKeyColumns } from '../../core/plan/result-key-columns.js';
import { clickSchema } from '../support/events.js';

const clicks = () => new SluiceSession().createDataFrame([], clickSchema);
const counts = () =>
  clicks()
    .groupBy(window(col('ts'), '10 minutes'), col('category'))
    .agg(count().alias('n'));

describe('resultKeyColumns', () => {
  it("are an aggregation's grouping keys, as the output names them", () => {
    expect(resultKeyColumns(counts().plan)).toEqual(['window', 'category']);
    expect(resultKeyColumns(clicks().groupBy('user').count().plan)).toEqual(['user']);
  });

  it('follow the keys through filters, sorts and projections that pass them on, renamed or not', () => {
    expect(resultKeyColumns(counts().filter(col('n').gt(1)).plan)).toEqual(['window', 'category']);
    const projected = counts().select(col('n'), col('CATEGORY').alias('topic'), col('window'));
    expect(resultKeyColumns(projected.plan)).toEqual(['window', 'topic']);
  });

  it('are none without an aggregation, or when a projection drops or computes over a key', () => {
    expect(resultKeyColumns(clicks().plan)).toBeUndefined();
    expect(resultKeyColumns(clicks().select('user', 'category').plan)).toBeUndefined();
    expect(resultKeyColumns(counts().select('window', 'n').plan)).toBeUndefined();
    expect(
      resultKeyColumns(counts().select(col('window.start'), col('category')).plan),
    ).toBeUndefined();
  });
});
