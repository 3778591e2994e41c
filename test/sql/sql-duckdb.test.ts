/**
 * SQL checked against DuckDB: each query runs through `session.sql` and through DuckDB on the same
 * generated tables (nulls included), and the answers must be the same rows (in order where the
 * query orders them). Where the dialects differ, the DuckDB form is written beside the Spark one.
 */
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RowObject, SluiceSession, Timestamp } from '../../core/index.js';
import '../../core/sql/index.js';

const ORDERS = 'id INT, customer STRING, amount DOUBLE, qty INT, ts TIMESTAMP';
const CUSTOMERS = 'name STRING, region STRING';
const START = Date.parse('2026-01-01T10:00:00Z') * 1000;

/** A deterministic generator (mulberry32), so a failure reproduces. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const next = random(42);
const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)];
const names = ['ann', 'bob', 'cy', 'dee', 'eve', null] as const;
const orders: RowObject[] = Array.from({ length: 120 }, (_, id) => ({
  id,
  customer: pick(names),
  amount: next() < 0.1 ? null : Math.round(next() * 10_000) / 100,
  qty: next() < 0.15 ? null : Math.floor(next() * 6),
  ts: Timestamp.fromEpochMicros(START + Math.floor(next() * 3600) * 1_000_000),
}));
const customers: RowObject[] = [
  { name: 'ann', region: 'north' },
  { name: 'bob', region: 'south' },
  { name: 'cy', region: null },
  { name: 'zed', region: 'east' },
];

/** Each query in Spark SQL, and in DuckDB's dialect where it differs; `ordered` compares row order. */
const QUERIES: readonly { spark: string; duck?: string; ordered?: boolean }[] = [
  { spark: 'SELECT id, amount * qty AS total FROM orders WHERE amount > 10 AND qty IS NOT NULL' },
  { spark: 'SELECT id FROM orders WHERE NOT (qty > 2) OR amount IS NULL' },
  {
    spark:
      'SELECT customer, count(*), count(qty), sum(qty), avg(amount), min(amount), max(amount) FROM orders GROUP BY customer',
  },
  { spark: 'SELECT customer, count(*) AS n FROM orders GROUP BY customer HAVING count(*) > 20' },
  { spark: 'SELECT customer, count(DISTINCT qty) FROM orders GROUP BY customer' },
  { spark: 'SELECT count(*), sum(amount) FROM orders' },
  { spark: 'SELECT qty, customer, count(*) FROM orders GROUP BY qty, customer' },
  { spark: 'SELECT qty % 2 AS parity, max(id) FROM orders GROUP BY qty % 2' },
  {
    spark:
      'SELECT customer FROM orders GROUP BY customer ORDER BY count(*) DESC, customer NULLS FIRST',
    ordered: true,
  },
  { spark: 'SELECT DISTINCT customer, qty FROM orders' },
  {
    spark: 'SELECT id, amount FROM orders ORDER BY amount DESC NULLS LAST, id LIMIT 7',
    ordered: true,
  },
  {
    spark: 'SELECT id FROM orders ORDER BY qty, id DESC',
    duck: 'SELECT id FROM orders ORDER BY qty NULLS FIRST, id DESC',
    ordered: true,
  },
  { spark: 'SELECT o.id, c.region FROM orders o JOIN customers c ON o.customer = c.name' },
  { spark: 'SELECT o.id, c.region FROM orders o LEFT JOIN customers c ON o.customer = c.name' },
  {
    spark: 'SELECT o.id, c.name FROM orders o RIGHT OUTER JOIN customers c ON o.customer = c.name',
  },
  { spark: 'SELECT o.id, c.name FROM orders o FULL JOIN customers c ON o.customer = c.name' },
  {
    spark: 'SELECT * FROM customers c LEFT SEMI JOIN orders o ON o.customer = c.name',
    duck: 'SELECT * FROM customers c SEMI JOIN orders o ON o.customer = c.name',
  },
  {
    spark: 'SELECT * FROM customers c LEFT ANTI JOIN orders o ON o.customer = c.name',
    duck: 'SELECT * FROM customers c ANTI JOIN orders o ON o.customer = c.name',
  },
  {
    spark:
      'SELECT id, region FROM orders JOIN (SELECT name AS customer, region FROM customers) USING (customer)',
    duck: 'SELECT id, region FROM orders JOIN (SELECT name AS customer, region FROM customers) r USING (customer)',
  },
  {
    spark:
      'SELECT c.name AS a, d.name AS b FROM customers c CROSS JOIN customers d WHERE c.name < d.name',
  },
  { spark: 'SELECT a.name, b.region FROM customers a, customers b WHERE a.name = b.name' },
  { spark: 'SELECT customer FROM orders UNION ALL SELECT name FROM customers' },
  { spark: 'SELECT customer FROM orders UNION SELECT name FROM customers' },
  { spark: 'SELECT customer FROM orders EXCEPT SELECT name FROM customers' },
  { spark: 'SELECT name FROM customers INTERSECT SELECT customer FROM orders' },
  {
    spark:
      'SELECT customer, qty FROM orders EXCEPT ALL SELECT customer, qty FROM orders WHERE id % 3 = 0',
  },
  {
    spark:
      'SELECT qty FROM orders WHERE id < 80 INTERSECT ALL SELECT qty FROM orders WHERE id > 40',
  },
  {
    spark:
      'SELECT qty FROM orders WHERE qty > 3 UNION ALL SELECT qty FROM orders WHERE qty < 1 INTERSECT SELECT qty FROM orders',
  },
  {
    spark:
      "SELECT id, CASE WHEN qty IS NULL THEN 'none' WHEN qty < 2 THEN 'few' ELSE 'many' END AS size FROM orders",
  },
  { spark: "SELECT id, CASE customer WHEN 'ann' THEN 1 WHEN 'bob' THEN 2 END AS k FROM orders" },
  { spark: 'SELECT id, qty IN (1, 3, 5) AS odd, qty NOT IN (0, NULL) AS x FROM orders' },
  { spark: 'SELECT id FROM orders WHERE amount BETWEEN 20 AND 40 AND qty NOT BETWEEN 1 AND 2' },
  { spark: "SELECT id, customer LIKE '%e%' AS l, customer NOT LIKE 'a_n' AS nl FROM orders" },
  {
    spark: "SELECT id, customer RLIKE '^(a|b)' AS r FROM orders",
    duck: "SELECT id, regexp_matches(customer, '^(a|b)') AS r FROM orders",
  },
  { spark: 'SELECT id, coalesce(qty, -1) AS q, qty IS NULL AS missing FROM orders' },
  {
    spark: 'SELECT id, CAST(qty AS STRING) AS s, amount::int AS a FROM orders',
    duck: 'SELECT id, CAST(qty AS VARCHAR) AS s, trunc(amount)::int AS a FROM orders',
  },
  {
    spark:
      "SELECT upper(customer), length(customer), customer || '!' AS shout, substring(customer, 2, 2) FROM orders",
  },
  { spark: 'SELECT id, -amount AS neg, 1 + 2 * qty - 4 / 2 AS calc, qty % 4 AS m FROM orders' },
  { spark: "SELECT id, amount > 50 AND qty < 3 OR customer = 'eve' AS p FROM orders" },
  {
    spark: 'SELECT id, qty <=> NULL AS n FROM orders',
    duck: 'SELECT id, qty IS NOT DISTINCT FROM NULL AS n FROM orders',
  },
  {
    spark:
      'SELECT big.id FROM (SELECT id, amount FROM orders WHERE amount > 80) AS big WHERE big.id > 10',
  },
  {
    spark:
      'WITH spend AS (SELECT customer, sum(amount) AS total FROM orders GROUP BY customer), top AS (SELECT * FROM spend WHERE total > 500) SELECT customer FROM top',
  },
  {
    spark:
      'SELECT c.region, count(*) AS n FROM orders o JOIN customers c ON o.customer = c.name GROUP BY c.region',
  },
  {
    spark: "SELECT window.start AS s, count(*) AS n FROM orders GROUP BY window(ts, '10 minutes')",
    duck: "SELECT epoch_us(time_bucket(INTERVAL '10 minutes', ts)) AS s, count(*) AS n FROM orders GROUP BY 1",
  },
  {
    spark: 'SELECT hour(ts) AS h, year(ts) AS y, count(*) FROM orders GROUP BY 1, 2',
    duck: 'SELECT hour(ts) AS h, year(ts) AS y, count(*) FROM orders GROUP BY 1, 2',
  },
  {
    spark:
      "SELECT id, concat_ws('-', customer, CAST(qty AS STRING)) AS k, lpad(customer, 5, '*') AS l, rpad(customer, 4, 'xy') AS r, instr(customer, 'e') AS i FROM orders",
  },
  {
    spark: "SELECT id, regexp_replace(customer, '[aeiou]', '_') AS v FROM orders",
    duck: "SELECT id, regexp_replace(customer, '[aeiou]', '_', 'g') AS v FROM orders",
  },
  {
    spark:
      "SELECT id, greatest(qty, 2) AS g, least(amount, 50.0) AS s, nullif(qty, 0) AS z, nvl(qty, -1) AS q, ifnull(customer, '?') AS c FROM orders",
    duck: "SELECT id, greatest(qty, 2) AS g, least(amount, 50.0) AS s, nullif(qty, 0) AS z, coalesce(qty, -1) AS q, ifnull(customer, '?') AS c FROM orders",
  },
  {
    spark: 'SELECT id, md5(customer) AS h, sha2(customer, 256) AS s FROM orders',
    duck: 'SELECT id, md5(customer) AS h, sha256(customer) AS s FROM orders',
  },
  {
    spark:
      "SELECT id, datediff(ts, DATE '2025-12-01') AS dd, date_format(ts, 'yyyy-MM-dd HH:mm') AS f, unix_millis(ts) AS ms, EXTRACT(MINUTE FROM ts) AS mi, CAST(date_add(ts, 40) AS STRING) AS plus, CAST(add_months(ts, 1) AS STRING) AS am FROM orders",
    duck: "SELECT id, datediff('day', DATE '2025-12-01', ts::DATE) AS dd, strftime(ts, '%Y-%m-%d %H:%M') AS f, epoch_ms(ts) AS ms, minute(ts) AS mi, CAST(ts::DATE + 40 AS VARCHAR) AS plus, CAST(CAST(ts::DATE + INTERVAL 1 MONTH AS DATE) AS VARCHAR) AS am FROM orders",
  },
  {
    spark:
      "SELECT id, size(split(customer, 'e')) AS n, element_at(split(customer, 'e'), 1) AS f, array_contains(split(customer, 'e'), '') AS e FROM orders WHERE customer IS NOT NULL",
    duck: "SELECT id, len(string_split(customer, 'e')) AS n, string_split(customer, 'e')[1] AS f, list_contains(string_split(customer, 'e'), '') AS e FROM orders WHERE customer IS NOT NULL",
  },
  {
    spark:
      'SELECT id, row_number() OVER (PARTITION BY customer ORDER BY ts, id) AS rn, rank() OVER (PARTITION BY customer ORDER BY qty DESC) AS r, dense_rank() OVER (ORDER BY qty) AS dr, ntile(3) OVER (PARTITION BY customer ORDER BY id) AS t FROM orders',
    duck: 'SELECT id, row_number() OVER (PARTITION BY customer ORDER BY ts, id) AS rn, rank() OVER (PARTITION BY customer ORDER BY qty DESC NULLS LAST) AS r, dense_rank() OVER (ORDER BY qty NULLS FIRST) AS dr, ntile(3) OVER (PARTITION BY customer ORDER BY id) AS t FROM orders',
  },
  {
    spark:
      'SELECT id, lag(amount) OVER (PARTITION BY customer ORDER BY id) AS prev, lead(qty, 2, 0) OVER (ORDER BY id) AS next2, first_value(amount) OVER (PARTITION BY customer ORDER BY id) AS f, last_value(amount) OVER (PARTITION BY customer ORDER BY id ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) AS l FROM orders',
  },
  {
    spark:
      'SELECT id, sum(amount) OVER (PARTITION BY customer ORDER BY id ROWS BETWEEN 2 PRECEDING AND 1 FOLLOWING) AS moving, count(*) OVER (PARTITION BY customer) AS n, avg(qty) OVER (PARTITION BY customer ORDER BY qty RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS near, max(amount) OVER (ORDER BY qty) AS running FROM orders',
    duck: 'SELECT id, sum(amount) OVER (PARTITION BY customer ORDER BY id ROWS BETWEEN 2 PRECEDING AND 1 FOLLOWING) AS moving, count(*) OVER (PARTITION BY customer) AS n, avg(qty) OVER (PARTITION BY customer ORDER BY qty NULLS FIRST RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS near, max(amount) OVER (ORDER BY qty NULLS FIRST) AS running FROM orders',
  },
];

