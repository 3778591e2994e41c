/**
 * like, ilike and rlike, behind SQL's LIKE, ILIKE and RLIKE: Spark's wildcards and escapes, null in
 * gives null out, a bad pattern or escape fails when the query is analysed.
 */
import { describe, expect, it } from 'vitest';
import { SluiceSession } from '../../core/index.js';
import '../../core/sql/index.js';

const session = new SluiceSession();
const words = session.createDataFrame(
  [{ s: 'abc' }, { s: 'a_c' }, { s: 'ABC' }, { s: 'x\ny' }, { s: '100%' }, { s: null }],
  's STRING',
);

async function matches(condition: string): Promise<(string | null)[]> {
  const rows = await words.selectExpr('s', `${condition} AS m`).collect();
  return rows.filter((r) => r.m === true).map((r) => r.s as string);
}

describe('pattern functions', () => {
  it.each([
    ["s LIKE 'a%'", ['abc', 'a_c']],
    ["s LIKE 'a_c'", ['abc', 'a_c']],
    ["s LIKE 'a\\\\_c'", ['a_c']],
    ["s LIKE 'a!_c' ESCAPE '!'", ['a_c']],
    ["s LIKE '%\\\\%'", ['100%']],
    ["s LIKE 'x_y'", ['x\ny']],
    ["s LIKE 'abc'", ['abc']],
    ["s ILIKE 'abc'", ['abc', 'ABC']],
    ["s RLIKE 'b|y'", ['abc', 'x\ny']],
    ["s RLIKE '^[A-Z]+$'", ['ABC']],
    ["s NOT LIKE 'a%'", ['ABC', 'x\ny', '100%']],
  ])('%s matches %j', async (condition, expected) => {
    expect(await matches(condition)).toEqual(expected);
  });

  it('gives null for a null string or pattern', async () => {
    const rows = await words.selectExpr("s LIKE 'a%' AS l", 's RLIKE NULL AS r').collect();
    expect(rows[5]).toEqual({ l: null, r: null });
    expect(rows.map((r) => r.r)).toEqual([null, null, null, null, null, null]);
  });

  it.each([
    ["s LIKE 'a\\\\bc'", /the escape character '\\' may only precede '_', '%' or itself/],
    ["s LIKE 'a' ESCAPE 'xy'", /a single escape character/],
    ["s RLIKE '('", /rlike\(\) cannot use the regular expression '\('/],
    ['s LIKE s', /like\(\) needs a constant, non-null pattern/],
  ])('refuses %s when analysed', (condition, message) => {
    expect(() => words.selectExpr(`${condition} AS m`)).toThrow(message);
  });
});
