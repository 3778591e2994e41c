import { describe, expect, it, vi } from 'vitest';
import {
  AnalysisError,
  avg,
  col,
  collect_list,
  count,
  countDistinct,
  explode,
  explode_outer,
  first,
  InvalidOptionError,
  last,
  lit,
  max,
  min,
  SluiceSession,
  split,
  sum,
  window,
} from '../../core/index.js';
import { typeName } from '../../core/types/data-types.js';

const session = new SluiceSession();

/** a: 1, 2, null, 2; b: 'x', null, 'x', 'y'. */
const df = session.createDataFrame(
  [
    { a: 1, b: 'x' },
    { a: 2, b: null },
    { a: null, b: 'x' },
    { a: 2, b: 'y' },
  ],
  'a INT, b STRING',
);
const empty = session.createDataFrame([], 'a INT, b STRING');

/** 2026-01-01 at hh:mm UTC. */
function at(hh: number, mm: number): Date {
  return new Date(Date.UTC(2026, 0, 1, hh, mm));
}

/** The lines `fn` prints with console.log. */
async function printed(fn: () => unknown): Promise<string[]> {
  const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  try {
    await fn();
    return log.mock.calls.flatMap((c) => String(c[0]).split('\n'));
  } finally {
    log.mockRestore();
  }
}

describe('select', () => {
  it('projects columns by name and expressions named as Spark names them', async () => {
    expect(df.select('b', col('a').plus(1)).columns).toEqual(['b', '(a + 1)']);
    expect(await df.select(col('a').multiply(2).alias('twice')).collect()).toEqual([
      { twice: 2 },
      { twice: 4 },
      { twice: null },
      { twice: 4 },
    ]);
  });

  it("expands '*' to every column, in order", async () => {
    const rows = await df.select('*', lit(0).alias('z')).limit(1).collect();
    expect(rows).toEqual([{ a: 1, b: 'x', z: 0 }]);
  });

  it("expands 's.*' to the fields of a struct, with nulls for a null struct", async () => {
    const nested = session.createDataFrame(
      [
        { id: 1, s: { x: 1, y: 'p' } },
        { id: 2, s: null },
      ],
      'id INT, s STRUCT<x: INT, y: STRING>',
    );
    expect(nested.select('id', 's.*').columns).toEqual(['id', 'x', 'y']);
    expect(await nested.select('id', 's.*').collect()).toEqual([
      { id: 1, x: 1, y: 'p' },
      { id: 2, x: null, y: null },
    ]);
    expect(await nested.select('s.y').collect()).toEqual([{ y: 'p' }, { y: null }]);
    // 's.*' alone is the struct itself as the row: the fast path must give the same answer
    expect(await nested.select('s.*').filter(col('x').isNull()).collect()).toEqual([
      { x: null, y: null },
    ]);
    expect(await nested.select('s.*').collect()).toEqual([
      { x: 1, y: 'p' },
      { x: null, y: null },
    ]);
  });

  it('returns structs as objects from collect()', async () => {
    const nested = session.createDataFrame(
      [{ s: { x: 1, y: 'p' } }],
      's STRUCT<x: INT, y: STRING>',
    );
    expect(await nested.collect()).toEqual([{ s: { x: 1, y: 'p' } }]);
  });
});

describe('filter and where', () => {
  it('keep the rows whose condition is true', async () => {
    expect(await df.filter(col('a').gt(1)).collect()).toEqual([
      { a: 2, b: null },
      { a: 2, b: 'y' },
    ]);
    expect(await df.where(col('b').eq('x')).collect()).toEqual([
      { a: 1, b: 'x' },
      { a: null, b: 'x' },
    ]);
  });

  it('drop rows whose condition is null, as SQL does', async () => {
    expect(await df.filter(col('a').eq(lit(null))).collect()).toEqual([]);
    expect(await df.filter(col('a').neq(2)).collect()).toEqual([{ a: 1, b: 'x' }]);
    expect(await df.filter(col('a').neq(2).not()).count()).toBe(2);
  });

  it('find nulls with isNull / isNotNull', async () => {
    expect(await df.filter(col('a').isNull()).collect()).toEqual([{ a: null, b: 'x' }]);
    expect(await df.filter(col('b').isNotNull()).count()).toBe(3);
  });
});

