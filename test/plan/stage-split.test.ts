/**
 * The stage split, table-tested on plans: where the keys of a query's first stateful operator stop
 * being aligned with its source's partitioning, and what stage 1 ships to stage 2.
 */
import { describe, expect, it } from 'vitest';
import {
  avg,
  col,
  collect_list,
  count,
  type DataFrame,
  from_json,
  max,
  min,
  SluiceSession,
  sum,
  window,
} from '../../core/index.js';
import { UnsupportedOperationError } from '../../core/errors.js';
import { splitStages, type StageSplit } from '../../core/plan/stage-split.js';
import { planOutline } from '../../core/testing/plan-outline.js';

const session = new SluiceSession();

/** The clicks topic as a Kafka stream (nothing connects until a query starts). */
function clicksTopic(): DataFrame {
  return session.readStream
    .format('kafka')
    .option('kafka.bootstrap.servers', '127.0.0.1:1')
    .option('subscribe', 'clicks')
    .load();
}

/** The clicks parsed from the records' JSON values. */
function clicks(): DataFrame {
  return clicksTopic()
    .select(
      from_json(col('value').cast('string'), 'ts TIMESTAMP, category STRING, user STRING').alias(
        'e',
      ),
    )
    .select('e.*');
}

function split(df: DataFrame, partitionedBy?: string[]): StageSplit {
  return splitStages(df.plan, partitionedBy ? { partitionedBy } : {});
}

const stage2Input = { description: 'RepartitionSource[test]', source: () => ({}) as never };

