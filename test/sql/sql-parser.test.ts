/**
 * The SQL parser: Spark's precedence, literals and their types, every query construct, and errors
 * that name the line and column of the offending token and what was expected there.
 */
import { describe, expect, it } from 'vitest';
import { AnalysisError, ParseError } from '../../core/errors.js';
import { expressionName } from '../../core/expr/expression-name.js';
import type { Expression } from '../../core/expr/expression.js';
import { parseExpression, parseStatement } from '../../core/sql/sql-parser.js';
import type { SqlQuery, SqlSelect } from '../../core/sql/sql-ast.js';

/** An expression as fully parenthesized text: the tree the parser built. */
const tree = (sql: string): string => expressionName(parseExpression(sql));

function literal(sql: string): { value: unknown; type: string } {
  const e = parseExpression(sql);
  if (e.kind !== 'literal') throw new Error(`${sql} is not a literal: ${e.kind}`);
  return { value: e.value, type: e.dataType.kind };
}

function select(sql: string): SqlSelect {
  const statement = parseStatement(sql);
  if (statement.query.body.kind !== 'select') throw new Error(`${sql} is not a SELECT`);
  return statement.query.body;
}

function query(sql: string): SqlQuery {
  return parseStatement(sql).query;
}

function parseFailure(sql: string): ParseError {
  try {
    parseStatement(sql);
  } catch (error) {
    if (error instanceof ParseError) return error;
    throw error;
  }
  throw new Error(`'${sql}' parsed`);
}

describe('operator precedence, as in Spark', () => {
  it.each([
    ['1 + 2 * 3', '(1 + (2 * 3))'],
    ['1 * 2 + 3', '((1 * 2) + 3)'],
    ['1 - 2 - 3', '((1 - 2) - 3)'],
    ['a / b % c', '((a / b) % c)'],
    ['a + b = c * d', '((a + b) = (c * d))'],
    ['a = 1 OR b = 2 AND c = 3', '((a = 1) OR ((b = 2) AND (c = 3)))'],
    ['NOT a = 1 AND b', '((NOT (a = 1)) AND b)'],
    ['NOT NOT a', '(NOT (NOT a))'],
    ['! a OR b', '((NOT a) OR b)'],
    ['a = b IS NULL', '((a = b) IS NULL)'],
    ['a IS NOT NULL AND b IS NULL', '((a IS NOT NULL) AND (b IS NULL))'],
    ['x BETWEEN 1 AND 2 AND y', '(((x >= 1) AND (x <= 2)) AND y)'],
    ['x NOT BETWEEN a + 1 AND b', '(NOT ((x >= (a + 1)) AND (x <= b)))'],
    ['x IN (1, 2, 3)', '(((x = 1) OR (x = 2)) OR (x = 3))'],
    ['x NOT IN (1, 2)', '(NOT ((x = 1) OR (x = 2)))'],
    ["s LIKE 'a%' OR s RLIKE 'b'", '(like(s, a%) OR rlike(s, b))'],
    ["s NOT LIKE 'a%'", '(NOT like(s, a%))'],
    ["s ILIKE 'A%'", 'ilike(s, A%)'],
    ["s REGEXP 'x'", 'rlike(s, x)'],
    ['a <> b AND a != c AND a == d', '(((a != b) AND (a != c)) AND (a = d))'],
    ['a <=> b', '(a <=> b)'],
    ['a IS DISTINCT FROM b', '(NOT (a <=> b))'],
    ['a IS NOT DISTINCT FROM b', '(a <=> b)'],
    ['a IS TRUE', '(a <=> true)'],
    ['a IS NOT FALSE', '(NOT (a <=> false))'],
    ["a || 'x' || b", 'concat(concat(a, x), b)'],
    ['a + b || c', 'concat((a + b), c)'],
    ['-a * b', '((0 - a) * b)'],
    ['(1 + 2) * 3', '((1 + 2) * 3)'],
    ['a.b.c + 1', '(c + 1)'],
  ])('%s', (sql, expected) => {
    expect(tree(sql)).toBe(expected);
  });

  it('binds :: tighter than anything: -a::int is -(cast a)', () => {
    const e = parseExpression('-a::int');
    expect(e).toMatchObject({
      kind: 'binary',
      op: '-',
      right: { kind: 'cast', to: { kind: 'int' } },
    });
  });

  it('reads a dotted name as one column path and a field of a computed value with get_field', () => {
    expect(parseExpression('t.s.f')).toEqual({ kind: 'column', path: ['t', 's', 'f'] });
    expect(parseExpression('`a.b`.c')).toEqual({ kind: 'column', path: ['a.b', 'c'] });
    expect(parseExpression("from_json(v, 'a INT').a")).toMatchObject({
      kind: 'call',
      name: 'get_field',
      options: { field: 'a' },
    });
  });
});