describe('withColumn, withColumnRenamed and drop', () => {
  it('withColumn adds a new column at the end', async () => {
    const out = df.withColumn('c', col('a').multiply(10));
    expect(out.columns).toEqual(['a', 'b', 'c']);
    expect((await out.collect()).map((r) => r.c)).toEqual([10, 20, null, 20]);
  });

  it('withColumn replaces an existing column in place', async () => {
    const out = df.withColumn('a', col('a').plus(100));
    expect(out.columns).toEqual(['a', 'b']);
    expect((await out.collect()).map((r) => r.a)).toEqual([101, 102, null, 102]);
  });

  it('withColumnRenamed renames one column and ignores a name that does not exist', async () => {
    expect(df.withColumnRenamed('a', 'n').columns).toEqual(['n', 'b']);
    expect(await df.withColumnRenamed('a', 'n').limit(1).collect()).toEqual([{ n: 1, b: 'x' }]);
    expect(df.withColumnRenamed('missing', 'n').columns).toEqual(['a', 'b']);
  });

  it('drop removes columns and ignores names that do not exist', async () => {
    expect(await df.drop('a', 'missing').collect()).toEqual([
      { b: 'x' },
      { b: null },
      { b: 'x' },
      { b: 'y' },
    ]);
  });
});

describe('union', () => {
  it('appends rows by column position and keeps duplicates', async () => {
    const other = session.createDataFrame([{ p: 7, q: 'z' }], 'p INT, q STRING');
    const out = df.union(other).union(df.limit(1));
    expect(out.columns).toEqual(['a', 'b']);
    expect(await out.count()).toBe(6);
    expect((await out.collect()).slice(4)).toEqual([
      { a: 7, b: 'z' },
      { a: 1, b: 'x' },
    ]);
  });

  it('rejects inputs with a different number of columns or incompatible types', () => {
    expect(() => df.union(df.select('a'))).toThrow(/same number of columns on both sides: 2 vs 1/);
    expect(() => df.union(df.select('b', 'a'))).toThrow(
      /union column 1 \('a'\) is integer on one side and string/,
    );
  });

  it('widens int with bigint to bigint and int with double to double, on either side', async () => {
    const ints = session.createDataFrame([{ n: 1, x: 2 }], 'n INT, x INT');
    const wide = session.createDataFrame([{ n: 2 ** 40, x: 0.5 }], 'n BIGINT, x DOUBLE');
    for (const [out, rows] of [
      [
        ints.union(wide),
        [
          { n: 1, x: 2 },
          { n: 2 ** 40, x: 0.5 },
        ],
      ],
      [
        wide.union(ints),
        [
          { n: 2 ** 40, x: 0.5 },
          { n: 1, x: 2 },
        ],
      ],
    ] as const) {
      expect(out.schema.fields.map((f) => typeName(f.dataType))).toEqual(['long', 'double']);
      expect(await out.collect()).toEqual(rows);
    }
  });

  it('widens a date with a timestamp to the timestamp of its midnight, and NULL to the other type', async () => {
    const dates = session
      .createDataFrame([{ t: new Date('1970-01-02') }], 't DATE')
      .select(lit(null).alias('v'), col('t'));
    const stamps = session.createDataFrame([{ t: at(12, 30), v: 'x' }], 'v STRING, t TIMESTAMP');
    const out = dates.union(stamps);
    expect(out.schema.fields.map((f) => typeName(f.dataType))).toEqual(['string', 'timestamp']);
    expect(await out.collect()).toEqual([
      { v: null, t: new Date('1970-01-02T00:00:00Z') },
      { v: 'x', t: at(12, 30) },
    ]);
  });
});

