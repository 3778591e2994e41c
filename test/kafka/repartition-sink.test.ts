/**
 * Stage 1's RepartitionSink on the mock cluster: rows as records of the row binary codec, every key
 * in one partition, stamped with (query, stage, shard, shards, batch, seq); after each batch's rows
 * a watermark marker in every partition; and a batch run again writes the same stamps.
 */
import { afterAll, describe, expect, inject, it } from 'vitest';
import { SluiceSession } from '../../core/index.js';
import { KafkajsRecordWriter } from '../../core/kafka/kafkajs-record-writer.js';
import { kafkajsReader } from '../../core/kafka/kafkajs-partition-reader.js';
import { closeKafkaConnections } from '../../core/kafka/kafka-connection-pool.js';
import { PLAINTEXT } from '../../core/kafka/kafka-security.js';
import { decodeRow } from '../../core/io/row-binary-codec.js';
import { readStamp } from '../../core/kafka/repartition-records.js';
import { keyPartition, RepartitionSink } from '../../core/kafka/repartition-sink.js';
import type { StructType } from '../../core/types/data-types.js';
import { tempDir } from '../support/temp-dir.js';
import { uniqueName } from '../support/unique-name.js';

const SERVERS = () => inject('kafkaBootstrapServers').split(',');
afterAll(() => closeKafkaConnections());

/** Every record of `topic`'s 4 partitions, decoded as far as the stamp and the text of markers. */
async function readTopic(topic: string, schema: StructType) {
  const reader = kafkajsReader({
    bootstrapServers: SERVERS(),
    security: PLAINTEXT,
    isolationLevel: 'read_committed',
  });
  const tps = await reader.partitions([topic]);
  const bounds = await reader.offsetBounds(tps);
  const out = [];
  for (const [i, tp] of tps.entries()) {
    const read = await reader.readRange(tp, 0, bounds[i].latest);
    if (read.kind !== 'records') throw new Error(`${topic}-${tp.partition} lost records`);
    for (const r of read.records) {
      const stamp = readStamp(r.headers, `${topic}-${tp.partition}@${r.offset}`);
      out.push({
        partition: tp.partition,
        stamp,
        key: r.key,
        value: stamp.marker
          ? r.value && Buffer.from(r.value).toString()
          : decodeRow(r.value!, schema),
      });
    }
  }
  await reader.close();
  return out;
}

function writer() {
  return new KafkajsRecordWriter({ brokers: SERVERS(), maxRequestBytes: 1 << 20 });
}

describe('the repartition sink', () => {
  it('writes each key to one partition, stamped, and then a marker with the batch’s largest event time to every partition', async () => {
    const topic = uniqueName('repartition');
    const session = new SluiceSession();
    const input = session.memoryStream('ts TIMESTAMP, category STRING');
    const df = session.readStream.memory(input).withWatermark('ts', '1 minute');
    const shard = { stage: 1, shard: 1, shards: 2 };
    const sink = new RepartitionSink(
      { topic, partitions: 4, keyColumns: ['category'], shard },
      writer(),
    );
    const query = await df.writeStream.sink(sink).option('checkpointLocation', tempDir()).start();
    const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 10, minute));
    input.addData([
      { ts: at(1), category: 'books' },
      { ts: at(3), category: 'games' },
      { ts: at(2), category: 'books' },
    ]);
    await query.processAllAvailable();
    input.addData([{ ts: at(5), category: 'music' }]);
    await query.processAllAvailable();
    await query.stop();

    const records = await readTopic(topic, df.schema);
    const rows = records.filter((r) => !r.stamp.marker);
    expect(
      rows.map((r) => [r.stamp.batchId, r.stamp.seq, (r.value as unknown[])[1]]).sort(),
    ).toEqual([
      [0, 0, 'books'],
      [0, 1, 'games'],
      [0, 2, 'books'],
      [1, 0, 'music'],
    ]);
    for (const r of rows) {
      expect(r.stamp).toMatchObject({ queryId: query.id, stage: 1, shard: 1, shards: 2 });
      expect(r.partition).toBe(keyPartition(r.key!, 4));
    }
    const books = rows.filter((r) => (r.value as unknown[])[1] === 'books');
    expect(new Set(books.map((r) => r.partition)).size).toBe(1);

    const markers = records.filter((r) => r.stamp.marker);
    const micros = (d: Date) => String(d.getTime() * 1000);
    expect(markers.map((m) => [m.partition, m.stamp.batchId, m.stamp.seq, m.value]).sort()).toEqual(
      [
        [0, 0, 3, micros(at(3))],
        [0, 1, 1, micros(at(5))],
        [1, 0, 4, micros(at(3))],
        [1, 1, 2, micros(at(5))],
        [2, 0, 5, micros(at(3))],
        [2, 1, 3, micros(at(5))],
        [3, 0, 6, micros(at(3))],
        [3, 1, 4, micros(at(5))],
      ],
    );
    // in each partition, a batch's marker comes after all of the batch's rows
    for (const m of markers) {
      const before = records.slice(0, records.indexOf(m));
      const after = records.slice(records.indexOf(m) + 1);
      const sameBatch = (r: (typeof records)[number]) =>
        r.partition === m.partition && !r.stamp.marker && r.stamp.batchId === m.stamp.batchId;
      expect(after.filter(sameBatch)).toEqual([]);
      expect(before.filter(sameBatch).length).toBe(
        rows.filter((r) => r.partition === m.partition && r.stamp.batchId === m.stamp.batchId)
          .length,
      );
    }
  });

  it('writes a batch run again after a crash with the same stamps as its first attempt', async () => {
    const topic = uniqueName('repartition-rerun');
    const checkpoint = tempDir();
    const session = new SluiceSession();
    const input = session.memoryStream('category STRING, n INT');
    const df = session.readStream.memory(input);
    const options = {
      topic,
      partitions: 4,
      keyColumns: ['category'],
      shard: { stage: 1, shard: 0, shards: 1 },
    };
    const first = await df.writeStream
      .sink(new RepartitionSink(options, writer()))
      .option('checkpointLocation', checkpoint)
      .afterStep((step) => {
        if (step === 'sink') throw new Error('died after sink');
      })
      .start();
    input.addData([
      { category: 'a', n: 1 },
      { category: 'b', n: 2 },
    ]);
    await expect(first.processAllAvailable()).rejects.toThrow('died after sink');
    const again = await df.writeStream
      .sink(new RepartitionSink(options, writer()))
      .option('checkpointLocation', checkpoint)
      .start();
    await again.processAllAvailable();
    await again.stop();

    const records = await readTopic(topic, df.schema);
    const stamps = (attempt: number) =>
      [0, 1, 2, 3].flatMap((p) => {
        const inPartition = records.filter((r) => r.partition === p);
        const half = inPartition.length / 2;
        return inPartition
          .slice(attempt * half, (attempt + 1) * half)
          .map((r) => JSON.stringify([r.stamp, r.value]));
      });
    expect(records).toHaveLength(2 * (2 + 4));
    expect(stamps(1)).toEqual(stamps(0));
  });

  it("spreads keys that differ only in their bytes' high bits over every partition", () => {
    // without a final mix, FNV-1a mod 4 sees only the low 2 bits of each byte: all 64 in one
    const keys = Array.from({ length: 64 }, (_, k) => Uint8Array.of(k * 4));
    const perPartition = [0, 1, 2, 3].map(
      (p) => keys.filter((key) => keyPartition(key, 4) === p).length,
    );
    expect(Math.min(...perPartition)).toBeGreaterThanOrEqual(8);
  });
});
