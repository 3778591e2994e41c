/**
 * Producing test records to the run's Kafka mock cluster with kafkajs. A topic is created with 4
 * partitions by its first record. One producer per test file, disconnected when the file finishes.
 */
import { type Kafka as KafkaClient, Kafka, logLevel, Partitioners, type Producer } from 'kafkajs';
import { afterAll, inject } from 'vitest';

/** A record to produce to a given partition. */
export interface TestRecord {
  readonly partition: number;
  readonly value: string | Buffer | null;
  readonly key?: string | null;
  readonly headers?: Record<string, string | string[]>;
  /** Milliseconds since the epoch. @default the producer's clock */
  readonly timestamp?: number;
}

let producer: Promise<Producer> | undefined;

afterAll(async () => {
  const connected = producer;
  producer = undefined;
  if (connected) await (await connected).disconnect();
});

/** A kafkajs client of the mock cluster. */
export function testKafka(): KafkaClient {
  return new Kafka({
    clientId: 'sluice-tests',
    brokers: inject('kafkaBootstrapServers').split(','),
    logLevel: logLevel.NOTHING,
  });
}

/** Produces `records` to `topic`, in order, and waits for the brokers' acknowledgements. */
export async function produce(topic: string, records: readonly TestRecord[]): Promise<void> {
  producer ??= (async () => {
    // every test record names its partition; the partitioner is only set to keep kafkajs quiet
    const p = testKafka().producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await p.connect();
    return p;
  })();
  await (
    await producer
  ).send({
    topic,
    messages: records.map((r) => ({
      partition: r.partition,
      key: r.key ?? null,
      value: r.value,
      headers: r.headers,
      timestamp: r.timestamp === undefined ? undefined : String(r.timestamp),
    })),
  });
}

/** `count` records to each of partitions 0..3 of `topic`, valued `p<partition>-<i>`. */
export async function produceToAllPartitions(topic: string, count: number): Promise<void> {
  const records = [0, 1, 2, 3].flatMap((partition) =>
    Array.from({ length: count }, (_, i) => ({ partition, value: `p${partition}-${i}` })),
  );
  await produce(topic, records);
}

/**
 * Produces 7 MB of 100 KB records (in batches of 10) to one partition: more than the mock cluster
 * keeps per partition (about 5 MB), so it deletes the partition's oldest record batches, as
 * retention does. Returns the partition's earliest offset afterwards.
 */
export async function overflowRetention(topic: string, partition: number): Promise<number> {
  const big = Buffer.alloc(100_000, 'x');
  for (let send = 0; send < 7; send++) {
    await produce(
      topic,
      Array.from({ length: 10 }, () => ({ partition, value: big })),
    );
  }
  const admin = testKafka().admin();
  await admin.connect();
  try {
    const offsets = await admin.fetchTopicOffsets(topic);
    return Number(offsets.find((o) => o.partition === partition)!.low);
  } finally {
    await admin.disconnect();
  }
}