describe('the stage split', () => {
  const cases: {
    name: string;
    query: () => DataFrame;
    declared?: string[];
    kind: string;
    keys?: string[];
  }[] = [
    {
      name: 'the canonical job (clicks per category in 10-minute windows) splits by category',
      query: () =>
        clicks()
          .groupBy(window(col('ts'), '10 minutes'), col('category'))
          .agg(count().alias('n')),
      kind: 'split',
      keys: ['category'],
    },
    {
      name: 'counting by the Kafka key does not split',
      query: () => clicksTopic().groupBy(col('key')).agg(count().alias('n')),
      kind: 'single',
    },
    {
      name: 'counting by the Kafka key cast to a string and renamed, per window, does not split',
      query: () =>
        clicksTopic()
          .select(col('key').cast('string').alias('user'), col('timestamp'))
          .groupBy(window(col('timestamp'), '10 minutes'), col('user'))
          .agg(count().alias('n')),
      kind: 'single',
    },
    {
      name: 'a key that includes the partitioning column more finely (user, category) does not split',
      query: () =>
        clicksTopic()
          .select(col('key').alias('user'), col('value'))
          .groupBy(col('user'), col('value'))
          .agg(count().alias('n')),
      kind: 'single',
    },
    {
      name: 'counting by a user parsed out of the value splits: nothing says the topic is keyed by it',
      query: () => clicks().groupBy(col('user')).agg(count().alias('n')),
      kind: 'split',
      keys: ['user'],
    },
    {
      name: 'counting by that user does not split once the topic is declared partitioned by it',
      query: () => clicks().groupBy(col('user')).agg(count().alias('n')),
      declared: ['user'],
      kind: 'single',
    },
    {
      name: 'a declared partitioning the key does not cover still splits',
      query: () => clicks().groupBy(col('category')).agg(count().alias('n')),
      declared: ['user'],
      kind: 'split',
      keys: ['category'],
    },
    {
      name: 'a memory stream (like files: no partitioning) splits at any keyed operator',
      query: () =>
        session.readStream
          .memory(session.memoryStream('user STRING, n INT'))
          .groupBy(col('user'))
          .agg(sum(col('n')).alias('n')),
      kind: 'split',
      keys: ['user'],
    },
    {
      name: 'a global count splits with no key: all rows go to one stage-2 shard',
      query: () => clicks().groupBy().agg(count().alias('n')),
      kind: 'split',
      keys: [],
    },
    {
      name: 'dropDuplicates by a parsed column splits',
      query: () => clicks().dropDuplicates(['user']),
      kind: 'split',
      keys: ['user'],
    },
    {
      name: 'dropDuplicates by the Kafka key does not split',
      query: () => clicksTopic().dropDuplicates(['key']),
      kind: 'single',
    },
    {
      name: 'a query without stateful operators does not split',
      query: () => clicks().filter(col('category').eqNullSafe('books')),
      kind: 'single',
    },
  ];

  for (const c of cases) {
    it(c.name, () => {
      const result = split(c.query(), c.declared);
      expect(result.kind).toBe(c.kind);
      if (result.kind === 'split') expect(result.keyColumns).toEqual(c.keys);
    });
  }

  it("ships a count's partial rows: the batch's largest event time first, the keys, the partial count", () => {
    const query = clicks()
      .withWatermark('ts', '5 minutes')
      .groupBy(window(col('ts'), '10 minutes'), col('category'))
      .agg(count().alias('n'));
    const result = split(query);
    if (result.kind !== 'split') throw new Error(result.reason);
    expect(result.operator).toBe('aggregate by (window, category)');
    expect(result.reason).toMatch(/partial rows are repartitioned by \(category\)/);
    const fields = result.stage1.schema.fields;
    expect(fields.map((f) => f.name)).toEqual(['event_time', 'window', 'category', 'partial']);
    // the event time is the watermarked column the repartition sink and source read first
    expect(fields[0].metadata?.eventTimeDelayMicros).toBe(300_000_000);
    expect(planOutline(result.stage1).split('\n')[1].trim()).toBe(
      'Aggregate per batch keys window, category values count(1) AS partial, max(ts) AS event_time [window, category, partial, event_time]',
    );
    const stage2 = result.stage2(stage2Input);
    expect(stage2.schema).toEqual(query.plan.schema);
    expect(
      planOutline(stage2)
        .split('\n')
        .map((l) => l.trim()),
    ).toEqual([
      'Project window, category, coalesce(partial, 0) AS n [window, category, n]',
      'Aggregate keys window, category values sum(partial) AS partial [window, category, partial]',
      'Watermark event_time delay 300000 ms [event_time, window, category, partial]',
      'StreamingRelation RepartitionSource[test] [event_time, window, category, partial]',
    ]);
    // stage 2 reads a topic keyed by category: splitting it again finds it aligned
    expect(splitStages(stage2).kind).toBe('single');
  });

  it('splits sum, min, max and avg into partial values and keeps the output schema', () => {
    const query = clicks()
      .groupBy(col('category'))
      .agg(
        sum(col('user').cast('int')).alias('total'),
        min(col('ts')).alias('first_click'),
        max(col('user')).alias('last_user'),
        avg(col('user').cast('int')).alias('mean'),
      );
    const result = split(query);
    if (result.kind !== 'split') throw new Error(result.reason);
    expect(result.stage1.schema.fields.map((f) => [f.name, f.dataType.kind])).toEqual([
      ['category', 'string'],
      ['partial', 'long'],
      ['partial_2', 'timestamp'],
      ['partial_3', 'string'],
      ['partial_4', 'double'],
      ['partial_4_count', 'long'],
    ]);
    const stage2 = result.stage2(stage2Input);
    expect(stage2.schema).toEqual(query.plan.schema);
    expect(planOutline(stage2).split('\n')[0]).toMatch(/\(partial_4 \/ partial_4_count\) AS mean/);
  });

  it('ships the rows, only the columns it uses, to an aggregate function without partial values', () => {
    const result = split(
      clicks()
        .withWatermark('ts', '5 minutes')
        .groupBy(window(col('ts'), '10 minutes'), col('category'))
        .agg(count().alias('n'), collect_list(col('user')).alias('users')),
    );
    if (result.kind !== 'split') throw new Error(result.reason);
    expect(result.stage1.schema.fields.map((f) => f.name)).toEqual(['ts', 'category', 'user']);
    expect(result.stage1.schema.fields[0].metadata?.eventTimeDelayMicros).toBe(300_000_000);
    const stage2 = result.stage2(stage2Input);
    const outline = planOutline(stage2).split('\n');
    expect(outline[0]).toMatch(/^Aggregate .*\[window, category, n, users\]$/);
    expect(outline.slice(-2).map((l) => l.trim())).toEqual([
      'Watermark ts delay 300000 ms [ts, category, user]',
      'StreamingRelation RepartitionSource[test] [ts, category, user]',
    ]);
  });

  it('keeps what sits above the operator in stage 2', () => {
    const result = split(
      clicks()
        .groupBy(col('category'))
        .agg(count().alias('n'))
        .filter(col('n').gt(1))
        .select(col('category')),
    );
    if (result.kind !== 'split') throw new Error(result.reason);
    const outline = planOutline(result.stage2(stage2Input)).split('\n');
    expect(outline.map((l) => l.trim().split(' ')[0])).toEqual([
      'Project',
      'Filter',
      'Project',
      'Aggregate',
      'StreamingRelation',
    ]);
  });

  it('ships whole rows to dropDuplicates, whose output is the whole row', () => {
    const result = split(clicks().dropDuplicates(['user']));
    if (result.kind !== 'split') throw new Error(result.reason);
    expect(result.stage1.schema.fields.map((f) => f.name)).toEqual(['ts', 'category', 'user']);
  });

  it('computes a computed grouping key in stage 1 and groups stage 2 by its column', () => {
    const query = clicksTopic()
      .select(
        from_json(col('value').cast('string'), 'ts TIMESTAMP, category STRING, user STRING').alias(
          'e',
        ),
      )
      .select(col('e'), col('e.ts').alias('ts'))
      .withWatermark('ts', '5 minutes')
      .groupBy(window(col('ts'), '10 minutes'), col('e.category').alias('category'))
      .agg(count().alias('n'));
    const result = split(query);
    if (result.kind !== 'split') throw new Error(result.reason);
    expect(result.keyColumns).toEqual(['category']);
    expect(result.stage1.schema.fields.map((f) => f.name)).toEqual([
      'event_time',
      'window',
      'category',
      'partial',
    ]);
    const stage2 = result.stage2(stage2Input);
    expect(stage2.schema).toEqual(query.plan.schema);
    expect(splitStages(stage2).kind).toBe('single');
  });

  it("names a computed key apart from the rows' columns stage 1 ships, and keeps the key's output name", () => {
    const query = clicks()
      .groupBy(col('user'), col('category').cast('int'))
      .agg(count().alias('n'), collect_list(col('category').cast('int')).alias('s'));
    const result = split(query);
    if (result.kind !== 'split') throw new Error(result.reason);
    expect(result.keyColumns).toEqual(['user', 'category_2']);
    expect(result.stage1.schema.fields.map((f) => f.name)).toEqual([
      'category',
      'user',
      'category_2',
    ]);
    expect(result.stage2(stage2Input).schema).toEqual(query.plan.schema);
  });

  it('splits an aggregation over a union of streams, stage 1 running the union', () => {
    const result = split(clicks().union(clicks()).groupBy(col('category')).agg(count().alias('n')));
    expect(result.kind).toBe('split');
  });

  it('refuses a stateful operator inside a union of streams', () => {
    const counted = clicks().groupBy(col('category')).agg(count().alias('n'));
    expect(() => split(counted.union(counted))).toThrow(UnsupportedOperationError);
  });

  it("runs a stream-stream join on both sides' Kafka keys unsplit, aligned", () => {
    const left = clicksTopic()
      .select(col('key'), col('timestamp'))
      .withWatermark('timestamp', '1 minute');
    const right = clicksTopic()
      .select(col('key').alias('k2'), col('timestamp').alias('t2'))
      .withWatermark('t2', '1 minute');
    const joined = left.join(
      right,
      col('k2')
        .eq(col('key'))
        .and(col('timestamp').eq(col('t2'))),
    );
    expect(split(joined).kind).toBe('single');
  });

  it('runs a join of two counts by the Kafka key unsplit: the counts pass the key on', () => {
    const counts = () =>
      clicksTopic()
        .withWatermark('timestamp', '1 minute')
        .groupBy(window(col('timestamp'), '1 minute'), col('key'))
        .agg(count().alias('n'));
    const right = counts().select(
      col('window').alias('w2'),
      col('key').alias('k2'),
      col('n').alias('n2'),
    );
    const joined = counts().join(
      right,
      col('key')
        .eq(col('k2'))
        .and(col('window').eq(col('w2'))),
    );
    expect(split(joined).kind).toBe('single');
  });

  it('refuses a stream-stream join, which would need both sides repartitioned', () => {
    const left = clicks().withWatermark('ts', '1 minute');
    const right = clicks()
      .select(col('user').alias('u2'), col('ts').alias('t2'))
      .withWatermark('t2', '1 minute');
    const joined = left.join(
      right,
      col('user')
        .eq(col('u2'))
        .and(col('ts').eq(col('t2'))),
    );
    expect(() => split(joined)).toThrow(UnsupportedOperationError);
  });
});
