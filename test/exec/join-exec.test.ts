import { describe, expect, it } from 'vitest';
import { DataFrame } from '../../core/api/dataframe.js';
import {
  AnalysisError,
  col,
  InvalidOptionError,
  lit,
  SluiceSession,
  UnsupportedOperationError,
} from '../../core/index.js';
import { newPlanId } from '../../core/plan/logical-plan.js';
import { parseSchema } from '../../core/types/type-names.js';
import type { Row, RowObject } from '../../core/types/row.js';
import { tempDir } from '../support/temp-dir.js';

const session = new SluiceSession();

/** Orders collected rows by their JSON text, since a join does not promise an output order. */
function sorted(rows: RowObject[]): RowObject[] {
  return [...rows].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
}

/** Left: duplicate key 2, a null key. Right: duplicate key 2, a key only it has (3), a null key. */
const left = session.createDataFrame(
  [
    { k: 1, l: 'l1' },
    { k: 2, l: 'l2a' },
    { k: 2, l: 'l2b' },
    { k: null, l: 'lnull' },
  ],
  'k INT, l STRING',
);
const right = session.createDataFrame(
  [
    { rk: 2, r: 'r2a' },
    { rk: 2, r: 'r2b' },
    { rk: 3, r: 'r3' },
    { rk: null, r: 'rnull' },
  ],
  'rk INT, r STRING',
);
const onKey = col('k').eq(col('rk'));

async function joined(how: string): Promise<RowObject[]> {
  return sorted(await left.join(right, onKey, how).collect());
}

const matches = [
  { k: 2, l: 'l2a', rk: 2, r: 'r2a' },
  { k: 2, l: 'l2a', rk: 2, r: 'r2b' },
  { k: 2, l: 'l2b', rk: 2, r: 'r2a' },
  { k: 2, l: 'l2b', rk: 2, r: 'r2b' },
];
const leftOnly = [
  { k: 1, l: 'l1', rk: null, r: null },
  { k: null, l: 'lnull', rk: null, r: null },
];
const rightOnly = [
  { k: null, l: null, rk: 3, r: 'r3' },
  { k: null, l: null, rk: null, r: 'rnull' },
];

