/**
 * SQL through the session: temporary views and the catalog, `session.sql` building the plans the
 * DataFrame API builds (the same rows and schema, batch and streaming), `selectExpr`,
 * `filter(text)`, `expr`, EXPLAIN, and analysis errors that name the unknown table or column with
 * the closest known one.
 */
import { describe, expect, it } from 'vitest';
import {
  AnalysisError,
  col,
  count,
  type DataFrame,
  interval,
  lit,
  type RowObject,
  session_window,
  SluiceSession,
  sum,
  upper,
  when,
  window,
} from '../../core/index.js';
import { expr } from '../../core/sql/index.js';
import { addData, checkAnswer, checkLastBatch, testStream } from '../../core/testing/index.js';
import { at } from '../support/events.js';

const SALES = 'id INT, category STRING, price DOUBLE, qty INT, ts TIMESTAMP';

function sales(session = new SluiceSession()): { session: SluiceSession; df: DataFrame } {
  const df = session.createDataFrame(
    [
      { id: 1, category: 'books', price: 10, qty: 2, ts: at('10:01') },
      { id: 2, category: 'games', price: 60, qty: 1, ts: at('10:04') },
      { id: 3, category: 'books', price: 5, qty: null, ts: at('10:12') },
      { id: 4, category: null, price: 7.5, qty: 4, ts: at('10:13') },
    ],
    SALES,
  );
  df.createOrReplaceTempView('sales');
  return { session, df };
}

const sortedRows = (rows: RowObject[]) => rows.map((r) => JSON.stringify(r)).sort();

async function expectSame(fromSql: DataFrame, fromApi: DataFrame): Promise<void> {
  expect(fromSql.schema).toEqual(fromApi.schema);
  expect(sortedRows(await fromSql.collect())).toEqual(sortedRows(await fromApi.collect()));
}

