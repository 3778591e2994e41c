/**
 * A query split into two stages through a repartition topic of the mock cluster: clicks keyed by
 * user, counted by category. Two stage-1 shards read the input topic's partitions and write their
 * rows to the repartition topic (RepartitionSink); two stage-2 shards read its partitions
 * (RepartitionSource) and hold the counts. A stage-1 batch cut short after its sink step and run
 * again delivers its records twice; stage 2 drops the copies, and the union of the stage-2 shards'
 * output ends equal to the batch query's result. With event time, stage 2 admits no row above the
 * slowest stage-1 shard's markers, and its windowed counts equal the batch query's up to there.
 */
import { afterAll, describe, expect, inject, it } from 'vitest';
import {
  col,
  count,
  DataFrame,
  from_json,
  lit,
  MemorySink,
  type RowObject,
  SluiceSession,
  type StreamingQuery,
  window,
} from '../../core/index.js';
import { closeKafkaConnections } from '../../core/kafka/kafka-connection-pool.js';
import { PLAINTEXT } from '../../core/kafka/kafka-security.js';
import { kafkajsReader } from '../../core/kafka/kafkajs-partition-reader.js';
import { KafkajsRecordWriter } from '../../core/kafka/kafkajs-record-writer.js';
import { repartitionSource } from '../../core/kafka/repartition-source.js';
import { keyPartition, RepartitionSink } from '../../core/kafka/repartition-sink.js';
import { encodeRow } from '../../core/io/row-binary-codec.js';
import { parseSchema } from '../../core/types/type-names.js';
import { splitStages } from '../../core/plan/stage-split.js';
import { at } from '../support/events.js';
import { clickRecords } from '../support/kafka-clicks.js';
import { produce } from '../support/kafka-producer.js';
import { tempDir } from '../support/temp-dir.js';
import { uniqueName } from '../support/unique-name.js';

const SERVERS = () => inject('kafkaBootstrapServers');
afterAll(() => closeKafkaConnections());

/** The clicks of Kafka rows whose value is a click as JSON. */
function clicks(kafka: DataFrame): DataFrame {
  return kafka
    .select(
      from_json(col('value').cast('string'), 'ts TIMESTAMP, category STRING, user STRING').alias(
        'e',
      ),
    )
    .select('e.*');
}

/** Clicks per category. */
function clicksByCategory(kafka: DataFrame): DataFrame {
  return clicks(kafka).groupBy(col('category')).agg(count().alias('n'));
}

/** `window-start category n`, the last row of each window and category, sorted. */
function windowCounts(rows: readonly RowObject[]): string[] {
  const last = new Map<string, string>();
  for (const r of rows) {
    const key = `${String((r.window as { start: unknown }).start)} ${String(r.category)}`;
    last.set(key, `${key} ${String(r.n)}`);
  }
  return [...last.values()].sort();
}

function kafkaInput(session: SluiceSession, topic: string): DataFrame {
  return session.readStream
    .format('kafka')
    .option('kafka.bootstrap.servers', SERVERS())
    .option('subscribe', topic)
    .option('startingOffsets', 'earliest')
    .load();
}

/**
 * `query` over the input topic split into two stages on checkpoints of their own, each run as 2
 * shards; the stage-2 shards write to memory sinks in `outputMode`. `idleTimeoutMs` is stage 2's
 * (the default's five minutes unless given).
 */
