/** The Kafka source on the mock cluster: a planned range reads the same rows every time. */
import { describe, expect, inject, it } from 'vitest';
import { MemoryObjectStore } from '../../core/checkpoint/memory-object-store.js';
import { closeKafkaConnections } from '../../core/kafka/kafka-connection-pool.js';
import { kafkaOptions } from '../../core/kafka/kafka-options.js';
import { KafkaSource } from '../../core/kafka/kafka-source.js';
import type { Row } from '../../core/types/row.js';
import { produceToAllPartitions } from '../support/kafka-producer.js';
import { uniqueName } from '../support/unique-name.js';

function source(topic: string, store: MemoryObjectStore): KafkaSource {
  const options = kafkaOptions(
    new Map<string, string | number>([
      ['kafka.bootstrap.servers', inject('kafkaBootstrapServers')],
      ['subscribe', topic],
      ['startingoffsets', 'earliest'],
      ['maxoffsetspertrigger', 10],
    ]),
    'stream',
  );
  return new KafkaSource(options, { metadataStore: store });
}

/** Partition, offset and value of each row. */
const described = (rows: Row[]) =>
  rows.map((r) => `${String(r[3])}@${String(r[4])}=${Buffer.from(r[1] as Uint8Array).toString()}`);

describe('the Kafka source on the mock cluster', () => {
  it('reads exactly the planned range of every partition, again and again, also from a new connection', async () => {
    const topic = uniqueName('replay');
    const store = new MemoryObjectStore();
    await produceToAllPartitions(topic, 6);
    const first = source(topic, store);
    const end0 = await first.latestOffset(undefined);
    expect(end0).toEqual({ [topic]: { 0: 3, 1: 3, 2: 2, 3: 2 } });
    const end1 = await first.latestOffset(end0);
    // lags 3, 3, 4, 4: the partitions behind get more, so all end level
    expect(end1).toEqual({ [topic]: { 0: 5, 1: 5, 2: 5, 3: 5 } });
    const rows = await first.getBatch(end0, end1);
    expect(described(rows)).toEqual([
      '0@3=p0-3',
      '0@4=p0-4',
      '1@3=p1-3',
      '1@4=p1-4',
      '2@2=p2-2',
      '2@3=p2-3',
      '2@4=p2-4',
      '3@2=p3-2',
      '3@3=p3-3',
      '3@4=p3-4',
    ]);
    await produceToAllPartitions(topic, 3); // more records after the range: not read
    expect(await first.getBatch(end0, end1)).toEqual(rows);
    await first.stop();
    await closeKafkaConnections(); // as in a new process: the next source connects anew

    const restarted = source(topic, store); // a new process on the same checkpoint
    expect(await restarted.getBatch(end0, end1)).toEqual(rows);
    expect(described(await restarted.getBatch(undefined, end0))).toEqual([
      '0@0=p0-0',
      '0@1=p0-1',
      '0@2=p0-2',
      '1@0=p1-0',
      '1@1=p1-1',
      '1@2=p1-2',
      '2@0=p2-0',
      '2@1=p2-1',
      '3@0=p3-0',
      '3@1=p3-1',
    ]);
    await restarted.stop();
  });
});