describe('groupBy().agg()', () => {
  it('computes count, sum, avg, min and max per group, with a group for the null key', async () => {
    const out = await df
      .groupBy('b')
      .agg(count().alias('n'), count('a').alias('na'), sum('a'), avg('a'), min('a'), max('a'))
      .orderBy('b')
      .collect();
    expect(out).toEqual([
      { b: null, n: 1, na: 1, 'sum(a)': 2, 'avg(a)': 2, 'min(a)': 2, 'max(a)': 2 },
      { b: 'x', n: 2, na: 1, 'sum(a)': 1, 'avg(a)': 1, 'min(a)': 1, 'max(a)': 1 },
      { b: 'y', n: 1, na: 1, 'sum(a)': 2, 'avg(a)': 2, 'min(a)': 2, 'max(a)': 2 },
    ]);
  });

  it('names unaliased aggregates as Spark does', () => {
    const out = df.groupBy('b').agg(count(), count('a'), countDistinct('a'), collect_list('a'));
    expect(out.columns).toEqual([
      'b',
      'count(1)',
      'count(a)',
      'count(DISTINCT a)',
      'collect_list(a)',
    ]);
    expect(df.groupBy('b').count().columns).toEqual(['b', 'count']);
  });

  it('skips nulls in count(col), sum, avg, countDistinct and collect_list', async () => {
    const values = session.createDataFrame(
      [{ v: 3 }, { v: null }, { v: 3 }, { v: 5 }, { v: null }],
      'v INT',
    );
    expect(
      await values
        .agg(count(), count('v'), sum('v'), avg('v'), countDistinct('v'), collect_list('v'))
        .collect(),
    ).toEqual([
      {
        'count(1)': 5,
        'count(v)': 3,
        'sum(v)': 11,
        'avg(v)': 11 / 3,
        'count(DISTINCT v)': 2,
        'collect_list(v)': [3, 3, 5],
      },
    ]);
  });

  it('takes first and last in input order, keeping nulls unless told to ignore them', async () => {
    const out = await df
      .groupBy('b')
      .agg(first('a').alias('f'), last('a').alias('l'), last('a', true).alias('lnn'))
      .filter(col('b').eq('x'))
      .collect();
    expect(out).toEqual([{ b: 'x', f: 1, l: null, lnn: 1 }]);
  });

  it('gives one row for a global aggregation of empty input: count 0, the others null or empty', async () => {
    const out = await empty
      .agg(
        count(),
        sum('a'),
        avg('a'),
        min('a'),
        max('a'),
        countDistinct('a'),
        first('a'),
        collect_list('a'),
      )
      .collect();
    expect(out).toEqual([
      {
        'count(1)': 0,
        'sum(a)': null,
        'avg(a)': null,
        'min(a)': null,
        'max(a)': null,
        'count(DISTINCT a)': 0,
        'first(a)': null,
        'collect_list(a)': [],
      },
    ]);
  });

  it('gives no rows for a grouped aggregation of empty input', async () => {
    expect(await empty.groupBy('b').agg(count()).collect()).toEqual([]);
  });

  it('rejects a non-aggregate expression in agg() and unknown grouping keys', () => {
    expect(() => df.groupBy('b').agg(col('a'))).toThrow(/'a' is not one/);
    expect(() => df.groupBy('missing')).toThrow(
      /Cannot resolve column 'missing'; available columns: a, b/,
    );
  });
});

describe('window() in groupBy', () => {
  const events = session.createDataFrame(
    [
      { t: at(10, 0), k: 'a' },
      { t: at(10, 9), k: 'a' },
      { t: at(10, 10), k: 'a' },
      { t: at(10, 25), k: 'b' },
    ],
    't TIMESTAMP, k STRING',
  );
  const w = (startH: number, startM: number, minutes: number) => ({
    start: at(startH, startM),
    end: at(startH, startM + minutes),
  });

  it('puts each event in one tumbling window; an event at exactly 10:10 opens [10:10, 10:20)', async () => {
    const out = await events
      .groupBy(window('t', '10 minutes'))
      .agg(count().alias('n'))
      .orderBy('window')
      .collect();
    expect(out).toEqual([
      { window: w(10, 0, 10), n: 2 },
      { window: w(10, 10, 10), n: 1 },
      { window: w(10, 20, 10), n: 1 },
    ]);
  });

  it('puts each event in duration/slide sliding windows', async () => {
    const out = await events
      .groupBy(window(col('t'), '10 minutes', '5 minutes'))
      .agg(count().alias('n'))
      .orderBy('window')
      .collect();
    expect(out).toEqual([
      { window: w(9, 55, 10), n: 1 },
      { window: w(10, 0, 10), n: 2 },
      { window: w(10, 5, 10), n: 2 },
      { window: w(10, 10, 10), n: 1 },
      { window: w(10, 20, 10), n: 1 },
      { window: w(10, 25, 10), n: 1 },
    ]);
  });

  it('groups by a window and another key together', async () => {
    const out = await events
      .groupBy(window('t', '1 hour'), col('k'))
      .agg(count().alias('n'))
      .orderBy('k')
      .collect();
    expect(out).toEqual([
      { window: w(10, 0, 60), k: 'a', n: 3 },
      { window: w(10, 0, 60), k: 'b', n: 1 },
    ]);
  });

  it('rejects a window over a column that is not a timestamp, and a slide longer than the window', () => {
    expect(() => df.groupBy(window('a', '10 minutes'))).toThrow(
      /window\(\) needs a timestamp column, got integer/,
    );
    expect(() => window('t', '5 minutes', '10 minutes')).toThrow(InvalidOptionError);
  });
});