function twoStages(
  session: SluiceSession,
  query: DataFrame,
  idleTimeoutMs?: number,
  outputMode: 'update' | 'append' = 'update',
) {
  const topic = uniqueName('repartition');
  const split = splitStages(query.plan);
  if (split.kind !== 'split') throw new Error(`expected a split: ${split.reason}`);
  const stage1Checkpoint = tempDir();
  const stage2Checkpoint = tempDir();
  /** Stage-1 shard `shard`; `crashAt` makes it die right after the sink step of that batch. */
  const stage1 = (shard: number, crashAt?: number) =>
    new DataFrame(session, split.stage1).writeStream
      .sink(
        new RepartitionSink(
          {
            topic,
            partitions: 4,
            keyColumns: split.keyColumns,
            shard: { stage: 1, shard, shards: 2 },
          },
          new KafkajsRecordWriter({ brokers: SERVERS().split(','), maxRequestBytes: 1 << 20 }),
        ),
      )
      .option('checkpointLocation', stage1Checkpoint)
      .option('parallelism', 2)
      .option('shard', shard)
      .afterStep((step, batchId) => {
        if (step === 'sink' && batchId === crashAt) throw new Error(`died after batch ${batchId}`);
      })
      .start();
  const stage2Plan = split.stage2({
    description: `RepartitionSource[${topic}]`,
    source: repartitionSource({ topic, schema: split.stage1.schema, idleTimeoutMs }, () =>
      kafkajsReader({
        bootstrapServers: SERVERS().split(','),
        security: PLAINTEXT,
        isolationLevel: 'read_committed',
      }),
    ),
  });
  const sinks = [0, 1].map((j) => new MemorySink(stage2Plan.schema, uniqueName(`stage2-${j}`)));
  const stage2Queries: StreamingQuery[] = [];
  return {
    split,
    sinks,
    stage2Queries,
    stage1,
    /** Runs stage-1 shard `shard` over what its partitions hold now. */
    async runStage1(shard: number): Promise<void> {
      const q = await stage1(shard);
      await q.processAllAvailable();
      await q.stop();
    },
    /** Runs both stage-2 shards over what the repartition topic holds now. */
    async runStage2(): Promise<void> {
      for (const j of [0, 1]) {
        const q = await new DataFrame(session, stage2Plan).writeStream
          .outputMode(outputMode)
          .sink(sinks[j])
          .option('checkpointLocation', stage2Checkpoint)
          .option('parallelism', 2)
          .option('shard', j)
          .start();
        await q.processAllAvailable();
        await q.stop();
        stage2Queries.push(q);
      }
    },
  };
}

/** The input topic as a bounded Kafka DataFrame. */
function kafkaTable(session: SluiceSession, topic: string): DataFrame {
  return session.read
    .format('kafka')
    .option('kafka.bootstrap.servers', SERVERS())
    .option('subscribe', topic)
    .load();
}

/** `category n` per category: the last row each category got, over all the sinks. */
function finalCounts(sinks: readonly MemorySink[]): string[] {
  const last = new Map<string, RowObject>();
  for (const sink of sinks) for (const r of sink.rows()) last.set(String(r.category), r);
  return [...last.values()].map((r) => `${String(r.category)} ${String(r.n)}`).sort();
}

/** Clicks per category in 10-minute windows. */
/** The partition of the 4 of the repartition topic that a category's rows go to. */
function categoryPartition(category: string): number {
  return keyPartition(encodeRow([category], parseSchema('category STRING')), 4);
}

function windowed(clicks: DataFrame): DataFrame {
  return clicks.groupBy(window(col('ts'), '10 minutes'), col('category')).agg(count().alias('n'));
}

