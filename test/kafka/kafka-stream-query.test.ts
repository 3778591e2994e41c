/**
 * Streaming queries over Kafka topics of the mock cluster: restarts, admission, starting positions,
 * re-runs of an interrupted batch, headers, topics that appear later.
 */
import { describe, expect, inject, it } from 'vitest';
import {
  col,
  MemorySink,
  SluiceSession,
  type DataFrame,
  type RowObject,
  type StreamingQuery,
} from '../../core/index.js';
import { countsText, clickRecords, windowedClickCounts } from '../support/kafka-clicks.js';
import { produce, produceToAllPartitions } from '../support/kafka-producer.js';
import { tempDir } from '../support/temp-dir.js';
import { uniqueName } from '../support/unique-name.js';

class Crash extends Error {}

/** `readStream.format('kafka')` on the mock cluster with these options. */
function kafkaStream(session: SluiceSession, options: Record<string, string | number>): DataFrame {
  return session.readStream
    .format('kafka')
    .option('kafka.bootstrap.servers', inject('kafkaBootstrapServers'))
    .optionsFrom(options)
    .load();
}

/** Starts `df` into a fresh memory sink on `checkpoint`. */
async function start(
  df: DataFrame,
  checkpoint = tempDir(),
  mode: 'append' | 'complete' = 'append',
) {
  const sink = new MemorySink(df.schema, uniqueName('sink'));
  const query = await df.writeStream
    .outputMode(mode)
    .sink(sink)
    .option('checkpointLocation', checkpoint)
    .start();
  return { sink, query };
}

/** Text values of collected Kafka rows. */
const values = (rows: RowObject[]) =>
  rows.map((r) => Buffer.from(r.value as Uint8Array).toString());
const inputRows = (q: StreamingQuery) => q.recentProgress.map((p) => p.numInputRows);

