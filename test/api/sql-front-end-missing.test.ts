/**
 * A program that never imports the SQL entry (`sluice/sql`) has no parser: the methods that take
 * SQL text fail saying which import installs it, and everything else works as before. This file
 * must not import core/sql, directly or through a helper.
 */
import { describe, expect, it } from 'vitest';
import { AnalysisError, col, SluiceSession } from '../../core/index.js';

const df = new SluiceSession().createDataFrame([{ a: 1 }, { a: 2 }], 'a INT');

describe('SQL text without the SQL entry', () => {
  it.each([
    ['session.sql()', () => df.session.sql('SELECT 1')],
    ['filter(text)', () => df.filter('a > 1')],
    ['filter(text)', () => df.where('a > 1')],
    ['selectExpr()', () => df.selectExpr('a')],
  ])('%s fails naming the import that installs the SQL front end', (what, call) => {
    expect(call).toThrow(AnalysisError);
    expect(call).toThrow(
      `${what} takes SQL text, and the SQL front end is not loaded: import 'sluice/sql'`,
    );
  });

  it('leaves a Column filter as it was', async () => {
    expect(await df.filter(col('a').gt(1)).collect()).toEqual([{ a: 2 }]);
  });
});