describe('a query split into two stages through a repartition topic', () => {
  it("drops the copies a re-run stage-1 batch delivers and ends equal to the batch query's counts", async () => {
    const input = uniqueName('clicks');
    const session = new SluiceSession();
    const stages = twoStages(session, clicksByCategory(kafkaInput(session, input)));
    const { sinks, stage2Queries, runStage1, runStage2 } = stages;
    expect(stages.split.keyColumns).toEqual(['category']);

    await produce(input, clickRecords(30));
    await runStage1(0);
    await runStage1(1);
    await runStage2();

    await produce(input, clickRecords(20, 30));
    const dying = await stages.stage1(0, 1);
    await expect(dying.processAllAvailable()).rejects.toThrow('died after batch 1');
    await runStage1(1);
    await runStage2(); // reads the first attempt of shard 0's batch 1
    await runStage1(0); // runs batch 1 again: its records reach the topic twice
    await produce(input, clickRecords(10, 50));
    await runStage1(0);
    await runStage1(1);
    await runStage2();

    const batch = await clicksByCategory(kafkaTable(session, input)).collect();
    const expected = batch.map((r) => `${String(r.category)} ${String(r.n)}`).sort();
    expect(expected).toEqual(['books 20', 'games 20', 'music 20']);
    expect(finalCounts(sinks)).toEqual(expected);

    // each category is counted by one stage-2 shard only, and copies were really delivered
    const categoriesOf = (sink: MemorySink) => new Set(sink.rows().map((r) => r.category));
    const [zero, one] = sinks.map(categoriesOf);
    expect([...zero].filter((c) => one.has(c))).toEqual([]);
    const duplicates = stage2Queries
      .flatMap((q) => q.recentProgress)
      .reduce((sum, p) => sum + (p.sources[0].metrics?.duplicateRecords ?? 0), 0);
    expect(duplicates).toBeGreaterThan(0);
  });

  it("admits no page with a row above the slowest stage-1 shard's event time, and then counts windows as the batch query does up to it", async () => {
    const input = uniqueName('clicks');
    const session = new SluiceSession();
    const stages = twoStages(
      session,
      windowed(clicks(kafkaInput(session, input)).withWatermark('ts', '10 minutes')),
    );
    const { sinks, runStage1, runStage2 } = stages;
    expect(stages.split.keyColumns).toEqual(['category']);
    const repartitionOf = (click: number) =>
      categoryPartition(['books', 'games', 'music'][click % 3]);
    /**
     * The batch query's windowed counts over clicks 0 .. `last` (37 s apart from 10:00, click i by
     * user u<i>), but for those of stage-1 shard 1's held page: its odd clicks from `heldFrom` on
     * in the repartition partition of click `last + 1`, the first above the ceiling.
     */
    const batchUpTo = async (last: number, heldFrom: number) => {
      const counted = Array.from({ length: last + 1 }, (_, i) => i).filter(
        (i) => !(i % 2 === 1 && i >= heldFrom && repartitionOf(i) === repartitionOf(last + 1)),
      );
      const users = counted.map((i) => lit(`u${i}`));
      return windowCounts(
        await windowed(
          clicks(kafkaTable(session, input)).filter(col('user').isin(...users)),
        ).collect(),
      );
    };
    const streamed = () => windowCounts(sinks.flatMap((s) => s.rows()));

    // stage-1 shard 0 reads partitions 0 and 2 (even clicks), shard 1 partitions 1 and 3 (odd ones)
    await produce(input, clickRecords(40));
    await runStage1(0);
    await runStage2(); // shard 1 has not been heard from: nothing may pass
    expect(streamed()).toEqual([]);
    await runStage1(1);
    // shard 0 reached click 38, shard 1 click 39: the page of 39 waits, with shard 1's other clicks in it
    await runStage2();
    expect(streamed()).toEqual(await batchUpTo(38, 0));

    // shard 0 writes first: shard 1's click 59, held back, is in the last page of its partition
    // (a held page holds back what follows it in the partition, of any shard); the page held
    // before is admitted now
    await produce(input, clickRecords(20, 40));
    await runStage1(0);
    await runStage1(1);
    await runStage2();
    expect(streamed()).toEqual(await batchUpTo(58, 40));
  });

  it("closes a stage-2 shard's windows once every stage-1 shard's markers pass them, though its own keys get no more clicks, as the unsplit query's watermark does", async () => {
    const input = uniqueName('clicks');
    const session = new SluiceSession();
    const stages = twoStages(
      session,
      windowed(clicks(kafkaInput(session, input)).withWatermark('ts', '10 minutes')),
      undefined,
      'append',
    );
    const { sinks, runStage1, runStage2 } = stages;
    // books goes to repartition partition 1, so to stage-2 shard 1; games and music to shard 0
    const partitionOf = (category: string) => categoryPartition(category) % 2;
    expect(['books', 'games', 'music'].map(partitionOf)).toEqual([1, 0, 0]);

    await produce(input, clickRecords(30)); // 10:00 to 10:17:53, every category
    await runStage1(0);
    await runStage1(1);
    await runStage2();
    // then only games, from 10:40 on, in every partition: shard 1 gets no row past 10:17:53
    const games = Array.from({ length: 8 }, (_, k) => {
      const ts = at('10:40:00', k * 37_000_000).toISOString();
      return { partition: k % 4, value: JSON.stringify({ ts, category: 'games', user: `g${k}` }) };
    });
    await produce(input, games);
    await runStage1(0);
    await runStage1(1);
    await runStage2();

    // the unsplit query's watermark is 10:34:19 (its latest click less 10 minutes): every window
    // of the first clicks has closed, books' in shard 1 too
    const batch = await windowed(clicks(kafkaTable(session, input))).collect();
    const closed = batch.filter(
      (r) =>
        ((r.window as { end: Date }).end as Date).getTime() <= Date.parse('2026-01-01T10:34:19Z'),
    );
    expect(closed.filter((r) => r.category === 'books').length).toBe(2);
    expect(windowCounts(sinks.flatMap((s) => s.rows()))).toEqual(windowCounts(closed));
    expect(sinks[1].rows().map((r) => r.category)).toContain('books');
  });

  it("drops no row of a stage-1 batch held back in part as late: stage 2's watermark stays below the rows it read and held back", async () => {
    const input = uniqueName('clicks');
    const session = new SluiceSession();
    const stages = twoStages(
      session,
      windowed(clicks(kafkaInput(session, input)).withWatermark('ts', '10 minutes')),
    );
    const { sinks, stage2Queries, runStage1, runStage2 } = stages;
    const click = (partition: number, time: string, user: string) => ({
      partition,
      value: JSON.stringify({ ts: at(time).toISOString(), category: 'books', user }),
    });
    // every click is a book, so every row goes to one repartition partition. Stage-1 shard 1's
    // batch writes its partitions one after the other, each from 10:00 on: in the repartition
    // topic its rows go from 10:00 to 10:40, then back to 10:02, though no partition is out of order
    await produce(input, [click(0, '10:00:00', 'a'), click(0, '10:30:00', 'b')]);
    await produce(input, [
      click(1, '10:00:00', 'c'),
      click(1, '10:40:00', 'd'),
      click(3, '10:02:00', 'e'),
      click(3, '10:41:00', 'f'),
    ]);
    await runStage1(0);
    await runStage1(1);
    // shard 0 reached 10:30: stage 2 stops in shard 1's batch, at its first row past 10:30
    await runStage2();
    await produce(input, [click(2, '10:55:00', 'g')]);
    await runStage1(0); // now shard 1 is the slowest, at 10:41: the rest of its batch passes
    await runStage2();

    const batch = await windowed(
      clicks(kafkaTable(session, input)).filter(col('ts').leq(lit(at('10:41:00')))),
    ).collect();
    expect(windowCounts(sinks.flatMap((s) => s.rows()))).toEqual(windowCounts(batch));
    const progress = stage2Queries.flatMap((q) => q.recentProgress);
    expect(progress.reduce((n, p) => n + p.lateRowsDropped, 0)).toBe(0);
  });

  it('leaves out a stage-1 shard whose partitions stay empty once the idle timeout has passed', async () => {
    const input = uniqueName('clicks');
    const session = new SluiceSession();
    const IDLE_MS = 300;
    const stages = twoStages(
      session,
      windowed(clicks(kafkaInput(session, input)).withWatermark('ts', '10 minutes')),
      IDLE_MS,
    );
    const { sinks, runStage1, runStage2 } = stages;
    const streamed = () => windowCounts(sinks.flatMap((s) => s.rows()));
    // only even clicks: stage-1 shard 1 (partitions 1 and 3) never has input, so never runs a batch
    const evenClicks = (n: number, from: number) =>
      clickRecords(n, from).filter((r) => r.partition % 2 === 0);

    await produce(input, evenClicks(40, 0));
    await runStage1(0);
    await runStage1(1);
    await runStage2(); // shard 1 not heard from, and not for long: nothing may pass
    expect(streamed()).toEqual([]);

    await new Promise((resolve) => setTimeout(resolve, 2 * IDLE_MS));
    await produce(input, evenClicks(20, 40));
    await runStage1(0); // its markers come more than the idle timeout after its first ones
    await runStage1(1);
    await runStage2();
    const batch = await windowed(clicks(kafkaTable(session, input))).collect();
    expect(streamed()).toEqual(windowCounts(batch));
  });
});