describe('a streaming query over Kafka', () => {
  it("resumes after a restart without reading anything twice, and its windowed counts equal the batch query's", async () => {
    const topic = uniqueName('clicks');
    const checkpoint = tempDir();
    await produce(topic, clickRecords(40));
    const options = { subscribe: topic, startingOffsets: 'earliest' };

    const first = await start(
      windowedClickCounts(kafkaStream(new SluiceSession(), options)),
      checkpoint,
      'complete',
    );
    await first.query.processAllAvailable();
    await first.query.stop();
    expect(inputRows(first.query)).toEqual([40]);

    await produce(topic, clickRecords(25, 40));
    const second = await start(
      windowedClickCounts(kafkaStream(new SluiceSession(), options)),
      checkpoint,
      'complete',
    );
    await second.query.processAllAvailable();
    await second.query.stop();
    expect(inputRows(second.query)).toEqual([25]);
    expect(second.query.recentProgress[0].sources[0]).toMatchObject({
      description: `KafkaSource[${topic}]`,
      startOffset: { [topic]: { 0: 10, 1: 10, 2: 10, 3: 10 } },
      endOffset: { [topic]: { 0: 17, 1: 16, 2: 16, 3: 16 } },
      metrics: { lostOffsets: 0 },
    });

    const batch = windowedClickCounts(
      new SluiceSession().read
        .format('kafka')
        .option('kafka.bootstrap.servers', inject('kafkaBootstrapServers'))
        .option('subscribe', topic)
        .load(),
    );
    const expected = countsText(await batch.collect());
    expect(expected.length).toBeGreaterThan(3);
    expect(countsText(second.sink.rows())).toEqual(expected);
  });

  it('splits a backlog into batches of at most maxOffsetsPerTrigger offsets', async () => {
    const topic = uniqueName('backlog');
    await produceToAllPartitions(topic, 25);
    const { sink, query } = await start(
      kafkaStream(new SluiceSession(), {
        subscribe: topic,
        startingOffsets: 'earliest',
        maxOffsetsPerTrigger: 30,
      }),
    );
    await query.processAllAvailable();
    await query.stop();
    expect(inputRows(query)).toEqual([30, 30, 30, 10]);
    expect(query.recentProgress[0].sources[0].endOffset).toEqual({
      [topic]: { 0: 8, 1: 8, 2: 7, 3: 7 },
    });
    const read = values(sink.rows());
    expect(new Set(read).size).toBe(100);
  });

  it('starts at latest by default, at earliest, or at offsets per partition', async () => {
    const topic = uniqueName('start');
    await produceToAllPartitions(topic, 3);
    const latest = await start(kafkaStream(new SluiceSession(), { subscribe: topic }));
    const earliest = await start(
      kafkaStream(new SluiceSession(), { subscribe: topic, startingOffsets: 'earliest' }),
    );
    const perPartition = await start(
      kafkaStream(new SluiceSession(), {
        subscribe: topic,
        startingOffsets: JSON.stringify({ [topic]: { 0: 2, 1: -2, 2: -1, 3: 3 } }),
      }),
    );
    const all = [latest, earliest, perPartition];
    await Promise.all(all.map((q) => q.query.processAllAvailable()));
    await produce(topic, [{ partition: 2, value: 'new' }]);
    await Promise.all(all.map((q) => q.query.processAllAvailable()));
    await Promise.all(all.map((q) => q.query.stop()));
    expect(values(latest.sink.rows())).toEqual(['new']);
    expect(values(earliest.sink.rows()).sort()).toEqual(
      [
        'p0-0',
        'p0-1',
        'p0-2',
        'p1-0',
        'p1-1',
        'p1-2',
        'p2-0',
        'p2-1',
        'p2-2',
        'p3-0',
        'p3-1',
        'p3-2',
        'new',
      ].sort(),
    );
    expect(values(perPartition.sink.rows()).sort()).toEqual([
      'new',
      'p0-2',
      'p1-0',
      'p1-1',
      'p1-2',
    ]);
  });

  it('re-runs an interrupted batch with the offsets of its intent, even though more records arrived', async () => {
    const topic = uniqueName('rerun');
    const checkpoint = tempDir();
    await produceToAllPartitions(topic, 2);
    const options = { subscribe: topic, startingOffsets: 'earliest' };
    const session = new SluiceSession();
    const crashing = await kafkaStream(session, options)
      .writeStream.format('memory')
      .option('checkpointLocation', checkpoint)
      .afterStep((step) => {
        if (step === 'run') throw new Crash('after run');
      })
      .start();
    await expect(crashing.processAllAvailable()).rejects.toBeInstanceOf(Crash);
    await produceToAllPartitions(topic, 1); // offsets 2 of each partition

    const { sink, query } = await start(kafkaStream(session, options), checkpoint);
    await query.processAllAvailable();
    await query.stop();
    expect(query.recentProgress.map((p) => [p.batchId, p.numInputRows])).toEqual([
      [0, 8],
      [1, 4],
    ]);
    expect(query.recentProgress[0].sources[0].endOffset).toEqual({
      [topic]: { 0: 2, 1: 2, 2: 2, 3: 2 },
    });
    const read = sink.rows().map((r) => `${String(r.partition)}@${String(r.offset)}`);
    expect(new Set(read).size).toBe(12);
  });

  it('gives headers with includeHeaders, and value as text with a cast', async () => {
    const topic = uniqueName('headers');
    await produce(topic, [{ partition: 1, key: 'k', value: 'hello', headers: { trace: 'abc' } }]);
    const df = kafkaStream(new SluiceSession(), {
      subscribe: topic,
      startingOffsets: 'earliest',
      includeHeaders: 'true',
    });
    expect(df.schema.fields.map((f) => f.name)).toEqual([
      'key',
      'value',
      'topic',
      'partition',
      'offset',
      'timestamp',
      'timestampType',
      'headers',
    ]);
    const { sink, query } = await start(
      df.select(
        col('key').cast('string').alias('key'),
        col('value').cast('string').alias('value'),
        col('topic'),
        col('partition'),
        col('offset'),
        col('headers'),
      ),
    );
    await query.processAllAvailable();
    await query.stop();
    expect(sink.rows()).toEqual([
      {
        key: 'k',
        value: 'hello',
        topic,
        partition: 1,
        offset: 0,
        headers: [{ key: 'trace', value: Buffer.from('abc') }],
      },
    ]);
  });

  it('reads topics that start matching subscribePattern later from their first record', async () => {
    const prefix = uniqueName('pattern');
    await produce(`${prefix}-a`, [{ partition: 0, value: 'a0' }]);
    const { sink, query } = await start(
      kafkaStream(new SluiceSession(), { subscribePattern: `${prefix}-.*` }),
    );
    await query.processAllAvailable(); // starts at latest: a0 is before the start
    await produce(`${prefix}-b`, [
      { partition: 0, value: 'b0' },
      { partition: 3, value: 'b1' },
    ]);
    await produce(`${prefix}-a`, [{ partition: 0, value: 'a1' }]);
    await query.processAllAvailable();
    await query.stop();
    expect(values(sink.rows()).sort()).toEqual(['a1', 'b0', 'b1']);
  });
});
