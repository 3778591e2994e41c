import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { KafkajsPartitionReader } from '../../core/kafka/kafkajs-partition-reader.js';
import type { KafkaRecord } from '../../core/kafka/kafka-partition-reader.js';
import { produce } from '../support/kafka-producer.js';
import { uniqueName } from '../support/unique-name.js';

const topic = uniqueName('reader');
const reader = new KafkajsPartitionReader({
  brokers: inject('kafkaBootstrapServers').split(','),
});

/** kafkajs's internal Broker class, whose prototype every broker connection shares. */
const Broker = createRequire(import.meta.url)('kafkajs/src/broker/index.js') as {
  prototype: Record<string, (...args: unknown[]) => unknown>;
};

const values = (records: KafkaRecord[]) => records.map((r) => Buffer.from(r.value!).toString());

beforeAll(async () => {
  // three sends: each partition gets three record batches of 10 (offsets 0-9, 10-19, 20-29)
  for (let send = 0; send < 3; send++) {
    await produce(
      topic,
      [0, 1, 2, 3].flatMap((partition) =>
        Array.from({ length: 10 }, (_, i) => ({
          partition,
          key: `k${send * 10 + i}`,
          value: `p${partition}-${send * 10 + i}`,
        })),
      ),
    );
  }
});

afterAll(() => reader.close());

describe('the kafkajs partition reader on the mock cluster', () => {
  it('lists topics and partitions without creating topics it is asked about', async () => {
    expect(await reader.listTopics()).toContain(topic);
    expect(await reader.partitions([topic])).toEqual(
      [0, 1, 2, 3].map((partition) => ({ topic, partition })),
    );
    const missing = uniqueName('missing');
    expect(await reader.partitions([missing])).toEqual([]);
    expect(await reader.listTopics()).not.toContain(missing);
  });

  it('tells the earliest and latest offset of each partition', async () => {
    const partitions = await reader.partitions([topic]);
    expect(await reader.offsetBounds(partitions)).toEqual(
      partitions.map(() => ({ earliest: 0, latest: 30 })),
    );
  });

  it('reads exactly [start, end) of each partition, across record batches, without a consumer group', async () => {
    const joinGroup = vi.spyOn(Broker.prototype, 'joinGroup');
    const findCoordinator = vi.spyOn(Broker.prototype, 'findGroupCoordinator');
    const fetch = vi.spyOn(Broker.prototype, 'fetch');
    try {
      for (const partition of [0, 1, 2, 3]) {
        const read = await reader.readRange({ topic, partition }, 5, 17);
        expect(read.kind).toBe('records');
        const records = (read as { records: KafkaRecord[] }).records;
        expect(records.map((r) => r.offset)).toEqual(Array.from({ length: 12 }, (_, i) => 5 + i));
        expect(values(records)).toEqual(
          Array.from({ length: 12 }, (_, i) => `p${partition}-${5 + i}`),
        );
        expect(Buffer.from(records[0].key!).toString()).toBe('k5');
      }
      expect(fetch).toHaveBeenCalled();
      expect(joinGroup).not.toHaveBeenCalled();
      expect(findCoordinator).not.toHaveBeenCalled();
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('reads a whole partition and an empty range', async () => {
    const all = await reader.readRange({ topic, partition: 2 }, 0, 30);
    expect(all.kind === 'records' && all.records.length).toBe(30);
    expect(await reader.readRange({ topic, partition: 2 }, 7, 7)).toEqual({
      kind: 'records',
      records: [],
    });
  });

  it('answers unavailable, with what the partition holds, for offsets beyond its end', async () => {
    expect(await reader.readRange({ topic, partition: 1 }, 25, 40)).toEqual({
      kind: 'unavailable',
      earliest: 0,
      latest: 30,
    });
    expect(await reader.readRange({ topic, partition: 1 }, 35, 40)).toEqual({
      kind: 'unavailable',
      earliest: 0,
      latest: 30,
    });
  });

  it('returns keys, headers (repeated keys in order), timestamps and their type', async () => {
    const other = uniqueName('headers');
    await produce(other, [
      {
        partition: 0,
        key: null,
        value: 'a',
        headers: { trace: 't1', tag: ['x', 'y'] },
        timestamp: 1_700_000_000_123,
      },
      { partition: 0, key: 'k', value: null, timestamp: 1_700_000_000_456 },
    ]);
    const read = await reader.readRange({ topic: other, partition: 0 }, 0, 2);
    expect(read.kind).toBe('records');
    const [first, second] = (read as { records: KafkaRecord[] }).records;
    expect(first.key).toBeNull();
    expect(first.headers.map((h) => [h.key, Buffer.from(h.value!).toString()])).toEqual([
      ['trace', 't1'],
      ['tag', 'x'],
      ['tag', 'y'],
    ]);
    expect(first.timestampMs).toBe(1_700_000_000_123);
    expect(first.timestampType).toBe(0);
    expect(second.value).toBeNull();
    expect(second.headers).toEqual([]);
  });

  it('finds no offset for a timestamp later than every record', async () => {
    const partitions = await reader.partitions([topic]);
    const future = Date.now() + 3_600_000;
    expect(
      await reader.offsetsForTimestamps(
        partitions.map((partition) => ({ partition, timestampMs: future })),
      ),
    ).toEqual([null, null, null, null]);
  });

  it('connects again after close', async () => {
    const own = new KafkajsPartitionReader({ brokers: inject('kafkaBootstrapServers').split(',') });
    expect(await own.partitions([topic])).toHaveLength(4);
    await own.close();
    expect(await own.partitions([topic])).toHaveLength(4);
    await own.close();
  });

  it('fails with a retriable SourceError naming the brokers when none answers', async () => {
    const nowhere = new KafkajsPartitionReader({ brokers: ['127.0.0.1:1'] });
    await expect(nowhere.listTopics()).rejects.toMatchObject({
      name: 'SourceError',
      retriable: true,
      message: expect.stringContaining('Kafka (127.0.0.1:1): could not connect'),
    });
  });
});