describe('window() parameters, as Spark takes them', () => {
  const events = session.createDataFrame([{ t: at(10, 1) }], 't TIMESTAMP');
  const windowOf = async (w: ReturnType<typeof window>) =>
    (await events.select(w.alias('w')).collect()).map((r) => r.w);

  it('takes a startTime of zero as no shift', async () => {
    expect(await windowOf(window('t', '10 minutes', undefined, '0 second'))).toEqual([
      { start: at(10, 0), end: at(10, 10) },
    ]);
  });

  it('takes a negative startTime shorter than the slide, shifting the boundaries back', async () => {
    expect(await windowOf(window('t', '10 minutes', undefined, '-2 minutes'))).toEqual([
      { start: at(9, 58), end: at(10, 8) },
    ]);
    expect(() => window('t', '10 minutes', '5 minutes', '-5 minutes')).toThrow(
      /window startTime '-5 minutes' must be shorter than the slide '5 minutes'/,
    );
  });

  it("takes Spark's quoted SQL interval literals", async () => {
    expect(await windowOf(window('t', "INTERVAL '10' MINUTE"))).toEqual([
      { start: at(10, 0), end: at(10, 10) },
    ]);
    expect(await windowOf(window('t', "INTERVAL '0:10' HOUR TO MINUTE"))).toEqual([
      { start: at(10, 0), end: at(10, 10) },
    ]);
  });

  it('refuses months and years in a window, as Spark does, naming the argument', () => {
    expect(() => window('t', '1 month')).toThrow(
      /Invalid window duration '1 month': months and years have no fixed length/,
    );
    expect(() => window('t', '30 days', "INTERVAL '1' YEAR")).toThrow(/Invalid window slide/);
  });
});

describe('a sliding window() in a select', () => {
  const events = session.createDataFrame(
    [
      { t: at(10, 7), k: 'a' },
      { t: at(10, 12), k: 'b' },
    ],
    't TIMESTAMP, k STRING',
  );
  const w = (h: number, m: number) => ({ start: at(h, m), end: at(h, m + 10) });

  it('gives one row per window the time falls in, earliest first', async () => {
    const out = await events.select(col('k'), window('t', '10 minutes', '5 minutes')).collect();
    expect(out).toEqual([
      { k: 'a', window: w(10, 0) },
      { k: 'a', window: w(10, 5) },
      { k: 'b', window: w(10, 5) },
      { k: 'b', window: w(10, 10) },
    ]);
  });

  it('can be grouped on after the select, under its alias', async () => {
    const out = await events
      .select(window('t', '10 minutes', '5 minutes').alias('w'))
      .groupBy('w')
      .agg(count().alias('n'))
      .orderBy('w')
      .collect();
    expect(out).toEqual([
      { w: w(10, 0), n: 1 },
      { w: w(10, 5), n: 2 },
      { w: w(10, 10), n: 1 },
    ]);
  });

  it('expands rows for a window used inside an expression, keeping the column name', async () => {
    const out = await events
      .select(window('t', '10 minutes', '5 minutes').getField('start').alias('from'), col('k'))
      .collect();
    expect(out).toEqual([
      { from: at(10, 0), k: 'a' },
      { from: at(10, 5), k: 'a' },
      { from: at(10, 5), k: 'b' },
      { from: at(10, 10), k: 'b' },
    ]);
  });

  it('expands rows for the window and the explode of the same select', async () => {
    const out = await events
      .select(
        col('k'),
        window('t', '10 minutes', '5 minutes'),
        explode(split(lit('1,2'), ',')).alias('x'),
      )
      .where(col('k').eqNullSafe('a'))
      .collect();
    expect(out).toEqual([
      { k: 'a', window: w(10, 0), x: '1' },
      { k: 'a', window: w(10, 0), x: '2' },
      { k: 'a', window: w(10, 5), x: '1' },
      { k: 'a', window: w(10, 5), x: '2' },
    ]);
  });

  it('refuses two different sliding windows in one select, as their product of rows', () => {
    expect(() =>
      events.select(window('t', '10 minutes', '5 minutes'), window('t', '4 minutes', '2 minutes')),
    ).toThrow(/2 different sliding windows/);
  });
});