describe('SQL and the DataFrame API are one thing', () => {
  const { session, df } = sales();

  it.each<[string, string, (d: DataFrame) => DataFrame]>([
    [
      'a projection',
      'SELECT id, price * qty AS total FROM sales',
      (d) => d.select(col('id'), col('price').multiply(col('qty')).alias('total')),
    ],
    [
      'a filter',
      "SELECT * FROM sales WHERE price > 6 AND category = 'books'",
      (d) => d.filter(col('price').gt(6).and(col('category').eq('books'))),
    ],
    [
      'an aggregate',
      'SELECT category, count(*) AS n, sum(qty) AS q FROM sales GROUP BY category',
      (d) => d.groupBy('category').agg(count().alias('n'), sum('qty').alias('q')),
    ],
    [
      'a window aggregate',
      "SELECT window, count(*) AS count FROM sales GROUP BY window(ts, '10 minutes')",
      (d) => d.groupBy(window(col('ts'), '10 minutes')).count(),
    ],
    [
      'a session-window aggregate',
      "SELECT session_window, count(*) AS count FROM sales GROUP BY session_window(ts, '5 minutes')",
      (d) => d.groupBy(session_window(col('ts'), '5 minutes')).count(),
    ],
    [
      'a session window whose gap an expression gives per row',
      "SELECT category, session_window.end AS ends, count(*) AS n FROM sales GROUP BY category, session_window(ts, CASE WHEN category = 'books' THEN '30 minutes' ELSE '1 minute' END)",
      (d) =>
        d
          .groupBy(
            col('category'),
            session_window(
              col('ts'),
              when(col('category').eq('books'), lit('30 minutes')).otherwise(lit('1 minute')),
            ),
          )
          .agg(count().alias('n'))
          .select(col('category'), col('session_window.end').alias('ends'), col('n')),
    ],
    ['a function call', 'SELECT upper(category) FROM sales', (d) => d.select(upper('category'))],
    [
      'timestamp arithmetic with an interval',
      "SELECT id, ts + INTERVAL 1 hour 30 minutes AS later, ts - INTERVAL '1' MONTH AS before FROM sales",
      (d) =>
        d.select(
          col('id'),
          col('ts').plus(interval('1 hour 30 minutes')).alias('later'),
          col('ts').minus(interval('1 month')).alias('before'),
        ),
    ],
    [
      'a sort and limit',
      'SELECT id FROM sales ORDER BY price DESC LIMIT 2',
      (d) => d.orderBy(col('price').desc()).limit(2).select('id'),
    ],
  ])('%s', async (_, sql, api) => {
    await expectSame(session.sql(sql), api(df));
  });

  it('names unaliased columns as Spark does', () => {
    const names = session.sql(
      'SELECT id + 1, count(*), sum(qty), upper(category) FROM sales GROUP BY id + 1, category',
    ).columns;
    expect(names).toEqual(['(id + 1)', 'count(1)', 'sum(qty)', 'upper(category)']);
  });

  it('a grouping key may be written again in the select list, qualified or as a field of the window', async () => {
    const rows = await session
      .sql(
        "SELECT s.category, window.start AS start, count(*) AS n FROM sales s GROUP BY window(ts, '10 minutes'), category ORDER BY start, category",
      )
      .collect();
    expect(rows).toEqual([
      { category: 'books', start: at('10:00'), n: 1 },
      { category: 'games', start: at('10:00'), n: 1 },
      { category: null, start: at('10:10'), n: 1 },
      { category: 'books', start: at('10:10'), n: 1 },
    ]);
  });

  it('ORDER BY may sort on a column or an aggregate the select list does not show', async () => {
    expect(await session.sql('SELECT id FROM sales ORDER BY price').collect()).toEqual([
      { id: 3 },
      { id: 4 },
      { id: 1 },
      { id: 2 },
    ]);
    const byCount = await session
      .sql('SELECT category FROM sales GROUP BY category ORDER BY count(*) DESC, category')
      .collect();
    expect(byCount).toEqual([{ category: 'books' }, { category: null }, { category: 'games' }]);
  });

  it('GROUP BY and ORDER BY take select positions and aliases', async () => {
    const rows = await session
      .sql('SELECT category AS c, count(*) AS n FROM sales GROUP BY c ORDER BY 2 DESC, 1')
      .collect();
    expect(rows).toEqual([
      { c: 'books', n: 2 },
      { c: null, n: 1 },
      { c: 'games', n: 1 },
    ]);
  });

  it('a self-join tells the two sides apart by alias', async () => {
    const rows = await session
      .sql(
        'SELECT a.id, b.id AS other FROM sales a JOIN sales b ON a.category = b.category AND a.id < b.id',
      )
      .collect();
    expect(rows).toEqual([{ id: 1, other: 3 }]);
  });

  it('SELECT without FROM is one row', async () => {
    expect(await session.sql("SELECT 1 + 2 * 3 AS x, 'a' || 'b' AS s").collect()).toEqual([
      { x: 7, s: 'ab' },
    ]);
  });

  it('EXPLAIN returns the plan as text', async () => {
    const [row] = await session
      .sql('EXPLAIN SELECT category, count(*) FROM sales WHERE qty > 1 GROUP BY category')
      .collect();
    expect(row.plan).toMatch(
      /^Aggregate keys category values count\(1\).*\n\s+Filter \(qty > 1\)/s,
    );
  });
});