describe('a hash join on an equality condition', () => {
  it('pairs every left row with every right row of the same key in an inner join', async () => {
    expect(await joined('inner')).toEqual(sorted(matches));
  });

  it('never matches a null key with another null key', async () => {
    const rows = await joined('inner');
    expect(rows.some((r) => r.k === null || r.rk === null)).toBe(false);
  });

  it('keeps unmatched left rows, null keys included, with nulls on the right in a left join', async () => {
    expect(await joined('left')).toEqual(sorted([...matches, ...leftOnly]));
  });

  it('keeps unmatched right rows with nulls on the left in a right join', async () => {
    expect(await joined('right')).toEqual(sorted([...matches, ...rightOnly]));
  });

  it('keeps unmatched rows of both sides in a full join', async () => {
    expect(await joined('full')).toEqual(sorted([...matches, ...leftOnly, ...rightOnly]));
  });

  it('returns each left row with a match once in a left semi join, however many rows match', async () => {
    expect(await joined('left_semi')).toEqual([
      { k: 2, l: 'l2a' },
      { k: 2, l: 'l2b' },
    ]);
  });

  it('returns the left rows without a match, null keys included, in a left anti join', async () => {
    expect(await joined('left_anti')).toEqual([
      { k: 1, l: 'l1' },
      { k: null, l: 'lnull' },
    ]);
  });

  it("accepts Spark's spellings of join types and rejects unknown ones, listing the valid ones", async () => {
    expect(await left.join(right, onKey, 'left_outer').count()).toBe(6);
    expect(await left.join(right, onKey, 'outer').count()).toBe(8);
    expect(await left.join(right, onKey, 'leftanti').count()).toBe(2);
    expect(() => left.join(right, onKey, 'sideways')).toThrow(InvalidOptionError);
    expect(() => left.join(right, onKey, 'sideways')).toThrow(
      /Unknown join type 'sideways'.*left_semi/,
    );
  });

  it('matches keys written right side first', async () => {
    const rows = await left.join(right, col('rk').eq(col('k'))).collect();
    expect(sorted(rows)).toEqual(sorted(matches));
  });

  it('joins on several keys at once', async () => {
    const a = session.createDataFrame(
      [
        { x: 1, y: 'a', v: 1 },
        { x: 1, y: 'b', v: 2 },
      ],
      'x INT, y STRING, v INT',
    );
    const b = session.createDataFrame([{ x2: 1, y2: 'b', w: 9 }], 'x2 INT, y2 STRING, w INT');
    const rows = await a
      .join(
        b,
        col('x')
          .eq(col('x2'))
          .and(col('y').eq(col('y2'))),
      )
      .collect();
    expect(rows).toEqual([{ x: 1, y: 'b', v: 2, x2: 1, y2: 'b', w: 9 }]);
  });

  it('joins keys of different numeric types and computed keys by the value they compare as', async () => {
    const a = session.createDataFrame([{ n: 2 }, { n: 3 }], 'n INT');
    const b = session.createDataFrame([{ m: 4 }, { m: 3 }], 'm DOUBLE');
    const rows = await a.join(b, col('n').multiply(2).eq(col('m'))).collect();
    expect(rows).toEqual([{ n: 2, m: 4 }]);
  });

  it('matches null with null on a null-safe equality (<=>)', async () => {
    const rows = await left
      .join(right, col('k').eqNullSafe(col('rk')))
      .select('l', 'r')
      .collect();
    expect(sorted(rows)).toContainEqual({ l: 'lnull', r: 'rnull' });
    expect(rows).toHaveLength(5);
  });

  it('tells DataFrames apart in the output schema: right columns become nullable in a left join', () => {
    const notNull = session.createDataFrame([{ z: 1 }], 'z INT NOT NULL');
    const schema = left.join(notNull, col('k').eq(col('z')), 'left').schema;
    expect(schema.fields.map((f) => [f.name, f.nullable])).toEqual([
      ['k', true],
      ['l', true],
      ['z', true],
    ]);
  });
});

describe('the residual part of a join condition', () => {
  const residual = onKey.and(col('r').neq(lit('r2b')));

  it('filters the candidate pairs of an inner join', async () => {
    const rows = await left.join(right, residual).select('l', 'r').collect();
    expect(sorted(rows)).toEqual([
      { l: 'l2a', r: 'r2a' },
      { l: 'l2b', r: 'r2a' },
    ]);
  });

  it('keeps a left row whose candidates all fail it in a left join (ON, not WHERE)', async () => {
    const rows = await left
      .join(right, onKey.and(col('l').eq(lit('l2a'))), 'left')
      .select('l', 'r')
      .collect();
    expect(sorted(rows)).toEqual([
      { l: 'l1', r: null },
      { l: 'l2a', r: 'r2a' },
      { l: 'l2a', r: 'r2b' },
      { l: 'l2b', r: null },
      { l: 'lnull', r: null },
    ]);
  });

  it('leaves a right row that only failed it unmatched in a right join', async () => {
    const rows = await left.join(right, residual, 'right').select('l', 'r').collect();
    expect(sorted(rows)).toEqual(
      sorted([
        { l: 'l2a', r: 'r2a' },
        { l: 'l2b', r: 'r2a' },
        { l: null, r: 'r2b' },
        { l: null, r: 'r3' },
        { l: null, r: 'rnull' },
      ]),
    );
  });

  it('decides semi and anti membership', async () => {
    const semi = left.join(right, onKey.and(col('l').eq(lit('l2b'))), 'left_semi');
    const anti = left.join(right, onKey.and(col('l').eq(lit('l2b'))), 'left_anti');
    expect(await semi.select('l').collect()).toEqual([{ l: 'l2b' }]);
    expect(sorted(await anti.select('l').collect())).toEqual([
      { l: 'l1' },
      { l: 'l2a' },
      { l: 'lnull' },
    ]);
  });

  it('joins on a condition with no equality at all (a range join)', async () => {
    const a = session.createDataFrame([{ t: 1 }, { t: 5 }], 't INT');
    const b = session.createDataFrame(
      [
        { lo: 0, hi: 2 },
        { lo: 4, hi: 9 },
        { lo: 0, hi: 9 },
      ],
      'lo INT, hi INT',
    );
    const rows = await a
      .join(
        b,
        col('t')
          .geq(col('lo'))
          .and(col('t').lt(col('hi'))),
      )
      .collect();
    expect(sorted(rows)).toEqual(
      sorted([
        { t: 1, lo: 0, hi: 2 },
        { t: 1, lo: 0, hi: 9 },
        { t: 5, lo: 4, hi: 9 },
        { t: 5, lo: 0, hi: 9 },
      ]),
    );
  });
});