describe('window() over a null time', () => {
  const events = session.createDataFrame(
    [
      { t: at(10, 1), k: 'a' },
      { t: null, k: 'b' },
    ],
    't TIMESTAMP, k STRING',
  );
  const tenMinutes = { start: at(10, 0), end: at(10, 10) };

  it('drops the row in a select, for a tumbling window', async () => {
    const out = await events.select(window('t', '10 minutes'), col('k')).collect();
    expect(out).toEqual([{ window: tenMinutes, k: 'a' }]);
  });

  it('drops the row in a groupBy without a watermark, rather than making a null window', async () => {
    const out = await events.groupBy(window('t', '10 minutes')).agg(count().alias('n')).collect();
    expect(out).toEqual([{ window: tenMinutes, n: 1 }]);
  });

  it('drops the row in a filter on the window', async () => {
    const out = await events.where(window('t', '10 minutes').getField('start').isNull()).collect();
    expect(out).toEqual([]);
  });
});

describe('orderBy and limit', () => {
  it('sorts ascending with nulls first by default', async () => {
    expect((await df.orderBy('a').collect()).map((r) => r.a)).toEqual([null, 1, 2, 2]);
  });

  it('sorts descending with nulls last, then by a second key', async () => {
    expect(await df.orderBy(col('a').desc(), col('b').asc()).collect()).toEqual([
      { a: 2, b: null },
      { a: 2, b: 'y' },
      { a: 1, b: 'x' },
      { a: null, b: 'x' },
    ]);
  });

  it('places nulls explicitly with ascNullsLast and descNullsFirst', async () => {
    expect((await df.orderBy(col('a').ascNullsLast()).collect()).map((r) => r.a)).toEqual([
      1,
      2,
      2,
      null,
    ]);
    expect((await df.orderBy(col('a').descNullsFirst()).collect()).map((r) => r.a)).toEqual([
      null,
      2,
      2,
      1,
    ]);
  });

  it('limit keeps the first n rows; take(n) returns them', async () => {
    expect(await df.orderBy(col('a').desc()).limit(1).collect()).toEqual([{ a: 2, b: null }]);
    expect(await df.limit(0).collect()).toEqual([]);
    expect(await df.take(2)).toEqual([
      { a: 1, b: 'x' },
      { a: 2, b: null },
    ]);
    expect(() => df.limit(-1)).toThrow(/non-negative integer, got -1/);
  });
});

describe('explode and explode_outer', () => {
  const nested = session.createDataFrame(
    [
      { id: 1, xs: [10, 20], m: { p: 1, q: 2 } },
      { id: 2, xs: [], m: {} },
      { id: 3, xs: null, m: null },
    ],
    'id INT, xs ARRAY<INT>, m MAP<STRING, INT>',
  );

  it('explode gives one row per array element in a column named col; empty and null arrays vanish', async () => {
    expect(await nested.select('id', explode('xs')).collect()).toEqual([
      { id: 1, col: 10 },
      { id: 1, col: 20 },
    ]);
  });

  it('explode_outer keeps a row with null for an empty or null array', async () => {
    expect(await nested.select('id', explode_outer('xs').alias('x')).collect()).toEqual([
      { id: 1, x: 10 },
      { id: 1, x: 20 },
      { id: 2, x: null },
      { id: 3, x: null },
    ]);
  });

  it('explode of a map gives key and value columns', async () => {
    expect(await nested.select('id', explode('m')).collect()).toEqual([
      { id: 1, key: 'p', value: 1 },
      { id: 1, key: 'q', value: 2 },
    ]);
    expect(await nested.select(explode_outer('m'), 'id').filter(col('id').gt(1)).collect()).toEqual(
      [
        { key: null, value: null, id: 2 },
        { key: null, value: null, id: 3 },
      ],
    );
  });

  it('rejects explode of a scalar, two explodes in one select, and explode nested in an expression', () => {
    expect(() => nested.select(explode('id'))).toThrow(
      /explode\(\) needs an array or map column, got integer/,
    );
    expect(() => nested.select(explode('xs'), explode('xs'))).toThrow(/Only one explode/);
    expect(() => nested.filter(explode('xs').isNull())).toThrow(
      /explode\(\) must be a top-level expression/,
    );
  });
});