describe('errors name what is unknown, with the closest known name', () => {
  const { session } = sales();

  it.each([
    [
      'SELECT * FROM sale',
      /Table or view not found: sale \(line 1, column 15\)\. Did you mean `sales`\?/,
    ],
    ['SELECT catgory FROM sales', /Cannot resolve column 'catgory'.*Did you mean `category`\?/],
    ['SELECT s.catgory FROM sales s', /'s' has no column 'catgory'.*Did you mean `category`\?/],
    [
      'SELECT cout(*) FROM sales',
      /Unknown function 'cout' at line 1, column 8\. Did you mean `count`\?/,
    ],
    [
      'SELECT id, count(*) FROM sales GROUP BY category',
      /Column 'id' is neither in GROUP BY nor inside an aggregate function/,
    ],
    ['SELECT sum(count(*)) FROM sales', /nests an aggregate function inside another/],
    [
      'SELECT id FROM sales UNION SELECT id, qty FROM sales',
      /UNION \(line 1, column 22\) needs the same number of columns on both sides: 1 vs 2/,
    ],
    [
      'SELECT id FROM sales INTERSECT ALL SELECT id, qty FROM sales',
      /INTERSECT ALL \(line 1, column 22\) needs the same number of columns on both sides: 1 vs 2/,
    ],
    ['SELECT * FROM sales a JOIN sales a ON a.id = a.id', /names two items 'a'/],
  ])('%s', (sql, message) => {
    expect(() => session.sql(sql)).toThrow(AnalysisError);
    expect(() => session.sql(sql)).toThrow(message);
  });
});

describe('temporary views and the catalog', () => {
  it('lists views and memory tables, replaces a view by name in any case, and drops it', () => {
    const { session, df } = sales();
    df.filter('qty > 1').createOrReplaceTempView('Busy');
    expect(session.catalog.listTables().map((t) => [t.name, t.isStreaming])).toEqual([
      ['sales', false],
      ['Busy', false],
    ]);
    df.select('id').createOrReplaceTempView('busy');
    expect(session.table('BUSY').columns).toEqual(['id']);
    expect(session.catalog.tableExists('Busy')).toBe(true);
    expect(session.catalog.dropTempView('busy')).toBe(true);
    expect(session.catalog.dropTempView('busy')).toBe(false);
    expect(() => session.table('busy')).toThrow(/Table or view not found: busy/);
  });

  it('refuses a view name SQL could not refer to', () => {
    expect(() => sales().df.createOrReplaceTempView('my view')).toThrow(
      /Invalid view name 'my view'/,
    );
  });

  it('a streaming view keeps its watermark, and a query over it is a stream', async () => {
    const session = new SluiceSession();
    const events = session.memoryStream('ts TIMESTAMP, category STRING');
    session.readStream
      .memory(events)
      .withWatermark('ts', '10 minutes')
      .createOrReplaceTempView('events');
    expect(session.catalog.listTables()).toMatchObject([{ name: 'events', isStreaming: true }]);
    const counts = session.sql(
      "SELECT window, category, count(*) AS count FROM events GROUP BY window(ts, '10 minutes'), category",
    );
    expect(counts.isStreaming).toBe(true);
    await testStream(counts, 'append')(
      addData(events, [{ ts: at('10:01'), category: 'a' }]),
      checkAnswer([]),
      addData(events, [{ ts: at('10:25'), category: 'b' }]),
      checkLastBatch([
        { window: { start: at('10:00'), end: at('10:10') }, category: 'a', count: 1 },
      ]),
    );
  });
});

describe('SQL text in DataFrame methods', () => {
  const { df } = sales();

  it('filter and where take a SQL condition', async () => {
    expect(await df.filter("price > 6 AND category LIKE 'b%'").select('id').collect()).toEqual([
      { id: 1 },
    ]);
    expect(await df.where('qty IS NULL').select('id').collect()).toEqual([{ id: 3 }]);
  });

  it('selectExpr projects SQL expressions, and aggregates the whole DataFrame when they hold aggregates', async () => {
    expect(await df.selectExpr('id', 'price * 2 AS double_price').limit(1).collect()).toEqual([
      { id: 1, double_price: 20 },
    ]);
    expect(await df.selectExpr('count(*) AS n', 'max(price)').collect()).toEqual([
      { n: 4, 'max(price)': 60 },
    ]);
  });

  it('expr is a Column, usable wherever one is, with its alias', async () => {
    const rows = await df
      .groupBy(expr('upper(category)').alias('c'))
      .agg(expr('sum(qty) AS q'))
      .orderBy('c')
      .collect();
    expect(rows).toEqual([
      { c: null, q: 4 },
      { c: 'BOOKS', q: 2 },
      { c: 'GAMES', q: 1 },
    ]);
  });
});