describe('a join on named columns (usingColumns)', () => {
  const a = session.createDataFrame(
    [
      { id: 1, v: 'a1' },
      { id: 2, v: 'a2' },
      { id: null, v: 'anull' },
    ],
    'id INT, v STRING',
  );
  const b = session.createDataFrame(
    [
      { w: 'b2', id: 2 },
      { w: 'b3', id: 3 },
      { w: 'bnull', id: null },
    ],
    'w STRING, id INT',
  );

  it('outputs the key once, then the other left columns, then the other right columns', async () => {
    const df = a.join(b, 'id');
    expect(df.columns).toEqual(['id', 'v', 'w']);
    expect(await df.collect()).toEqual([{ id: 2, v: 'a2', w: 'b2' }]);
  });

  it("takes the right side's key in a right join", async () => {
    expect(sorted(await a.join(b, ['id'], 'right').collect())).toEqual(
      sorted([
        { id: 2, v: 'a2', w: 'b2' },
        { id: 3, v: null, w: 'b3' },
        { id: null, v: null, w: 'bnull' },
      ]),
    );
  });

  it('takes whichever key is present in a full join (coalesce), never matching null keys', async () => {
    expect(sorted(await a.join(b, 'id', 'full').collect())).toEqual(
      sorted([
        { id: 1, v: 'a1', w: null },
        { id: 2, v: 'a2', w: 'b2' },
        { id: null, v: 'anull', w: null },
        { id: 3, v: null, w: 'b3' },
        { id: null, v: null, w: 'bnull' },
      ]),
    );
  });

  it('keeps the left schema in semi and anti joins', async () => {
    expect(await a.join(b, 'id', 'left_semi').collect()).toEqual([{ id: 2, v: 'a2' }]);
    expect(sorted(await a.join(b, 'id', 'left_anti').collect())).toEqual([
      { id: 1, v: 'a1' },
      { id: null, v: 'anull' },
    ]);
  });

  it('joins on several named columns', async () => {
    const x = session.createDataFrame(
      [
        { p: 1, q: 'a', n: 1 },
        { p: 1, q: 'b', n: 2 },
      ],
      'p INT, q STRING, n INT',
    );
    const y = session.createDataFrame([{ q: 'b', p: 1, m: 3 }], 'q STRING, p INT, m INT');
    expect(await x.join(y, ['p', 'q']).collect()).toEqual([{ p: 1, q: 'b', n: 2, m: 3 }]);
  });

  it('rejects a column missing on one side and keys of different types', () => {
    expect(() => a.join(b, 'v')).toThrow(/Cannot resolve column 'v'; available columns: w, id/);
    const c = session.createDataFrame([], 'id STRING');
    expect(() => a.join(c, 'id')).toThrow(
      /join column 'id' is integer on the left and string on the right/,
    );
  });
});

