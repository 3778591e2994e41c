/**
 * `session_window` in batch queries: Spark's sessions per group (rows closer than the gap share a
 * session, which ends a gap after its last row), static and dynamic gaps, and the places Spark
 * refuses it.
 */
import { describe, expect, it } from 'vitest';
import {
  avg,
  col,
  collect_list,
  count,
  first,
  last,
  lit,
  max,
  min,
  session_window,
  SluiceSession,
  sum,
  when,
  window,
} from '../../core/index.js';
import { AnalysisError, ExecutionError, InvalidOptionError } from '../../core/errors.js';
import { at } from '../support/events.js';

const SCHEMA = 'ts TIMESTAMP, user STRING, amount INT, gap STRING';

function events(rows: [time: string, user: string, amount?: number | null, gap?: string | null][]) {
  return new SluiceSession().createDataFrame(
    rows.map(([time, user, amount, gap]) => ({
      ts: at(time),
      user,
      amount: amount ?? null,
      gap: gap ?? null,
    })),
    SCHEMA,
  );
}

function session(start: string, end: string) {
  return { start: at(start), end: at(end) };
}

describe('session_window in a batch query', () => {
  it('puts rows closer than the gap in one session that ends a gap after its last row', async () => {
    const df = events([
      ['10:00:00', 'a', 1],
      ['10:04:00', 'a', 2],
      ['10:20:00', 'a', 4],
      ['10:02:00', 'b', 8],
    ]);
    const rows = await df
      .groupBy(col('user'), session_window(col('ts'), '5 minutes'))
      .agg(count().alias('n'), sum('amount').alias('total'))
      .collect();
    expect(rows).toEqual([
      { user: 'a', session_window: session('10:00:00', '10:09:00'), n: 2, total: 3 },
      { user: 'a', session_window: session('10:20:00', '10:25:00'), n: 1, total: 4 },
      { user: 'b', session_window: session('10:02:00', '10:07:00'), n: 1, total: 8 },
    ]);
  });

  it('merges a row that starts exactly where a session ends, as Spark does', async () => {
    const rows = await events([
      ['10:00:00', 'a'],
      ['10:05:00', 'a'],
    ])
      .groupBy(session_window('ts', '5 minutes'))
      .count()
      .collect();
    expect(rows).toEqual([{ session_window: session('10:00:00', '10:10:00'), count: 2 }]);
  });

  it('computes every aggregate over the rows of each session, in time order', async () => {
    const rows = await events([
      ['10:03:00', 'a', 5],
      ['10:00:00', 'a', 1],
      ['10:01:00', 'a', null],
    ])
      .groupBy('user', session_window('ts', '5 minutes'))
      .agg(
        min('amount').alias('low'),
        max('amount').alias('high'),
        avg('amount').alias('mean'),
        first('amount').alias('first'),
        last('amount').alias('last'),
        collect_list('amount').alias('amounts'),
      )
      .collect();
    expect(rows).toEqual([
      {
        user: 'a',
        session_window: session('10:00:00', '10:08:00'),
        low: 1,
        high: 5,
        mean: 3,
        first: 1,
        last: 5,
        amounts: [1, 5],
      },
    ]);
  });

  it('drops rows whose time is null', async () => {
    const df = new SluiceSession().createDataFrame(
      [
        { ts: null, user: 'a', amount: 1, gap: null },
        { ts: at('10:00:00'), user: 'a', amount: 2, gap: null },
      ],
      SCHEMA,
    );
    const rows = await df.groupBy(session_window('ts', '1 minute')).agg(sum('amount')).collect();
    expect(rows).toEqual([{ session_window: session('10:00:00', '10:01:00'), 'sum(amount)': 2 }]);
  });

  it('takes the session window alias and any position among the keys', async () => {
    const rows = await events([['10:00:00', 'a']])
      .groupBy(session_window('ts', '1 minute').alias('visit'), col('user'))
      .count()
      .collect();
    expect(rows).toEqual([{ visit: session('10:00:00', '10:01:00'), user: 'a', count: 1 }]);
  });

  describe('with a dynamic gap (an interval string per row)', () => {
    const cases: { name: string; gap: string | null; sessions: number }[] = [
      { name: 'a positive gap keeps the row', gap: '10 minutes', sessions: 1 },
      { name: 'a zero gap drops the row', gap: '0 seconds', sessions: 0 },
      { name: 'a negative gap drops the row', gap: '-5 minutes', sessions: 0 },
      { name: 'a null gap drops the row', gap: null, sessions: 0 },
      { name: 'text that is no interval drops the row', gap: 'soon', sessions: 0 },
    ];
    for (const c of cases) {
      it(c.name, async () => {
        const rows = await events([['10:00:00', 'a', 1, c.gap]])
          .groupBy(session_window('ts', col('gap')))
          .count()
          .collect();
        expect(rows).toHaveLength(c.sessions);
      });
    }

    it("ends each row's own session its own gap after it, and merges what overlaps", async () => {
      const df = events([
        ['10:00:00', 'a', 1],
        ['10:08:00', 'a', 2], // within the 10-minute gap of a's first row
        ['10:00:00', 'b', 1],
        ['10:08:00', 'b', 2], // b's gap is 5 minutes: a session of its own
      ]);
      const gap = when(col('user').eq('a'), lit('10 minutes')).otherwise(lit('5 minutes'));
      const rows = await df
        .groupBy('user', session_window('ts', gap))
        .agg(count().alias('n'))
        .collect();
      expect(rows).toEqual([
        { user: 'a', session_window: session('10:00:00', '10:18:00'), n: 2 },
        { user: 'b', session_window: session('10:00:00', '10:05:00'), n: 1 },
        { user: 'b', session_window: session('10:08:00', '10:13:00'), n: 1 },
      ]);
    });

    it('fails naming the gap when a row gives months, which have no fixed length', async () => {
      const query = events([['10:00:00', 'a', 1, '1 month']])
        .groupBy(session_window('ts', col('gap')))
        .count();
      await expect(query.collect()).rejects.toThrow(ExecutionError);
      await expect(query.collect()).rejects.toThrow(/session_window gap '1 month'/);
    });
  });

  describe('is refused where Spark refuses it', () => {
    const df = () => events([['10:00:00', 'a']]);
    const cases: { name: string; build: () => unknown; error: RegExp }[] = [
      {
        name: 'in a select',
        build: () => df().select(session_window('ts', '5 minutes')),
        error: /session_window\(\) is only allowed as a grouping key of groupBy\(\)\.agg\(\)/,
      },
      {
        name: 'in a filter',
        build: () => df().filter(session_window('ts', '5 minutes').isNotNull()),
        error: /session_window\(\) is only allowed as a grouping key/,
      },
      {
        name: 'inside an aggregate',
        build: () =>
          df()
            .groupBy('user')
            .agg(max(session_window('ts', '5 minutes'))),
        error: /session_window\(\) is only allowed as a grouping key/,
      },
      {
        name: 'twice in one aggregation',
        build: () =>
          df()
            .groupBy(session_window('ts', '5 minutes'), session_window('ts', '6 minutes'))
            .count(),
        error: /at most one session_window\(\)/,
      },
      {
        name: 'next to window()',
        build: () =>
          df()
            .groupBy(session_window('ts', '5 minutes'), window(col('ts'), '10 minutes'))
            .count(),
        error: /both session_window\(\) and window\(\)/,
      },
      {
        name: 'over a column that is not a timestamp',
        build: () => df().groupBy(session_window('user', '5 minutes')).count(),
        error: /session_window\(\) needs a timestamp column, got string from 'user'/,
      },
      {
        name: 'with a dynamic gap that is not a string',
        build: () =>
          df()
            .groupBy(session_window('ts', col('amount')))
            .count(),
        error: /dynamic gap as an interval string per row .* got integer from 'amount'/,
      },
    ];
    for (const c of cases) {
      it(c.name, () => {
        expect(c.build).toThrow(AnalysisError);
        expect(c.build).toThrow(c.error);
      });
    }

    const gaps: { gap: string; error: RegExp }[] = [
      { gap: '0 seconds', error: /Invalid session_window gap '0 seconds': expected a positive/ },
      { gap: '-1 minute', error: /Invalid session_window gap '-1 minute'/ },
      { gap: '1 month', error: /months and years have no fixed length/ },
      { gap: 'a while', error: /Invalid session_window gap 'a while'/ },
    ];
    for (const g of gaps) {
      it(`with the static gap '${g.gap}'`, () => {
        expect(() => session_window('ts', g.gap)).toThrow(InvalidOptionError);
        expect(() => session_window('ts', g.gap)).toThrow(g.error);
      });
    }
  });
});