describe('literals', () => {
  it.each([
    ['1', 1, 'int'],
    ['2147483647', 2147483647, 'int'],
    ['2147483648', 2147483648, 'long'],
    ['1L', 1, 'long'],
    ['7S', 7, 'int'],
    ['7Y', 7, 'int'],
    ['1.5', 1.5, 'double'],
    ['.5', 0.5, 'double'],
    ['1e3', 1000, 'double'],
    ['1.0D', 1, 'double'],
    ['2F', 2, 'double'],
    ['1.25BD', 1.25, 'double'],
    ['-3', -3, 'int'],
    ['TRUE', true, 'boolean'],
    ['false', false, 'boolean'],
    ['NULL', null, 'null'],
    ["'it''s'", "it's", 'string'],
    ['"double"', 'double', 'string'],
    ["'a\\nb\\t\\\\\\''", "a\nb\t\\'", 'string'],
    ["'\\u0041'", 'A', 'string'],
    ["r'C:\\x'", 'C:\\x', 'string'],
    ["'con' 'cat'", 'concat', 'string'],
    ["DATE '2026-01-02'", 20455, 'date'],
    ["TIMESTAMP '2026-01-01 10:00:00'", Date.parse('2026-01-01T10:00:00Z') * 1000, 'timestamp'],
  ])('%s is %s of type %s', (sql, value, type) => {
    expect(literal(sql)).toEqual({ value, type });
  });

  it("X'0aff' is binary", () => {
    expect(literal("X'0aff'")).toEqual({ value: Uint8Array.from([10, 255]), type: 'binary' });
  });

  it.each([
    ["window(ts, INTERVAL '10' MINUTE)", 600_000_000],
    ['window(ts, INTERVAL 1 hour 30 minutes)', 5_400_000_000],
    ["window(ts, INTERVAL '1:30' HOUR TO MINUTE)", 5_400_000_000],
    ["window(ts, '10 minutes')", 600_000_000],
  ])('an interval reads as a window duration: %s', (sql, micros) => {
    expect(parseExpression(sql)).toMatchObject({ kind: 'window', durationMicros: micros });
  });

  it('an INTERVAL in an expression is a calendar interval value; alone as an argument it is a duration', () => {
    expect(parseExpression("ts + INTERVAL '1' HOUR")).toMatchObject({
      kind: 'binary',
      right: { kind: 'literal', value: { months: 0, days: 0, micros: 3_600_000_000 } },
    });
    expect(parseExpression('window(ts, INTERVAL 10 minutes)')).toMatchObject({
      kind: 'window',
      durationMicros: 600_000_000,
    });
  });

  it('window() takes a slide and a start', () => {
    expect(parseExpression("window(ts, '10 minutes', '5 minutes', '1 minute')")).toMatchObject({
      kind: 'window',
      durationMicros: 600_000_000,
      slideMicros: 300_000_000,
      startMicros: 60_000_000,
    });
  });

  it.each([
    ["TIMESTAMP 'yesterday'", /line 1, column 11: 'yesterday' is not a valid timestamp/],
    ["DATE '2026-13-01'", /line 1, column 6: '2026-13-01' is not a valid date/],
    ['9007199254740993', /out of range/],
    ['40000S', /out of range for a smallint/],
    ["X'abc'", /not hexadecimal bytes/],
    ["INTERVAL '1' fortnight", /line 1, column 1: 'INTERVAL '1'' is not an interval|expected/],
  ])('refuses %s', (sql, message) => {
    expect(() => parseExpression(sql)).toThrow(message);
  });
});

describe('comments and identifiers', () => {
  it('skips -- and nested /* */ comments', () => {
    const s = select('SELECT a -- the key\n, /* one /* nested */ comment */ b FROM t');
    expect(s.items.map((i) => expressionName(i.expr))).toEqual(['a', 'b']);
  });

  it('reads backquoted names with a doubled backquote, never as keywords', () => {
    const s = select('SELECT `from`, `we``ird` FROM `my table`');
    expect(s.items.map((i) => i.expr)).toEqual([
      { kind: 'column', path: ['from'] },
      { kind: 'column', path: ['we`ird'] },
    ]);
    expect(s.from).toMatchObject({ kind: 'table', name: 'my table' });
  });

  it('takes keywords in any case and non-reserved words as names (count, window, value)', () => {
    const s = select('select count, window, value from t where Value > 1');
    expect(s.items.map((i) => expressionName(i.expr))).toEqual(['count', 'window', 'value']);
    expect(expressionName(s.where as Expression)).toBe('(Value > 1)');
  });
});

