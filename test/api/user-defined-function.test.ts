import { describe, expect, it } from 'vitest';
import {
  AnalysisError,
  col,
  count,
  type RowObject,
  SluiceSession,
  udf,
  UserFunctionError,
} from '../../core/index.js';
import '../../core/sql/index.js';
import { planFingerprint } from '../../core/streaming/plan-fingerprint.js';
import { addData, checkAnswer, testStream } from '../../core/testing/index.js';

function people() {
  const session = new SluiceSession();
  const rows: RowObject[] = [
    { name: 'ann', age: 31, tags: ['a', 'b'] },
    { name: null, age: 12, tags: null },
    { name: 'cy', age: null, tags: [] },
  ];
  const df = session.createDataFrame(rows, 'name STRING, age INT, tags ARRAY<STRING>');
  df.createOrReplaceTempView('people');
  return { session, df };
}

const shout = (s: string | null) => (s === null ? 'NOBODY' : `${s.toUpperCase()}!`);

describe('udf(fn, returnType) as a column function', () => {
  it('is called per row, with nulls passed as null, and named after the function', async () => {
    const { df } = people();
    const f = udf(shout, 'string');
    expect(f.functionName).toBe('shout');
    expect(await df.select(f('name')).collect()).toEqual([
      { 'shout(name)': 'ANN!' },
      { 'shout(name)': 'NOBODY' },
      { 'shout(name)': 'CY!' },
    ]);
  });

  it('takes several columns, arrays as arrays, and a DataType or a type name', async () => {
    const { df } = people();
    const describe = udf(
      (name: string | null, tags: string[] | null) => `${name ?? '?'}:${tags?.length ?? -1}`,
      'string',
    );
    const older = udf((age: number | null) => (age === null ? null : age + 1), 'int');
    expect(
      await df.select(describe('name', col('tags')).alias('d'), older('age').alias('o')).collect(),
    ).toEqual([
      { d: 'ann:2', o: 32 },
      { d: '?:-1', o: 13 },
      { d: 'cy:0', o: null },
    ]);
  });

  it('fails the query with a UserFunctionError naming the function and the row when it throws', async () => {
    const { df } = people();
    const strict = udf(function strict(s: string | null) {
      if (s === null) throw new Error('no name');
      return s.length;
    }, 'int');
    const error = await df
      .select(strict('name'))
      .collect()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserFunctionError);
    const e = error as UserFunctionError;
    expect(e.functionName).toBe('strict');
    expect(e.row).toEqual({ name: null, age: 12, tags: null });
    expect(e.message).toMatch(
      /User-defined function 'strict' threw "no name" on the row \{"name":null,"age":12/,
    );
    expect((e.cause as Error).message).toBe('no name');
  });

  it('fails when the function returns a value of another type, naming the type', async () => {
    const { df } = people();
    const wrong = udf(() => 'seven', 'int');
    await expect(df.select(wrong('age')).collect()).rejects.toThrow(
      /User-defined function 'UDF' returned "seven", which is not its return type integer, on the row/,
    );
  });
});

describe('session.udf.register', () => {
  it('makes the function callable from SQL by name, in any case, and from the DataFrame API', async () => {
    const { session, df } = people();
    const registered = session.udf.register('shout', shout, 'string');
    expect(
      await session.sql("SELECT SHOUT(name) AS s FROM people WHERE shout(name) <> 'CY!'").collect(),
    ).toEqual([{ s: 'ANN!' }, { s: 'NOBODY' }]);
    expect(await df.selectExpr('shout(name) AS s').limit(1).collect()).toEqual([{ s: 'ANN!' }]);
    expect(await df.filter("shout(name) = 'NOBODY'").select('age').collect()).toEqual([
      { age: 12 },
    ]);
    expect(await df.select(registered('name').alias('s')).limit(1).collect()).toEqual([
      { s: 'ANN!' },
    ]);
  });

  it('suggests a registered function for a misspelt name', () => {
    const { session } = people();
    session.udf.register('shout_name', shout, 'string');
    expect(() => session.sql('SELECT shout_nam(name) FROM people')).toThrow(AnalysisError);
    expect(() => session.sql('SELECT shout_nam(name) FROM people')).toThrow(
      /Unknown function 'shout_nam' at line 1, column 8\. Did you mean `shout_name`\?/,
    );
  });

  it("keeps one session's functions from another", () => {
    people().session.udf.register('shout', shout, 'string');
    expect(() => people().session.sql('SELECT shout(name) FROM people')).toThrow(
      /Unknown function 'shout'/,
    );
  });

  it('refuses a name SQL cannot call, and a return type it cannot read', () => {
    const { session } = people();
    expect(() => session.udf.register('my udf', shout, 'string')).toThrow(/Invalid function name/);
    expect(() => session.udf.register('f', shout, 'strin')).toThrow();
  });
});

describe('UDFs in streaming queries', () => {
  it('run per micro-batch, as a grouping key of a streaming aggregation', async () => {
    const session = new SluiceSession();
    const events = session.memoryStream('name STRING');
    const counts = session.readStream
      .memory(events)
      .groupBy(udf(shout, 'string')('name').alias('who'))
      .agg(count().alias('n'));
    await testStream(counts, 'complete')(
      addData(events, [{ name: 'ann' }, { name: null }]),
      checkAnswer([
        { who: 'ANN!', n: 1 },
        { who: 'NOBODY', n: 1 },
      ]),
      addData(events, [{ name: 'ann' }]),
      checkAnswer([
        { who: 'ANN!', n: 2 },
        { who: 'NOBODY', n: 1 },
      ]),
    );
  });

  it('are named in the plan fingerprint by name, not by code', () => {
    const session = new SluiceSession();
    const events = session.memoryStream('name STRING');
    const keyed = (f: (s: string | null) => unknown, name: string) =>
      session.readStream
        .memory(events)
        .groupBy(session.udf.register(name, f, 'string')('name'))
        .agg(count()).plan;
    const before = planFingerprint(keyed(shout, 'who'), 4);
    expect(before).toContain('who(name)');
    expect(
      planFingerprint(
        keyed((s) => s, 'who'),
        4,
      ),
    ).toBe(before);
    expect(planFingerprint(keyed(shout, 'other'), 4)).not.toBe(before);
  });
});
