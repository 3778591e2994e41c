/**
 * Time to first record of the Kafka source (`npm run bench:kafka-first-record`): how long a cold
 * reader (a new client, as in a new Lambda container) takes from nothing to the first record of a
 * planned range, next to a plain kafkajs consumer, which must join a consumer group first. It runs
 * on librdkafka's mock cluster (started here, as the tests start it) over loopback; it prints figures
 * and asserts no timings.
 *
 * Measured, each from a new client: (a) the reader's first record: `readRange` of one offset in the
 * middle of a partition (connect, metadata, leader, one fetch); (b) the reader reading offsets
 * 2500..7500 of that partition; (c) the source's first batch: `latestOffset` then `getBatch`
 * (subscription, offsets, initial offsets recorded, fetch); (d) a kafkajs consumer with a new group,
 * `fromBeginning`, until its first message. (a) to (c) run 5 times; the first run pays the JIT.
 *
 * The last line of output is one JSON object:
 * {"reader_ttfr_ms", "reader_5000_ms", "source_first_batch_ms", "consumer_ttfr_ms"} (medians).
 */
import { randomUUID } from 'node:crypto';
import { Kafka, logLevel, Partitioners } from 'kafkajs';
import { MemoryObjectStore } from '../core/checkpoint/memory-object-store.js';
import { closeKafkaConnections } from '../core/kafka/kafka-connection-pool.js';
import { kafkaOptions } from '../core/kafka/kafka-options.js';
import { KafkaSource } from '../core/kafka/kafka-source.js';
import { KafkajsPartitionReader } from '../core/kafka/kafkajs-partition-reader.js';
import { startKafkaMockCluster } from '../test/support/kafka-mock-cluster.js';

const RUNS = 5;
const RECORDS_PER_PARTITION = 10_000;

const cluster = await startKafkaMockCluster();
try {
  const brokers = cluster.bootstrapServers.split(',');
  const topic = `ttfr-${randomUUID().slice(0, 8)}`;
  await fill(brokers, topic);

  const readerFirst: number[] = [];
  const readerRange: number[] = [];
  const sourceFirst: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    readerFirst.push(
      await timed(async () => {
        const reader = new KafkajsPartitionReader({ brokers });
        const read = await reader.readRange({ topic, partition: 0 }, 2_500, 2_501);
        check(read.kind === 'records' && read.records.length === 1, 'one record');
        return () => reader.close();
      }),
    );
    readerRange.push(
      await timed(async () => {
        const reader = new KafkajsPartitionReader({ brokers });
        const read = await reader.readRange({ topic, partition: 0 }, 2_500, 7_500);
        check(read.kind === 'records' && read.records.length === 5_000, '5000 records');
        return () => reader.close();
      }),
    );
    sourceFirst.push(
      await timed(async () => {
        const options = kafkaOptions(
          new Map<string, string | number>([
            ['kafka.bootstrap.servers', cluster.bootstrapServers],
            ['subscribe', topic],
            ['startingoffsets', 'earliest'],
            ['maxoffsetspertrigger', 4],
          ]),
          'stream',
        );
        const source = new KafkaSource(options, { metadataStore: new MemoryObjectStore() });
        const end = await source.latestOffset(undefined);
        const rows = await source.getBatch(undefined, end);
        check(rows.length === 4, 'four rows');
        return () => source.stop().then(closeKafkaConnections);
      }),
    );
  }
  const consumer = await consumerFirstRecord(brokers, topic);

  const line = (name: string, runs: number[]) =>
    console.log(
      `${name.padEnd(44)} median ${median(runs).toFixed(1)} ms   runs ${runs.map((r) => r.toFixed(1)).join(', ')}`,
    );
  console.log(
    `Kafka mock cluster (3 brokers, loopback), ${topic}: 4 partitions x ${RECORDS_PER_PARTITION} records of ~200 bytes`,
  );
  line('reader, cold: first record', readerFirst);
  line('reader, cold: offsets 2500..7500', readerRange);
  line('source, cold: first batch (plan + read)', sourceFirst);
  console.log(
    `${'kafkajs consumer, new group: first record'.padEnd(44)} ${consumer.toFixed(1)} ms`,
  );
  console.log(
    JSON.stringify({
      reader_ttfr_ms: round(median(readerFirst)),
      reader_5000_ms: round(median(readerRange)),
      source_first_batch_ms: round(median(sourceFirst)),
      consumer_ttfr_ms: round(consumer),
    }),
  );
} finally {
  await cluster.stop();
}

/** Produces the records, ~200-byte JSON values, in batches of 1,000 per partition. */
async function fill(brokers: string[], topic: string): Promise<void> {
  const producer = new Kafka({ brokers, logLevel: logLevel.NOTHING }).producer({
    createPartitioner: Partitioners.DefaultPartitioner,
  });
  await producer.connect();
  for (let start = 0; start < RECORDS_PER_PARTITION; start += 1_000) {
    await producer.send({
      topic,
      messages: [0, 1, 2, 3].flatMap((partition) =>
        Array.from({ length: 1_000 }, (_, i) => ({
          partition,
          value: JSON.stringify({
            ts: new Date(Date.UTC(2026, 0, 1) + (start + i) * 1_000).toISOString(),
            category: ['books', 'games', 'music'][i % 3],
            user: `user-${start + i}`,
            page: `/catalog/${partition}/${start + i}`,
            padding: 'x'.repeat(90),
          }),
        })),
      ),
    });
  }
  await producer.disconnect();
}

/** Milliseconds from a new kafkajs consumer (new group, from the beginning) to its first message. */
async function consumerFirstRecord(brokers: string[], topic: string): Promise<number> {
  const consumer = new Kafka({ brokers, logLevel: logLevel.NOTHING }).consumer({
    groupId: `ttfr-${randomUUID()}`,
  });
  const t0 = performance.now();
  let first = 0;
  const received = new Promise<void>((resolve) => {
    void (async () => {
      await consumer.connect();
      await consumer.subscribe({ topic, fromBeginning: true });
      await consumer.run({
        eachMessage: async () => {
          if (first === 0) first = performance.now() - t0;
          resolve();
        },
      });
    })();
  });
  await received;
  await consumer.disconnect();
  return first;
}

/** Runs `work` and returns its milliseconds; the cleanup it returns is not timed. */
async function timed(work: () => Promise<() => Promise<void>>): Promise<number> {
  const t0 = performance.now();
  const cleanup = await work();
  const ms = performance.now() - t0;
  await cleanup();
  return ms;
}

function check(ok: boolean, what: string): void {
  if (!ok) {
    console.error(`wrong result: expected ${what}`);
    process.exit(1);
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