describe('queries', () => {
  it('reads the select list with aliases (with and without AS), * and t.*', () => {
    const s = select('SELECT *, t.*, a AS x, b y, a + 1 FROM t');
    expect(s.items).toEqual([
      { expr: { kind: 'column', path: ['*'] } },
      { expr: { kind: 'column', path: ['t', '*'] } },
      { expr: { kind: 'column', path: ['a'] }, alias: 'x' },
      { expr: { kind: 'column', path: ['b'] }, alias: 'y' },
      { expr: parseExpression('a + 1') },
    ]);
  });

  it('reads every clause of a SELECT', () => {
    const q = query(
      'SELECT DISTINCT c, count(*) FROM t WHERE a > 1 GROUP BY c HAVING count(*) > 2 ORDER BY 2 DESC, c NULLS LAST LIMIT 10',
    );
    const s = q.body as SqlSelect;
    expect(s.distinct).toBe(true);
    expect(s.groupBy.map(expressionName)).toEqual(['c']);
    expect(expressionName(s.having as Expression)).toBe('(count(1) > 2)');
    expect(q.orderBy.map((o) => [expressionName(o.expr), o.ascending, o.nullsFirst])).toEqual([
      ['2', false, false],
      ['c', true, false],
    ]);
    expect(q.limit).toBe(10);
  });

  it('reads count(*), count(DISTINCT x), and aggregates by name in any case', () => {
    const s = select(
      'SELECT COUNT(*), count(DISTINCT a, b), Sum(x), mean(y), first(z, true) FROM t',
    );
    expect(s.items.map((i) => i.expr)).toEqual([
      { kind: 'aggregate', fn: 'count', args: [], distinct: false },
      {
        kind: 'aggregate',
        fn: 'count',
        args: [parseExpression('a'), parseExpression('b')],
        distinct: true,
      },
      { kind: 'aggregate', fn: 'sum', args: [parseExpression('x')], distinct: false },
      { kind: 'aggregate', fn: 'avg', args: [parseExpression('y')], distinct: false },
      {
        kind: 'aggregate',
        fn: 'first',
        args: [parseExpression('z')],
        distinct: false,
        ignoreNulls: true,
      },
    ]);
  });

  it.each([
    ['JOIN', 'inner'],
    ['INNER JOIN', 'inner'],
    ['LEFT JOIN', 'left'],
    ['LEFT OUTER JOIN', 'left'],
    ['RIGHT OUTER JOIN', 'right'],
    ['FULL OUTER JOIN', 'full'],
    ['FULL JOIN', 'full'],
    ['LEFT SEMI JOIN', 'left_semi'],
    ['SEMI JOIN', 'left_semi'],
    ['LEFT ANTI JOIN', 'left_anti'],
    ['ANTI JOIN', 'left_anti'],
  ])('reads %s ... ON as a %s join', (words, joinType) => {
    expect(select(`SELECT * FROM a ${words} b ON a.k = b.k`).from).toMatchObject({
      kind: 'join',
      joinType,
      condition: parseExpression('a.k = b.k'),
    });
  });

  it('reads USING, CROSS JOIN, NATURAL JOIN and the comma', () => {
    expect(select('SELECT * FROM a JOIN b USING (k, j)').from).toMatchObject({ using: ['k', 'j'] });
    expect(select('SELECT * FROM a CROSS JOIN b').from).toMatchObject({
      kind: 'join',
      joinType: 'inner',
    });
    expect(select('SELECT * FROM a NATURAL JOIN b').from).toMatchObject({ natural: true });
    expect(select('SELECT * FROM a, b x').from).toMatchObject({
      kind: 'join',
      left: { name: 'a' },
      right: { name: 'b', alias: 'x' },
    });
  });

  it('reads subqueries in FROM and CTEs', () => {
    const q = query(
      'WITH x AS (SELECT 1 AS a), y AS (SELECT a FROM x) SELECT * FROM (SELECT a FROM y) s',
    );
    expect(q.ctes.map((c) => c.name)).toEqual(['x', 'y']);
    expect((q.body as SqlSelect).from).toMatchObject({ kind: 'subquery', alias: 's' });
  });

  it('gives INTERSECT precedence over UNION and EXCEPT, left to right otherwise', () => {
    const q = query('SELECT 1 UNION SELECT 2 INTERSECT SELECT 3 EXCEPT ALL SELECT 4');
    expect(q.body).toMatchObject({
      operator: 'except',
      all: true,
      left: { operator: 'union', all: false, right: { operator: 'intersect' } },
    });
  });

  it('reads EXPLAIN and a trailing semicolon', () => {
    expect(parseStatement('EXPLAIN SELECT 1;').kind).toBe('explain');
  });

  it('reads CASE (searched and simple), CAST, EXTRACT and current_timestamp', () => {
    expect(tree("CASE WHEN a > 1 THEN 'x' ELSE 'y' END")).toBe(
      'CASE WHEN (a > 1) THEN x ELSE y END',
    );
    expect(tree('CASE a WHEN 1 THEN 2 END')).toBe('CASE WHEN (a = 1) THEN 2 END');
    expect(parseExpression('CAST(a AS array<struct<x: int>>)')).toMatchObject({
      kind: 'cast',
      to: { kind: 'array', elementType: { kind: 'struct' } },
    });
    expect(parseExpression('CAST(a AS decimal(10, 2))')).toMatchObject({ to: { kind: 'double' } });
    expect(tree('EXTRACT(HOUR FROM ts)')).toBe('date_part(HOUR, ts)');
    expect(tree('current_timestamp')).toBe('current_timestamp()');
  });
});

