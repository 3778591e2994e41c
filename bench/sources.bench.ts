/**
 * Kafka source throughput (`npm run bench:sources`): 1,000,000 records of 200 bytes on 4 partitions,
 * read by the Kafka source and by a plain kafkajs consumer, side by side in one run, on librdkafka's
 * mock cluster (started here, as the tests start it) over loopback. It prints figures and asserts no
 * timings.
 *
 * The mock cluster keeps only about 5 MB per partition (the oldest record batches go, as with
 * size-based retention), so the records are produced in 20 rounds of 50,000 (12,500 per partition);
 * after each round both readers read it, and only the reading is timed:
 * - the source: `KafkaSource` itself, as the engine drives it (plan with `latestOffset`, then
 *   `getBatch` into engine rows), on a warm connection; no checkpoint, sink or query around it;
 * - the consumer: a kafkajs consumer (one new group, `fromBeginning`, `eachBatch`, fetches waiting at
 *   most 100 ms), paused while a round is produced and timed from its resume to the round's last
 *   record; its group join is left out.
 * Time to first record, each from nothing: a new source on a new connection planning and reading a
 * batch of one record; the consumer from `connect` to its first record (its group join included).
 *
 * The last line of output is one JSON object:
 * {"source_rps", "consumer_rps", "source_vs_consumer", "source_ttfr_ms", "consumer_ttfr_ms"}.
 */
import { randomUUID } from 'node:crypto';
import { type Consumer, Kafka, logLevel, Partitioners, type Producer } from 'kafkajs';
import { MemoryObjectStore } from '../core/checkpoint/memory-object-store.js';
import { closeKafkaConnections } from '../core/kafka/kafka-connection-pool.js';
import { kafkaOptions } from '../core/kafka/kafka-options.js';
import { KafkaSource } from '../core/kafka/kafka-source.js';
import type { Offset } from '../core/sources/source.js';
import { startKafkaMockCluster } from '../test/support/kafka-mock-cluster.js';

const PARTITIONS = 4;
const ROUNDS = 20;
const RECORDS_PER_ROUND = 50_000;
const TOTAL = ROUNDS * RECORDS_PER_ROUND;
const VALUE = Buffer.alloc(200, 'v');
/** Records per produce request: 250 KB per partition. */
const SEND_SIZE = 5_000;

/** A kafkajs consumer in a new group that counts the records it receives. */
class CountingConsumer {
  firstRecordMs = 0;
  private readonly consumer: Consumer;
  private received = 0;
  private waiting: { count: number; resolve: () => void } | undefined;

  constructor(
    kafka: Kafka,
    private readonly topic: string,
  ) {
    this.consumer = kafka.consumer({ groupId: `bench-${randomUUID()}`, maxWaitTimeInMs: 100 });
  }

  /** Connects, joins, and waits for the first record (the time to first record). */
  async start(): Promise<void> {
    const t0 = performance.now();
    const first = new Promise<void>((resolve) => (this.waiting = { count: 1, resolve }));
    await this.consumer.connect();
    await this.consumer.subscribe({ topic: this.topic, fromBeginning: true });
    await this.consumer.run({
      eachBatch: async ({ batch }) => {
        this.received += batch.messages.length;
        if (this.waiting && this.received >= this.waiting.count) this.waiting.resolve();
      },
    });
    await first;
    this.firstRecordMs = performance.now() - t0;
  }

  /**
   * Milliseconds from resuming to having received `total` records in all, then pauses. (The first
   * round runs unpaused from the first record on: it is timed from there.)
   */
  async readRound(total: number): Promise<number> {
    const t0 = performance.now();
    const done = new Promise<void>((resolve) => (this.waiting = { count: total, resolve }));
    this.consumer.resume([{ topic: this.topic }]);
    if (this.received < total) await done;
    const ms = performance.now() - t0;
    this.consumer.pause([{ topic: this.topic }]);
    check(this.received === total, `${total} records from the consumer, got ${this.received}`);
    return ms;
  }

  stop(): Promise<void> {
    return this.consumer.disconnect();
  }
}

