/**
 * explain(): the parsed logical plan and the physical plan, one line per node, for batch and
 * streaming DataFrames. The tests assert the lines that matter, not a snapshot of the whole text.
 */
import { describe, expect, it, vi } from 'vitest';
import {
  col,
  count,
  InvalidOptionError,
  interval,
  session_window,
  SluiceSession,
  sum,
  window,
} from '../../core/index.js';

const session = new SluiceSession();
const events = session.memoryStream('ts TIMESTAMP, category STRING, amount INT', 'clicks');

/** The lines of a section (`== Physical Plan ==`) of an explain text, without the header. */
function section(text: string, header: string): string[] {
  const sections = text.split('\n\n');
  const found = sections.find((s) => s.startsWith(`== ${header} ==`));
  if (!found) throw new Error(`no ${header} section in:\n${text}`);
  return found.split('\n').slice(1);
}

const windowedCounts = () =>
  session.readStream
    .memory(events)
    .withWatermark('ts', '10 minutes')
    .groupBy(window(col('ts'), '10 minutes'), col('category'))
    .agg(count().alias('n'));

describe('explain', () => {
  it('prints only the physical plan in simple mode, and the parsed logical plan before it in extended mode', () => {
    const df = session.createDataFrame([], 'a INT').filter(col('a').gt(1));
    expect(
      df
        .explainString()
        .split('\n\n')
        .map((s) => s.split('\n')[0]),
    ).toEqual(['== Physical Plan ==']);
    for (const extended of ['extended', true] as const) {
      expect(
        df
          .explainString(extended)
          .split('\n\n')
          .map((s) => s.split('\n')[0]),
      ).toEqual(['== Parsed Logical Plan ==', '== Physical Plan ==']);
    }
    expect(df.explainString(false)).toBe(df.explainString('simple'));
  });

  it('shows a streaming aggregation as the stateful operator a query would run: its operatorId, stores, output mode and watermark', () => {
    const physical = section(windowedCounts().explainString(), 'Physical Plan');
    expect(physical[0]).toBe(
      'StatefulAggregate operatorId=0, stores=[default], outputMode=append, watermark=[ts, delay 10 minutes], keys=[window(ts, 10 minutes), category], functions=[count(1) AS n]',
    );
    expect(physical).toContain('   +- EventTimeWatermark ts, delay 10 minutes');
    expect(physical.at(-1)).toBe('      +- StreamingScan MemoryStream[clicks]');
  });

  it('shows the same aggregation over a static table as a hash aggregate with no state', () => {
    const df = session
      .createDataFrame([], 'ts TIMESTAMP, category STRING')
      .groupBy(window(col('ts'), '10 minutes', '5 minutes'), col('category'))
      .count();
    const physical = section(df.explainString(), 'Physical Plan');
    expect(physical[0]).toBe(
      'HashAggregate keys=[window(ts, 10 minutes, 5 minutes), category], functions=[count(1) AS count]',
    );
    expect(physical.join('\n')).not.toMatch(/operatorId|StatefulAggregate/);
  });

  it('shows the parsed logical plan with expressions by name and the columns of leaves and aggregations', () => {
    const df = session.readStream
      .memory(events)
      .select(col('category'), col('amount').multiply(2).alias('double'))
      .groupBy('category')
      .agg(sum(col('double')).alias('total'));
    expect(section(df.explainString('extended'), 'Parsed Logical Plan')).toEqual([
      'Aggregate keys=[category], functions=[sum(double) AS total] [category: string, total: long]',
      '+- Project [category, (amount * 2) AS double]',
      '   +- StreamingRelation MemoryStream[clicks] [ts: timestamp, category: string, amount: integer]',
    ]);
  });

  it('marks the operators that run on rows behind the row adapter, and leaves columnar ones bare', () => {
    const left = session.createDataFrame([], 'k INT, a STRING');
    const right = session.createDataFrame([], 'k INT, b STRING');
    const df = left.join(right, 'k').filter(col('a').isNotNull()).orderBy('k').select('k');
    expect(section(df.explainString(), 'Physical Plan')).toEqual([
      'Project [k]',
      '+- RowAdapter [k: integer, a: string, b: string]',
      '   +- Sort [k ASC]',
      '      +- Filter (a IS NOT NULL)',
      '         +- RowAdapter [k: integer, a: string, b: string]',
      '            +- Join inner, using [k]',
      '               :- Scan LocalRelation[0 rows]',
      '               +- Scan LocalRelation[0 rows]',
    ]);
  });

  it('shows an operator above a stateful one running under the watermark that operator passes on', () => {
    const df = windowedCounts()
      .groupBy(col('window'))
      .agg(sum(col('n')).alias('total'));
    const physical = section(df.explainString(), 'Physical Plan');
    expect(physical[0]).toMatch(
      /^StatefulAggregate operatorId=1, stores=\[default\], outputMode=append, watermark=\[from operator 0\], keys=\[window\]/,
    );
    expect(physical[1]).toMatch(/^\+- StatefulAggregate operatorId=0, /);
  });

  it('prints what explainString returns', () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      windowedCounts().explain('extended');
      expect(log).toHaveBeenCalledWith(windowedCounts().explainString('extended'));
    } finally {
      log.mockRestore();
    }
  });

  it('refuses a mode it does not know, naming it and the modes it has', () => {
    const df = session.createDataFrame([], 'a INT');
    expect(() => df.explainString('formatted' as 'simple')).toThrow(
      new InvalidOptionError(
        "explain mode 'formatted' is not supported; use one of 'simple', 'extended'.",
      ),
    );
  });
});

describe('explain names each stateful operator of a stream with its state', () => {
  const watermarked = () => session.readStream.memory(events).withWatermark('ts', '10 minutes');

  it('a deduplication, and the same over a table', () => {
    const stream = section(
      watermarked().dropDuplicates('category', 'ts').explainString(),
      'Physical Plan',
    );
    expect(stream[0]).toMatch(
      /^StreamingDeduplicate operatorId=0, stores=\[default\], outputMode=append, watermark=\[ts, delay 10 minutes\], keys=\[category, ts\]$/,
    );
    const table = section(
      session.createDataFrame([], 'a INT').distinct().explainString(),
      'Physical Plan',
    );
    expect(table.slice(0, 2)).toEqual(['RowAdapter [a: integer]', '+- Deduplicate keys=[a]']);
  });

  it('a session-window aggregation', () => {
    const df = watermarked()
      .groupBy(session_window(col('ts'), '5 minutes'), col('category'))
      .count();
    expect(section(df.explainString(), 'Physical Plan')[0]).toMatch(
      /^StatefulSessionWindowAggregate operatorId=0, stores=\[default\], outputMode=append, /,
    );
  });

  it('a join of two streams, its two stores named', () => {
    const clicks = session.memoryStream(
      'clickTime TIMESTAMP, clickCategory STRING',
      'joined-clicks',
    );
    const right = session.readStream.memory(clicks).withWatermark('clickTime', '10 minutes');
    const joined = watermarked().join(
      right,
      col('category')
        .eq(col('clickCategory'))
        .and(col('clickTime').between(col('ts'), col('ts').plus(interval('1 hour')))),
    );
    const physical = section(joined.explainString(), 'Physical Plan');
    expect(physical[0]).toMatch(
      /^StreamingSymmetricHashJoin operatorId=0, stores=\[left, right\], /,
    );
  });
});
