/**
 * A broker that hangs (connections open, requests unanswered) must cost a bounded time: planning
 * fails with a retriable SourceError naming the brokers, and the consumer-group copy after a commit
 * gives up quickly, reported in the batch's progress. The brokers are frozen with SIGSTOP of a
 * mock cluster this file starts for itself.
 */
import { Kafka, logLevel, Partitioners } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemorySink, SluiceSession, SourceError } from '../../core/index.js';
import { closeKafkaConnections } from '../../core/kafka/kafka-connection-pool.js';
import { type KafkaMockCluster, startKafkaMockCluster } from '../support/kafka-mock-cluster.js';
import { tempDir } from '../support/temp-dir.js';
import { uniqueName } from '../support/unique-name.js';

let cluster: KafkaMockCluster;

beforeAll(async () => {
  cluster = await startKafkaMockCluster();
});

afterAll(async () => {
  cluster.thaw();
  await closeKafkaConnections();
  await cluster.stop();
});

async function produce(topic: string, count: number): Promise<void> {
  const kafka = new Kafka({
    brokers: cluster.bootstrapServers.split(','),
    logLevel: logLevel.NOTHING,
  });
  const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
  await producer.connect();
  await producer.send({
    topic,
    messages: Array.from({ length: count }, (_, i) => ({ partition: i % 4, value: `v${i}` })),
  });
  await producer.disconnect();
}

function stream(topic: string, options: Record<string, string | number>) {
  return new SluiceSession().readStream
    .format('kafka')
    .option('kafka.bootstrap.servers', cluster.bootstrapServers)
    .option('subscribe', topic)
    .option('startingOffsets', 'earliest')
    .optionsFrom(options)
    .load();
}

describe('a Kafka broker that hangs', () => {
  it('fails planning within kafka.default.api.timeout.ms with a retriable SourceError naming the brokers', async () => {
    const topic = uniqueName('frozen-plan');
    await produce(topic, 8);
    const df = stream(topic, { 'kafka.default.api.timeout.ms': 1500 });
    const query = await df.writeStream
      .sink(new MemorySink(df.schema, uniqueName('sink')))
      .option('checkpointLocation', tempDir())
      .start();
    await query.processAllAvailable(); // connected, one batch planned and read
    await produce(topic, 4);
    cluster.freeze();
    try {
      const failure = await query.processAllAvailable().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(failure).toBeInstanceOf(SourceError);
      expect((failure as SourceError).retriable).toBe(true);
      expect((failure as Error).message).toContain(cluster.bootstrapServers);
      expect((failure as Error).message).toMatch(/kafka\.default\.api\.timeout\.ms/);
    } finally {
      cluster.thaw();
      await query.stop();
    }
  }, 20_000);

  it('bounds the copy of committed offsets to the consumer group, reporting it in the progress', async () => {
    const topic = uniqueName('frozen-group');
    const groupId = uniqueName('lag-dashboard');
    await produce(topic, 8);
    const df = stream(topic, { 'kafka.group.id': groupId });
    const query = await df.writeStream
      .sink(new MemorySink(df.schema, uniqueName('sink')))
      .option('checkpointLocation', tempDir())
      .afterStep((step) => {
        // frozen while the batch commits (the group copy follows the checkpoint's commit), then thawed
        if (step === 'sink') cluster.freeze();
        if (step === 'commit') cluster.thaw();
      })
      .start();
    try {
      await query.processAllAvailable();
    } finally {
      cluster.thaw();
      await query.stop();
    }
    const [batch] = query.recentProgress;
    expect(batch.numInputRows).toBe(8);
    expect(batch.sources[0].metrics?.offsetsCommittedToGroup).toBe(0);
    expect(batch.sources[0].warnings?.[0]).toMatch(
      new RegExp(
        `the batch committed, but copying its end offsets to consumer group '${groupId}' failed.*did not answer within 2000 ms`,
      ),
    );
  }, 20_000);
});
