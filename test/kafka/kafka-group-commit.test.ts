/**
 * Committed offsets copied to a consumer group (kafka.group.id, or one named for the query), for tools that watch consumer lag:
 * only after a batch commits, best-effort (a failed copy is reported, never fails the batch), and
 * never read back.
 */
import { afterAll, describe, expect, inject, it } from 'vitest';
import { MemorySink, SluiceSession, type StreamingQuery } from '../../core/index.js';
import { queryGroupId } from '../../core/kafka/query-group.js';
import { produceToAllPartitions, testKafka } from '../support/kafka-producer.js';
import { MemoryKafkaReader } from '../support/memory-kafka-reader.js';
import { tempDir } from '../support/temp-dir.js';
import { uniqueName } from '../support/unique-name.js';
import { memorySource } from './memory-source.js';

class Crash extends Error {}

const admin = testKafka().admin();
const connected = admin.connect();
afterAll(async () => {
  await connected;
  await admin.disconnect();
});

/** The group's committed offset per partition of `topic` (-1: none). */
async function groupOffsets(groupId: string, topic: string) {
  await connected;
  const [offsets] = await admin.fetchOffsets({ groupId, topics: [topic] });
  return Object.fromEntries(offsets.partitions.map((p) => [p.partition, Number(p.offset)]));
}

/** Runs a stream over `topic` to the end of what is available; `crashAt` makes batches fail there. */
async function runStream(
  topic: string,
  checkpoint: string,
  options: Record<string, string | number>,
  crashAt?: 'sink',
): Promise<{ query: StreamingQuery; failure: unknown }> {
  const df = new SluiceSession().readStream
    .format('kafka')
    .option('kafka.bootstrap.servers', inject('kafkaBootstrapServers'))
    .option('subscribe', topic)
    .option('startingOffsets', 'earliest')
    .optionsFrom(options)
    .load();
  const query = await df.writeStream
    .sink(new MemorySink(df.schema, uniqueName('sink')))
    .option('checkpointLocation', checkpoint)
    .afterStep((step) => {
      if (step === crashAt) throw new Crash(`crash after ${step}`);
    })
    .start();
  const failure = await query.processAllAvailable().then(
    () => undefined,
    (e: unknown) => e,
  );
  await query.stop();
  return { query, failure };
}

describe('offsets copied to kafka.group.id', () => {
  it("equal each committed batch's end offsets, and are copied only once the batch committed", async () => {
    const topic = uniqueName('group');
    const groupId = uniqueName('lag-dashboard');
    const checkpoint = tempDir();
    await produceToAllPartitions(topic, 5);
    const options = { 'kafka.group.id': groupId, maxOffsetsPerTrigger: 12 };

    const crashed = await runStream(topic, checkpoint, options, 'sink');
    expect(crashed.failure).toBeInstanceOf(Crash);
    expect(await groupOffsets(groupId, topic)).toEqual({ 0: -1, 1: -1, 2: -1, 3: -1 });

    const { query, failure } = await runStream(topic, checkpoint, options);
    expect(failure).toBeUndefined();
    const batches = query.recentProgress;
    expect(batches.map((p) => p.numInputRows)).toEqual([12, 8]);
    expect(batches.map((p) => p.sources[0].metrics?.offsetsCommittedToGroup)).toEqual([1, 1]);
    expect(batches.every((p) => p.sources[0].warnings === undefined)).toBe(true);
    const end = batches[1].sources[0].endOffset as Record<string, Record<string, number>>;
    expect(await groupOffsets(groupId, topic)).toEqual({ 0: 5, 1: 5, 2: 5, 3: 5 });
    expect(end[topic]).toEqual({ 0: 5, 1: 5, 2: 5, 3: 5 });
  });

  it('go to a group named for the query when kafka.group.id is not given', async () => {
    const topic = uniqueName('query-group');
    await produceToAllPartitions(topic, 3);
    const { query, failure } = await runStream(topic, tempDir(), {});
    expect(failure).toBeUndefined();
    expect(await groupOffsets(queryGroupId(query.id), topic)).toEqual({ 0: 3, 1: 3, 2: 3, 3: 3 });
  });

  it('are not copied with commitOffsetsToGroup=false', async () => {
    const topic = uniqueName('no-group');
    const groupId = uniqueName('unused');
    await produceToAllPartitions(topic, 1);
    const { query } = await runStream(topic, tempDir(), {
      'kafka.group.id': groupId,
      commitOffsetsToGroup: 'false',
    });
    expect(query.recentProgress.map((p) => p.numInputRows)).toEqual([4]);
    expect(query.recentProgress[0].sources[0].metrics).not.toHaveProperty(
      'offsetsCommittedToGroup',
    );
    expect(await groupOffsets(groupId, topic)).toEqual({ 0: -1, 1: -1, 2: -1, 3: -1 });
  });

  it('fail without failing the batch when the group has an active consumer, and say so in progress', async () => {
    const topic = uniqueName('busy-group');
    const groupId = uniqueName('busy');
    await produceToAllPartitions(topic, 2);
    const consumer = testKafka().consumer({ groupId });
    await consumer.connect();
    try {
      await consumer.subscribe({ topic });
      const joined = new Promise((resolve) => consumer.on(consumer.events.GROUP_JOIN, resolve));
      void consumer.run({ eachMessage: async () => {} });
      await joined;
      const { query, failure } = await runStream(topic, tempDir(), { 'kafka.group.id': groupId });
      expect(failure).toBeUndefined();
      const [batch] = query.recentProgress;
      expect(batch.numInputRows).toBe(8);
      expect(batch.sources[0].metrics?.offsetsCommittedToGroup).toBe(0);
      expect(batch.sources[0].warnings).toEqual([
        expect.stringContaining(
          `the batch committed, but copying its end offsets to consumer group '${groupId}' failed`,
        ),
      ]);
      expect(batch.sources[0].warnings![0]).toContain(
        'give kafka.group.id a group no consumer uses',
      );
    } finally {
      await consumer.disconnect();
    }
  });

  it('report a failed copy for that batch only, and succeed again with the next', async () => {
    const reader = new MemoryKafkaReader();
    reader.createTopic('clicks', 1);
    reader.append('clicks', 0, 3);
    const s = memorySource(reader, { startingOffsets: 'earliest', 'kafka.group.id': 'dash' });
    const first = (await s.latestOffset(undefined))!;
    reader.commitFailure = new Error('coordinator unavailable');
    await s.commit(first); // does not throw: the batch is committed whatever happens here
    expect(s.metrics(undefined, first)).toMatchObject({ offsetsCommittedToGroup: 0 });
    expect(s.warnings(undefined, first)).toEqual([
      expect.stringContaining('coordinator unavailable'),
    ]);
    expect(reader.committed.get('dash')).toBeUndefined();

    reader.commitFailure = undefined;
    reader.append('clicks', 0, 2);
    const second = (await s.latestOffset(first))!;
    await s.commit(second);
    expect(s.metrics(first, second)).toMatchObject({ offsetsCommittedToGroup: 1 });
    expect(s.warnings(first, second)).toEqual([]);
    expect(reader.committed.get('dash')).toEqual({ clicks: { 0: 5 } });
  });
});