let duck: DuckDBConnection;
let session: SluiceSession;

beforeAll(async () => {
  duck = await (await DuckDBInstance.create(':memory:')).connect();
  session = new SluiceSession();
  session.createDataFrame(orders, ORDERS).createOrReplaceTempView('orders');
  session.createDataFrame(customers, CUSTOMERS).createOrReplaceTempView('customers');
  await duck.run(
    'CREATE TABLE orders (id INTEGER, customer VARCHAR, amount DOUBLE, qty INTEGER, ts TIMESTAMP)',
  );
  await duck.run('CREATE TABLE customers (name VARCHAR, region VARCHAR)');
  await duck.run(`INSERT INTO orders VALUES ${orders.map(orderValues).join(', ')}`);
  await duck.run(
    `INSERT INTO customers VALUES ${customers.map((c) => `(${text(c.name)}, ${text(c.region)})`).join(', ')}`,
  );
});

afterAll(() => duck.closeSync());

function orderValues(o: RowObject): string {
  const ts = `make_timestamp(${(o.ts as Timestamp).epochMicros})`;
  return `(${o.id as number}, ${text(o.customer)}, ${o.amount ?? 'NULL'}, ${o.qty ?? 'NULL'}, ${ts})`;
}

function text(v: unknown): string {
  return v === null ? 'NULL' : `'${String(v).replaceAll("'", "''")}'`;
}

/**
 * A row as its values in column order, numbers compared to 9 significant digits (DuckDB's BIGINTs
 * arrive as text), Sluice's timestamps as the µs since the epoch the DuckDB forms select.
 */
function values(row: Record<string, unknown>): string {
  return JSON.stringify(
    Object.values(row).map((v) => {
      const n =
        v instanceof Timestamp
          ? Number(v.epochMicros)
          : typeof v === 'string' && /^-?\d+$/.test(v)
            ? Number(v)
            : v;
      return typeof n === 'number' ? Number(n.toPrecision(9)) : n;
    }),
  );
}

function answer(rows: readonly Record<string, unknown>[], ordered: boolean): string[] {
  const texts = rows.map(values);
  return ordered ? texts : texts.sort();
}

describe('session.sql checked against DuckDB', () => {
  it.each(QUERIES)('$spark', async ({ spark, duck: duckSql, ordered = false }) => {
    const ours = await session.sql(spark).collect();
    const theirs = (await duck.runAndReadAll(duckSql ?? spark)).getRowObjectsJson();
    expect(ours.length).toBeGreaterThan(0);
    expect(answer(ours, ordered)).toEqual(answer(theirs as Record<string, unknown>[], ordered));
  });
});
