/**
 * The runtime picks a split query's stage from the shard's options: the same query, started with
 * option('stage', 1) or option('stage', 2) beside parallelism and shard, runs stage 1 (to the
 * repartition topic named after the query) or stage 2 (from it to the user's sink), each shard on a
 * checkpoint of its own, on the mock Kafka cluster. A stage that does not fit the query is refused.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import {
  avg,
  col,
  collect_list,
  count,
  type DataFrame,
  from_json,
  length,
  max,
  MemorySink,
  min,
  type Column,
  type RowObject,
  SluiceSession,
  StageSelectionError,
  sum,
  when,
  window,
} from '../../core/index.js';
import { closeKafkaConnections } from '../../core/kafka/kafka-connection-pool.js';
import { at } from '../support/events.js';
import { clickRecords } from '../support/kafka-clicks.js';
import { produce } from '../support/kafka-producer.js';
import { tempDir } from '../support/temp-dir.js';
import { uniqueName } from '../support/unique-name.js';

const SERVERS = () => inject('kafkaBootstrapServers');
afterAll(() => closeKafkaConnections());

function kafka(session: SluiceSession, topic: string, streaming: boolean): DataFrame {
  const reader = streaming ? session.readStream : session.read;
  return reader
    .format('kafka')
    .option('kafka.bootstrap.servers', SERVERS())
    .option('subscribe', topic)
    .option('startingOffsets', 'earliest')
    .load();
}

/** The clicks parsed from the records' values, as one struct column `e`. */
function parsed(input: DataFrame): DataFrame {
  return input.select(
    from_json(col('value').cast('string'), 'ts TIMESTAMP, category STRING, user STRING').alias('e'),
  );
}

/** Clicks per category: not keyed by the input's key (the user), so the query splits. */
function clicksByCategory(input: DataFrame): DataFrame {
  return parsed(input).select('e.*').groupBy(col('category')).agg(count().alias('n'));
}

/** The same count grouped by an expression, which stage 1 computes for stage 2. */
function clicksByParsedCategory(input: DataFrame): DataFrame {
  return parsed(input).groupBy(col('e.category').alias('category')).agg(count().alias('n'));
}

/** Per category and 10-minute window of the clicks, under a 5-minute watermark: */
function perWindow(input: DataFrame, ...aggregates: Column[]): DataFrame {
  return parsed(input)
    .select('e.*')
    .withWatermark('ts', '5 minutes')
    .groupBy(window(col('ts'), '10 minutes'), col('category'))
    .agg(aggregates[0], ...aggregates.slice(1));
}

/** ... the count, and statistics of a number that is null for music. */
function statisticsPerWindow(input: DataFrame): DataFrame {
  const n = when(col('category').neq('music'), length(col('user')));
  return perWindow(
    input,
    count().alias('n'),
    count(n).alias('with_n'),
    sum(n).alias('total'),
    avg(n).alias('mean'),
    min(n).alias('least'),
    max(col('user')).alias('last_user'),
  );
}

/** ... the users. */
function usersPerWindow(input: DataFrame): DataFrame {
  return perWindow(input, collect_list(col('user')).alias('users'));
}

/** A click at noon in each of the 4 partitions, category `flush`. */
const FLUSH = [0, 1, 2, 3].map((partition) => ({
  partition,
  key: 'f',
  value: JSON.stringify({ ts: at('12:00:00').toISOString(), category: 'flush', user: 'f' }),
}));

/** Rows as sortable JSON, a list's elements sorted (the shards interleave their rows). */
function rowsText(rows: readonly RowObject[]): string[] {
  return rows
    .map((r) =>
      JSON.stringify(r, (_, v: unknown) => (Array.isArray(v) ? [...(v as string[])].sort() : v)),
    )
    .sort();
}