describe('column disambiguation through df.col', () => {
  const orders = session.createDataFrame(
    [
      { id: 1, amount: 10 },
      { id: 2, amount: 20 },
    ],
    'id INT, amount INT',
  );
  const customers = session.createDataFrame(
    [
      { id: 1, name: 'ann' },
      { id: 3, name: 'bob' },
    ],
    'id INT, name STRING',
  );

  it('tells two columns of the same name apart in the condition and after the join', async () => {
    const df = orders
      .join(customers, orders.col('id').eq(customers.col('id')), 'full')
      .select(orders.col('id').alias('order_id'), customers.col('id').alias('customer_id'), 'name');
    expect(sorted(await df.collect())).toEqual(
      sorted([
        { order_id: 1, customer_id: 1, name: 'ann' },
        { order_id: 2, customer_id: null, name: null },
        { order_id: null, customer_id: 3, name: 'bob' },
      ]),
    );
  });

  it('follows the column through later filters and added columns', async () => {
    const df = orders
      .join(customers, orders.col('id').eq(customers.col('id')), 'left')
      .withColumn('big', col('amount').gt(15))
      .filter(customers.col('id').isNull())
      .select(orders.col('id'), 'big');
    expect(await df.collect()).toEqual([{ id: 2, big: true }]);
  });

  it('picks the right side of a same-named non-key column after a join on named columns', async () => {
    const names = session.createDataFrame([{ id: 1, name: 'ANN' }], 'id INT, name STRING');
    const df = customers.join(names, 'id').select('id', names.col('name'), customers.col('name'));
    expect(await df.select(names.col('name').alias('upper')).collect()).toEqual([{ upper: 'ANN' }]);
  });

  it('resolves df.col on the side of a join that is itself a join', async () => {
    const regions = session.createDataFrame([{ id: 1, region: 'eu' }], 'id INT, region STRING');
    const df = orders
      .join(customers, orders.col('id').eq(customers.col('id')))
      .join(regions, customers.col('id').eq(regions.col('id')))
      .select('amount', 'name', 'region');
    expect(await df.collect()).toEqual([{ amount: 10, name: 'ann', region: 'eu' }]);
  });

  it('rejects a plain name that both sides have, suggesting df.col', () => {
    const df = orders.join(customers, orders.col('id').eq(customers.col('id')));
    expect(() => df.select('id')).toThrow(AnalysisError);
    expect(() => df.select('id')).toThrow(/'id' is ambiguous.*df\.col\('id'\)/);
    expect(() => orders.join(customers, col('id').eq(col('id')))).toThrow(/ambiguous/);
  });

  it('rejects a column of a DataFrame joined with itself, suggesting a rename', () => {
    expect(() => orders.join(orders, orders.col('id').eq(orders.col('id')))).toThrow(
      /self-join.*withColumnRenamed/,
    );
  });
});

describe('a join without a condition', () => {
  const a = session.createDataFrame([{ x: 1 }, { x: 2 }], 'x INT');
  const b = session.createDataFrame([{ y: 'p' }, { y: 'q' }, { y: 'r' }], 'y STRING');
  const none = session.createDataFrame([], 'y STRING');

  it('is a cross join: every left row with every right row', async () => {
    const rows = await a.join(b).collect();
    expect(rows).toHaveLength(6);
    expect(sorted(rows)[0]).toEqual({ x: 1, y: 'p' });
  });

  it('is empty when either side is empty', async () => {
    expect(await a.join(none).collect()).toEqual([]);
  });

  it("treats every pair as a match in outer, semi and anti joins, as Spark's condition-less joins do", async () => {
    expect(await a.join(none, undefined, 'left').collect()).toEqual([
      { x: 1, y: null },
      { x: 2, y: null },
    ]);
    expect(await a.join(b, undefined, 'left_semi').count()).toBe(2);
    expect(await a.join(b, undefined, 'left_anti').count()).toBe(0);
    expect(await a.join(none, undefined, 'left_anti').count()).toBe(2);
  });
});