describe('syntax errors name the line, the column and what was expected', () => {
  it.each([
    ['SELECT a, b\n  FORM t', 2, 3, "expected FROM, found 'FORM'"],
    ['SELECT a FROM t WHERE', 1, 22, 'expected an expression, found the end of the text'],
    [
      'SELECT a FROM t\nWHERE a > 1 ORDER BY a LIMT 1',
      2,
      24,
      "expected the end of the statement, found 'LIMT'",
    ],
    ['SELECT (a + 1 FROM t', 1, 15, "expected ')', found 'FROM'"],
    ['SELEC a FROM t', 1, 1, "expected SELECT or WITH, found 'SELEC'"],
    ['SELECT a FROM t LEFT JOIN u', 1, 28, 'expected ON or USING, found the end of the text'],
    ["SELECT 'abc FROM t", 1, 8, 'the string starting here is never closed'],
    ['SELECT a /* open', 1, 10, 'the comment starting here is never closed'],
    ['SELECT a # b', 1, 10, "unexpected character '#'"],
    ['SELECT CASE WHEN a THEN 1', 1, 26, 'expected END'],
    ['SELECT a FROM t LIMIT x', 1, 23, "expected a row count, found 'x'"],
    ['SELECT a IN (SELECT 1)', 1, 14, 'IN (subquery) is not supported'],
    ['SELECT a[0]', 1, 9, 'subscripts'],
    ['SELECT 7 DIV 2', 1, 10, 'DIV'],
    ['SELECT upper(a) OVER (ORDER BY a) FROM t', 1, 17, 'upper(a) is not a window function'],
    ['SELECT rank() OVER (ORDER BY a ROWS 1 AFTER) FROM t', 1, 39, 'expected FOLLOWING'],
    ['SELECT CAST(a AS nothing) FROM t', 1, 18, "'nothing' is not a type"],
    ['EXPLAIN EXTENDED SELECT 1', 1, 9, 'EXPLAIN EXTENDED is not supported'],
  ])('%j', (sql, line, column, message) => {
    const error = parseFailure(sql);
    expect(error).toBeInstanceOf(AnalysisError);
    expect(error.code).toBe('PARSE');
    expect([error.line, error.column]).toEqual([line, column]);
    expect(error.message).toMatch(new RegExp(`^Syntax error at line ${line}, column ${column}: `));
    expect(error.message).toMatch(
      new RegExp(message.replace(/[()[\]]/g, '\\$&').replace('\\|', '|')),
    );
  });
});

describe('function names', () => {
  it('resolve through the function registry, in any case', () => {
    expect(parseExpression('UPPER(name)')).toEqual({
      kind: 'call',
      name: 'upper',
      args: [{ kind: 'column', path: ['name'] }],
    });
  });

  it.each([
    ['cnt(*)', /Unknown function 'cnt' at line 1, column 1\. Did you mean `count`\?/],
    ['uper(a)', /Unknown function 'uper' at line 1, column 1\. Did you mean `upper`\?/],
    ['frobnicate(a)', /^Unknown function 'frobnicate' at line 1, column 1\.$/],
    ['sum(*)', /sum\(\*\) is not a function/],
    ['upper(DISTINCT a)', /upper\(DISTINCT \.\.\.\) is not an aggregate/],
    ['window(ts)', /window\(\) takes 2 to 4 argument\(s\), got 1/],
  ])('%s fails naming it', (sql, message) => {
    expect(() => parseExpression(sql)).toThrow(message);
  });

  it('builds from_json as the DataFrame API does, checking the schema now', () => {
    expect(parseExpression("from_json(value, 'a INT')")).toMatchObject({
      kind: 'call',
      name: 'from_json',
      options: { schema: { kind: 'struct' } },
    });
    expect(() => parseExpression("from_json(value, 'a NOPE')")).toThrow(/unknown type 'nope'/);
  });
});