/** `category n`: the last row each category got, over all the sinks. */
function finalCounts(rows: readonly RowObject[]): string[] {
  const last = new Map<string, RowObject>();
  for (const r of rows) last.set(String(r.category), r);
  return [...last.values()].map((r) => `${String(r.category)} ${String(r.n)}`).sort();
}

/** Runs shard `shard` of stage `stage` of `query` (of 2 shards a stage) until it has read everything. */
function stageRunner(
  query: DataFrame,
  name: string,
  checkpoint: string,
  sinks: readonly MemorySink[],
  mode: 'update' | 'append',
): (stage: number, shard: number) => Promise<void> {
  return async (stage, shard) => {
    const q = await query.writeStream
      .queryName(name)
      .outputMode(mode)
      .sink(sinks[shard])
      .option('checkpointLocation', checkpoint)
      .option('parallelism', 2)
      .option('shard', shard)
      .option('stage', stage)
      .option('repartition.kafka.bootstrap.servers', SERVERS())
      .option('repartition.partitions', 4)
      .start();
    await q.processAllAvailable();
    await q.stop();
  };
}

describe('a split query run by stage and shard options', () => {
  for (const [grouping, byCategory] of [
    ['a column', clicksByCategory],
    ['an expression', clicksByParsedCategory],
  ] as const) {
    it(`runs stage 1 into the repartition topic named after the query and stage 2 from it, grouped by ${grouping}, ending equal to the batch query's counts`, async () => {
      const input = uniqueName('clicks');
      const name = uniqueName('by-category');
      const session = new SluiceSession();
      const query = byCategory(kafka(session, input, true));
      const checkpoint = tempDir();
      const sinks = [0, 1].map((j) => new MemorySink(query.schema, uniqueName(`stage2-${j}`)));
      const run = stageRunner(query, name, checkpoint, sinks, 'update');

      await produce(input, clickRecords(30));
      await run(1, 0);
      await run(1, 1);
      expect(sinks.flatMap((s) => s.rows())).toEqual([]); // stage 1 writes the topic, not the sink
      await run(2, 0);
      await run(2, 1);
      await produce(input, clickRecords(30, 30));
      for (const stage of [1, 2]) for (const shard of [0, 1]) await run(stage, shard);

      const batch = await byCategory(kafka(session, input, false)).collect();
      const expected = finalCounts(batch);
      expect(expected).toEqual(['books 20', 'games 20', 'music 20']);
      expect(finalCounts(sinks.flatMap((s) => s.rows()))).toEqual(expected);
      // each category is counted by one stage-2 shard only
      const [zero, one] = sinks.map((s) => new Set(s.rows().map((r) => r.category)));
      expect([...zero].filter((c) => one.has(c))).toEqual([]);

      // the rows went through the topic the query's name gives; each stage and shard has its checkpoint
      const topic = `sluice-${name}-repartition`;
      expect(await kafka(session, topic, false).count()).toBeGreaterThan(0);
      for (const stage of [1, 2]) {
        for (const shard of [0, 1]) {
          expect(
            existsSync(path.join(checkpoint, 'stages', String(stage), 'shards', String(shard))),
          ).toBe(true);
        }
      }
    });
  }

  for (const [functions, aggregated] of [
    ['count, sum, avg, min and max, merged from partial rows', statisticsPerWindow],
    ['collect_list, which ships rows', usersPerWindow],
  ] as const) {
    it(`runs a windowed aggregation of ${functions} in append mode to the batch query's result`, async () => {
      const input = uniqueName('clicks');
      const name = uniqueName('per-window');
      const session = new SluiceSession();
      const query = aggregated(kafka(session, input, true));
      const checkpoint = tempDir();
      const sinks = [0, 1].map((j) => new MemorySink(query.schema, uniqueName(`stage2-${j}`)));
      const run = stageRunner(query, name, checkpoint, sinks, 'append');
      // three rounds of 40 clicks, 37 s apart, then a click an hour later in every partition,
      // whose watermark closes every window of the others
      for (const records of [...[0, 40, 80].map((from) => clickRecords(40, from)), FLUSH]) {
        await produce(input, records);
        for (const stage of [1, 2]) for (const shard of [0, 1]) await run(stage, shard);
      }
      const clicked = (rows: readonly RowObject[]) => rows.filter((r) => r.category !== 'flush');
      const expected = clicked(await aggregated(kafka(session, input, false)).collect());
      expect(expected.length).toBe(24); // 8 windows of 3 categories
      expect(rowsText(clicked(sinks.flatMap((s) => s.rows())))).toEqual(rowsText(expected));
    });
  }

  it('refuses a split query run as shards without a stage, a stage that does not exist, and a stage on a query that needs no split', () => {
    const session = new SluiceSession();
    const input = kafka(session, uniqueName('clicks'), true);
    const start =
      (df: DataFrame, options: Record<string, number>, mode: 'update' | 'append' = 'update') =>
      () =>
        df.writeStream
          .queryName('q')
          .outputMode(mode)
          .format('memory')
          .option('checkpointLocation', tempDir())
          .option('repartition.kafka.bootstrap.servers', SERVERS())
          .optionsFrom(options)
          .check();
    const split = clicksByCategory(input);
    const aligned = input.groupBy(col('key')).agg(count().alias('n'));

    expect(start(split, { parallelism: 2, shard: 0 })).toThrow(StageSelectionError);
    expect(start(split, { parallelism: 2, shard: 0 })).toThrow(/option\('stage', 1\)/);
    expect(start(split, { parallelism: 2, shard: 0, stage: 3 })).toThrow(/Stage 3 does not exist/);
    expect(start(aligned, { parallelism: 2, shard: 1, stage: 2 })).toThrow(StageSelectionError);
    expect(start(aligned, { parallelism: 2, shard: 1, stage: 2 })).toThrow(/needs no split/);
    // a stream-stream join not on both sides' Kafka keys cannot split: refused, not run unsplit
    const clicksAt = (alias: string) =>
      parsed(kafka(session, uniqueName('clicks'), true))
        .select(col('e.user').alias(`${alias}user`), col('e.ts').alias(`${alias}ts`))
        .withWatermark(`${alias}ts`, '1 minute');
    const joined = clicksAt('l').join(
      clicksAt('r'),
      col('luser')
        .eq(col('ruser'))
        .and(col('lts').eq(col('rts'))),
    );
    expect(start(joined, { parallelism: 2, shard: 0 }, 'append')).toThrow(StageSelectionError);
    expect(start(joined, { parallelism: 2, shard: 0 }, 'append')).toThrow(
      /runs as 2 shards, but a stream-stream join/,
    );
    expect(start(joined, { parallelism: 1 }, 'append')).not.toThrow();
    // the same queries without the misfit run as before: unsplit with one shard, aligned with two
    expect(start(split, { parallelism: 1 })).not.toThrow();
    expect(start(aligned, { parallelism: 2, shard: 1 })).not.toThrow();
    expect(start(split, { parallelism: 2, shard: 1, stage: 1 })).not.toThrow();
  });

  it('runs a split query over files unsplit unless the repartition options are given', () => {
    const session = new SluiceSession();
    const files = session.readStream.schema('user STRING, category STRING').json(tempDir());
    const byCategory = files.groupBy(col('category')).agg(count().alias('n'));
    const start = (options: Record<string, string | number>) => () =>
      byCategory.writeStream
        .queryName('q')
        .outputMode('update')
        .format('memory')
        .option('checkpointLocation', tempDir())
        .optionsFrom({ parallelism: 2, shard: 0, ...options })
        .check();
    // files carry no partitioning to repartition from unless the topic's connection is named
    expect(start({})).not.toThrow();
    const repartition = { 'repartition.kafka.bootstrap.servers': SERVERS() };
    expect(start(repartition)).toThrow(StageSelectionError);
    expect(start({ ...repartition, stage: 1 })).not.toThrow();
  });
});