describe('a stream-static join', () => {
  const clicks = parseSchema('user INT, page STRING');
  const users = session.createDataFrame(
    [
      { user: 1, name: 'ann' },
      { user: 2, name: 'bob' },
    ],
    'user INT, name STRING',
  );

  /** A static DataFrame whose rows the test may change between micro-batches. */
  function mutableTable(rows: Row[]): DataFrame {
    return new DataFrame(session, {
      kind: 'relation',
      id: newPlanId(),
      description: 'MutableTable',
      scan: async () => [...rows],
      schema: parseSchema('user INT, name STRING'),
      isStreaming: false,
    });
  }

  it('joins each micro-batch of the stream with the static side', async () => {
    const events = session.memoryStream(clicks);
    const enriched = session.readStream.memory(events).join(users, 'user', 'left');
    const query = await enriched.writeStream
      .format('memory')
      .queryName('ss1')
      .option('checkpointLocation', tempDir())
      .start();
    events.addData([
      { user: 1, page: 'home' },
      { user: 9, page: 'cart' },
    ]);
    await query.processAllAvailable();
    events.addData([{ user: 2, page: 'home' }]);
    await query.processAllAvailable();
    await query.stop();
    expect(sorted(await session.table('ss1').collect())).toEqual(
      sorted([
        { user: 1, page: 'home', name: 'ann' },
        { user: 9, page: 'cart', name: null },
        { user: 2, page: 'home', name: 'bob' },
      ]),
    );
  });

  it('reads the static side again for every micro-batch', async () => {
    const table: Row[] = [[1, 'ann']];
    const events = session.memoryStream(clicks);
    const enriched = session.readStream.memory(events).join(mutableTable(table), 'user');
    const query = await enriched.writeStream
      .format('memory')
      .queryName('ss2')
      .option('checkpointLocation', tempDir())
      .start();
    events.addData([{ user: 2, page: 'home' }]);
    await query.processAllAvailable();
    table.push([2, 'bob']);
    events.addData([{ user: 2, page: 'cart' }]);
    await query.processAllAvailable();
    await query.stop();
    expect(await session.table('ss2').collect()).toEqual([{ user: 2, page: 'cart', name: 'bob' }]);
  });

  const stream = () => session.readStream.memory(session.memoryStream(clicks));
  const start = (df: DataFrame) =>
    df.writeStream.format('memory').option('checkpointLocation', tempDir()).start();

  it('accepts inner, left outer, left semi and left anti joins with the stream on the left', async () => {
    for (const how of ['inner', 'left', 'left_semi', 'left_anti']) {
      const query = await start(stream().join(users, 'user', how));
      await query.stop();
    }
  });

  it('accepts inner and right outer joins with the stream on the right', async () => {
    for (const how of ['inner', 'right']) {
      const query = await start(users.join(stream(), 'user', how));
      await query.stop();
    }
  });

  it('rejects, at start, outer joins that would need to know which stream rows never arrive', async () => {
    await expect(start(stream().join(users, 'user', 'full'))).rejects.toThrow(
      UnsupportedOperationError,
    );
    await expect(start(stream().join(users, 'user', 'right'))).rejects.toThrow(
      /right join with a streaming DataFrame on the left/,
    );
    for (const how of ['left', 'left_semi', 'left_anti', 'full']) {
      await expect(start(users.join(stream(), 'user', how))).rejects.toThrow(
        new RegExp(`${how} join with a streaming DataFrame on the right`),
      );
    }
  });

  it('rejects an outer join of two streams without watermarks at start', async () => {
    await expect(start(stream().join(stream(), 'user', 'left'))).rejects.toThrow(
      /Stream-stream LeftOuter join between two streaming DataFrames is not supported without a watermark/,
    );
  });

  it('allows any join between two static DataFrames inside a streaming query', async () => {
    const lookup = users.join(session.createDataFrame([], 'user INT, tier STRING'), 'user', 'full');
    const query = await start(stream().join(lookup, 'user', 'left'));
    await query.stop();
  });
});
