/**
 * How far a Kafka stream is behind: the source's backlog (offsets available beyond a batch's end)
 * and, per batch, Spark's offsets-behind-latest metrics and latest offset in progress.
 */
import { describe, expect, inject, it } from 'vitest';
import { MemorySink, SluiceSession } from '../../core/index.js';
import { produceToAllPartitions } from '../support/kafka-producer.js';
import { MemoryKafkaReader } from '../support/memory-kafka-reader.js';
import { tempDir } from '../support/temp-dir.js';
import { uniqueName } from '../support/unique-name.js';
import { memorySource } from './memory-source.js';

describe("the Kafka source's backlog", () => {
  it('counts the offsets beyond an end over all partitions, new partitions from their start', async () => {
    const reader = new MemoryKafkaReader();
    reader.createTopic('clicks', 2);
    reader.append('clicks', 0, 7);
    reader.append('clicks', 1, 3);
    const s = memorySource(reader, { startingOffsets: 'earliest' });
    expect(await s.backlog(undefined)).toBe(10); // from the initial offsets
    expect(await s.backlog({ clicks: { 0: 5, 1: 3 } })).toBe(2);
    reader.createTopic('clicks', 3);
    reader.append('clicks', 2, 4);
    expect(await s.backlog({ clicks: { 0: 5, 1: 3 } })).toBe(6);
  });

  it('leaves out offsets that are already lost when failOnDataLoss is false', async () => {
    const reader = new MemoryKafkaReader();
    reader.createTopic('clicks', 1);
    reader.append('clicks', 0, 10);
    reader.deleteBefore('clicks', 0, 6);
    const lenient = memorySource(reader, { failOnDataLoss: 'false' });
    expect(await lenient.backlog({ clicks: { 0: 2 } })).toBe(4);
    const strict = memorySource(reader);
    expect(await strict.backlog({ clicks: { 0: 2 } })).toBe(8);
  });
});

describe('offsets behind latest', () => {
  it('are reported per batch as their sum, average, maximum and minimum over the partitions', async () => {
    const reader = new MemoryKafkaReader();
    reader.createTopic('clicks', 3);
    reader.append('clicks', 0, 30);
    reader.append('clicks', 1, 10);
    const s = memorySource(reader, { startingOffsets: 'earliest', maxOffsetsPerTrigger: 8 });
    const end = await s.latestOffset(undefined);
    expect(end).toEqual({ clicks: { 0: 6, 1: 2, 2: 0 } });
    expect(s.reportLatestOffset()).toEqual({ clicks: { 0: 30, 1: 10, 2: 0 } });
    expect(s.metrics(undefined, end!)).toEqual({
      lostOffsets: 0,
      offsetsBehindLatest: 32,
      avgOffsetsBehindLatest: 32 / 3,
      maxOffsetsBehindLatest: 24,
      minOffsetsBehindLatest: 0,
    });
  });

  it('reach the progress of a backfill, which counts down to nothing behind', async () => {
    const topic = uniqueName('behind');
    await produceToAllPartitions(topic, 10);
    const df = new SluiceSession().readStream
      .format('kafka')
      .option('kafka.bootstrap.servers', inject('kafkaBootstrapServers'))
      .option('subscribe', topic)
      .option('startingOffsets', 'earliest')
      .option('maxOffsetsPerTrigger', 16)
      .load();
    const query = await df.writeStream
      .sink(new MemorySink(df.schema, uniqueName('sink')))
      .option('checkpointLocation', tempDir())
      .trigger({ availableNow: true })
      .start();
    await query.awaitTermination();
    const progress = query.recentProgress;
    expect(progress.map((p) => p.numInputRows)).toEqual([16, 16, 8]);
    const latest = { [topic]: { 0: 10, 1: 10, 2: 10, 3: 10 } };
    expect(progress.map((p) => p.sources[0].latestOffset)).toEqual([latest, latest, latest]);
    expect(progress.map((p) => p.sources[0].metrics?.offsetsBehindLatest)).toEqual([24, 8, 0]);
    expect(progress[0].sources[0].metrics).toMatchObject({
      maxOffsetsBehindLatest: 6,
      minOffsetsBehindLatest: 6,
      avgOffsetsBehindLatest: 6,
    });
    expect(progress.map((p) => p.backfill)).toEqual([
      { done: 16, total: 40 },
      { done: 32, total: 40 },
      { done: 40, total: 40 },
    ]);
  });
});
