import { describe, expect, it } from 'vitest';
import { AnalysisError, InvalidOptionError, SluiceSession } from '../../core/index.js';

const session = new SluiceSession();
const df = session.createDataFrame(
  [
    { a: 1, b: 'x', c: 1.5, t: true },
    { a: 4, b: '3', c: null, t: false },
    { a: null, b: null, c: 2.0, t: null },
  ],
  'a INT, b STRING, c DOUBLE, t BOOLEAN',
);

describe('describe', () => {
  it('gives count, mean, stddev, min and max as strings of the numeric and string columns', async () => {
    const d = df.describe();
    expect(d.columns).toEqual(['summary', 'a', 'b', 'c']);
    expect(d.schema.fields.every((f) => f.dataType.kind === 'string')).toBe(true);
    expect(await d.collect()).toEqual([
      { summary: 'count', a: '2', b: '2', c: '2' },
      { summary: 'mean', a: '2.5', b: '3.0', c: '1.75' },
      { summary: 'stddev', a: String(Math.sqrt(4.5)), b: null, c: String(Math.sqrt(0.125)) },
      { summary: 'min', a: '1', b: '3', c: '1.5' },
      { summary: 'max', a: '4', b: 'x', c: '2.0' },
    ]);
  });

  it('describes named columns of other atomic types, and refuses unknown or nested ones', async () => {
    expect((await df.describe('t').collect()).map((r) => r.t)).toEqual([
      '2',
      '0.5',
      String(Math.sqrt(0.5)),
      'false',
      'true',
    ]);
    expect(() => df.describe('nope')).toThrow(AnalysisError);
    expect(() => df.describe('nope')).toThrow(/describe: no column 'nope' among \(a, b, c, t\)/);
    const nested = session.createDataFrame([{ xs: [1] }], 'xs ARRAY<INT>');
    expect(() => nested.describe('xs')).toThrow(/column 'xs' is array/);
  });

  it('of an empty table: count 0, the rest null', async () => {
    const empty = session.createDataFrame([], 'a INT');
    expect(await empty.describe().collect()).toEqual([
      { summary: 'count', a: '0' },
      { summary: 'mean', a: null },
      { summary: 'stddev', a: null },
      { summary: 'min', a: null },
      { summary: 'max', a: null },
    ]);
  });
});

describe('summary', () => {
  it('adds the quartiles by default, of a string column its values read as doubles', async () => {
    const rows = await df.summary().collect();
    expect(rows.map((r) => r.summary)).toEqual([
      'count',
      'mean',
      'stddev',
      'min',
      '25%',
      '50%',
      '75%',
      'max',
    ]);
    expect(rows.slice(4, 7)).toEqual([
      { summary: '25%', a: '1', b: '3.0', c: '1.5' },
      { summary: '50%', a: '1', b: '3.0', c: '1.5' },
      { summary: '75%', a: '4', b: '3.0', c: '2.0' },
    ]);
  });

  it('gives the statistics named, and refuses unknown ones', async () => {
    expect(await df.select('a').summary('max', '100%').collect()).toEqual([
      { summary: 'max', a: '4' },
      { summary: '100%', a: '4' },
    ]);
    expect(() => df.summary('median')).toThrow(InvalidOptionError);
    expect(() => df.summary('150%')).toThrow(/unknown statistic '150%'/);
  });
});