const cluster = await startKafkaMockCluster();
try {
  const brokers = cluster.bootstrapServers.split(',');
  const topic = `sources-${randomUUID().slice(0, 8)}`;
  const kafka = new Kafka({ brokers, logLevel: logLevel.NOTHING });
  const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
  await producer.connect();
  await produceRound(producer, topic);

  const sourceTtfr = await sourceFirstRecord(cluster.bootstrapServers, topic);
  const source = newSource(cluster.bootstrapServers, topic);
  const consumer = new CountingConsumer(kafka, topic);
  await consumer.start();

  let sourceMs = 0;
  let consumerMs = 0;
  let sourceEnd: Offset | undefined;
  for (let round = 1; round <= ROUNDS; round++) {
    if (round > 1) await produceRound(producer, topic);
    const t0 = performance.now();
    const next = await source.latestOffset(sourceEnd);
    const rows = await source.getBatch(sourceEnd, next!);
    sourceMs += performance.now() - t0;
    check(rows.length === RECORDS_PER_ROUND, `${RECORDS_PER_ROUND} rows from the source`);
    sourceEnd = next;
    consumerMs += await consumer.readRound(round * RECORDS_PER_ROUND);
  }
  await Promise.all([source.stop(), consumer.stop(), producer.disconnect()]);
  await closeKafkaConnections();

  const sourceRps = TOTAL / (sourceMs / 1000);
  const consumerRps = TOTAL / (consumerMs / 1000);
  console.log(
    `Kafka mock cluster (3 brokers, loopback): ${TOTAL} records of ${VALUE.length} bytes on ${PARTITIONS} partitions, read in ${ROUNDS} rounds`,
  );
  const line = (name: string, ms: number, ttfr: number) =>
    console.log(
      `${name.padEnd(34)} ${Math.round(TOTAL / (ms / 1000))
        .toString()
        .padStart(9)} records/s ${((TOTAL * VALUE.length) / (ms / 1000) / 1e6)
        .toFixed(1)
        .padStart(6)} MB/s (${(ms / 1000).toFixed(2)} s)   first record ${ttfr.toFixed(1)} ms`,
    );
  line('Kafka source (plan + getBatch)', sourceMs, sourceTtfr);
  line('kafkajs consumer (eachBatch)', consumerMs, consumer.firstRecordMs);
  console.log(`source / consumer throughput: ${(sourceRps / consumerRps).toFixed(2)}x`);
  console.log(
    JSON.stringify({
      source_rps: Math.round(sourceRps),
      consumer_rps: Math.round(consumerRps),
      source_vs_consumer: Math.round((sourceRps / consumerRps) * 100) / 100,
      source_ttfr_ms: round(sourceTtfr),
      consumer_ttfr_ms: round(consumer.firstRecordMs),
    }),
  );
} finally {
  await cluster.stop();
}

/** Produces one round: RECORDS_PER_ROUND records spread evenly over the partitions. */
async function produceRound(producer: Producer, topic: string): Promise<void> {
  for (let sent = 0; sent < RECORDS_PER_ROUND; sent += SEND_SIZE) {
    await producer.send({
      topic,
      messages: Array.from({ length: SEND_SIZE }, (_, i) => ({
        partition: i % PARTITIONS,
        value: VALUE,
      })),
    });
  }
}

/** A Kafka source of `topic` from its earliest offsets, with no admission limit. */
function newSource(brokers: string, topic: string, options: [string, number][] = []): KafkaSource {
  const raw = new Map<string, string | number>([
    ['kafka.bootstrap.servers', brokers],
    ['subscribe', topic],
    ['startingoffsets', 'earliest'],
    ...options,
  ]);
  return new KafkaSource(kafkaOptions(raw, 'stream'), { metadataStore: new MemoryObjectStore() });
}

/** Milliseconds from nothing (no connection) to the source's first batch of one record. */
async function sourceFirstRecord(brokers: string, topic: string): Promise<number> {
  await closeKafkaConnections();
  const t0 = performance.now();
  const source = newSource(brokers, topic, [['maxoffsetspertrigger', 1]]);
  const end = await source.latestOffset(undefined);
  const rows = await source.getBatch(undefined, end!);
  const ms = performance.now() - t0;
  check(rows.length === 1, 'one row');
  await source.stop();
  return ms;
}

function check(ok: boolean, what: string): void {
  if (!ok) {
    console.error(`wrong result: expected ${what}`);
    process.exit(1);
  }
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