describe('show and printSchema', () => {
  it('show() prints a right-aligned table with NULL for nulls', async () => {
    expect(await printed(() => df.show())).toEqual([
      '+----+----+',
      '|   a|   b|',
      '+----+----+',
      '|   1|   x|',
      '|   2|NULL|',
      '|NULL|   x|',
      '|   2|   y|',
      '+----+----+',
    ]);
  });

  it('show(n) prints the first n rows, sized to them, and says that there are more', async () => {
    expect(await printed(() => df.show(2))).toEqual([
      '+---+----+',
      '|  a|   b|',
      '+---+----+',
      '|  1|   x|',
      '|  2|NULL|',
      '+---+----+',
      'only showing top 2 rows',
    ]);
  });

  it('show() truncates values longer than 20 characters unless told not to', async () => {
    const long = session.createDataFrame([{ s: 'abcdefghijklmnopqrstuvwxyz' }], 's STRING');
    expect((await printed(() => long.show()))[3]).toBe('|abcdefghijklmnopq...|');
    expect((await printed(() => long.show(20, false)))[3]).toBe('|abcdefghijklmnopqrstuvwxyz|');
  });

  it('printSchema() prints the schema tree with nested fields and nullability', async () => {
    const nested = session.createDataFrame(
      [],
      'id INT NOT NULL, s STRUCT<x: INT, tags: ARRAY<STRING>>, m MAP<STRING, DOUBLE>',
    );
    expect(await printed(() => nested.printSchema())).toEqual([
      'root',
      ' |-- id: integer (nullable = false)',
      ' |-- s: struct (nullable = true)',
      ' |    |-- x: integer (nullable = true)',
      ' |    |-- tags: array (nullable = true)',
      ' |    |    |-- element: string (containsNull = true)',
      ' |-- m: map (nullable = true)',
      ' |    |-- key: string',
      ' |    |-- value: double (valueContainsNull = true)',
    ]);
  });
});

describe('errors at the transformation that causes them', () => {
  it('an unknown column names the column and lists the available ones', () => {
    expect(() => df.select('nope')).toThrow(AnalysisError);
    expect(() => df.select('nope')).toThrow(
      "Cannot resolve column 'nope'; available columns: a, b.",
    );
    expect(() => df.filter(col('nope').gt(1))).toThrow(/'nope'; available columns: a, b/);
    expect(() => df.orderBy('nope')).toThrow(/'nope'; available columns: a, b/);
    expect(() => df.col('nope')).toThrow(/'nope'; available columns: a, b/);
  });

  it('an aggregate function in filter() or select() is rejected with a pointer to groupBy().agg()', () => {
    expect(() => df.filter(count().gt(1))).toThrow(
      /Aggregate functions are not allowed in filter\(\); use groupBy\(\)\.agg\(\)/,
    );
    expect(() => df.select(sum('a'))).toThrow(/not allowed in select\(\)/);
  });

  it('type errors name the operation and the types involved', () => {
    expect(() => df.filter(col('a'))).toThrow(
      /filter\(\) needs a boolean condition, got integer from 'a'/,
    );
    expect(() => df.select(col('a').and(lit(true)))).toThrow(
      /AND needs boolean operands, got integer/,
    );
    const flags = session.createDataFrame([{ f: true }], 'f BOOLEAN');
    expect(() => flags.agg(sum('f'))).toThrow(/sum\(f\) needs a numeric column, got boolean/);
    expect(() => flags.select(col('f').plus(1))).toThrow(
      /Operator \+ needs numeric operands, got boolean/,
    );
  });

  it('an invalid row given to createDataFrame names its position', () => {
    expect(() => session.createDataFrame([1 as never], 'a INT')).toThrow(/row 0 is not an object/);
  });

  it('a value of the wrong type given to createDataFrame names its row and column, so it never computes a wrong result', () => {
    expect(() => session.createDataFrame([{ a: 1 }, { a: 'abc' }], 'a INT')).toThrow(
      /createDataFrame: row 1, column 'a' expects an integer .* the string "abc"/,
    );
    expect(() => session.createDataFrame([{ ts: '2026-01-01 10:00:00' }], 'ts TIMESTAMP')).toThrow(
      /row 0, column 'ts' expects a timestamp/,
    );
  });

  it('createDataFrame takes a Date for timestamp and date columns', async () => {
    const when = new Date(Date.UTC(2026, 0, 1, 10, 4));
    const rows = session.createDataFrame([{ ts: when, day: when }], 'ts TIMESTAMP, day DATE');
    const windows = rows.groupBy(window(col('ts'), '10 minutes')).count();
    expect(await windows.collect()).toEqual([
      { window: { start: at(10, 0), end: at(10, 10) }, count: 1 },
    ]);
    expect(await rows.select(col('day').cast('string').alias('d')).collect()).toEqual([
      { d: '2026-01-01' },
    ]);
  });
});
