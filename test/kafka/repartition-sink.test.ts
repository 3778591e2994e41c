/**
 * Stage 1's RepartitionSink on the mock cluster: rows in pages of the row binary codec, every key
 * in one partition, each page stamped with (query, stage, shard, shards, batch, seq) and its rows'
 * event-time range; after each batch's pages a watermark marker in every partition; and a batch run
 * again writes the same stamps.
 */
import { afterAll, describe, expect, inject, it } from 'vitest';
import { SluiceSession } from '../../core/index.js';
import { KafkajsRecordWriter } from '../../core/kafka/kafkajs-record-writer.js';
import { kafkajsReader } from '../../core/kafka/kafkajs-partition-reader.js';
import { closeKafkaConnections } from '../../core/kafka/kafka-connection-pool.js';
import { PLAINTEXT } from '../../core/kafka/kafka-security.js';
import { decodeRowPage, encodeRow } from '../../core/io/row-binary-codec.js';
import { readEventTimes, readStamp } from '../../core/kafka/repartition-records.js';
import { keyPartition, RepartitionSink } from '../../core/kafka/repartition-sink.js';
import { parseSchema } from '../../core/types/type-names.js';
import type { StructType } from '../../core/types/data-types.js';
import { tempDir } from '../support/temp-dir.js';
import { uniqueName } from '../support/unique-name.js';

const SERVERS = () => inject('kafkaBootstrapServers').split(',');
afterAll(() => closeKafkaConnections());

/** Every record of `topic`'s 4 partitions: stamps, the rows of pages, the text of markers. */
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
      const where = `${topic}-${tp.partition}@${r.offset}`;
      const stamp = readStamp(r.headers, where);
      out.push({
        partition: tp.partition,
        stamp,
        key: r.key,
        rows: stamp.marker ? [] : decodeRowPage(r.value!, schema),
        eventTimes: readEventTimes(r.headers, where),
        marker: stamp.marker ? r.value && Buffer.from(r.value).toString() : undefined,
      });
    }
  }
  await reader.close();
  return out;
}

/** The repartition partition of a category key, of 4. */
function categoryPartition(category: string): number {
  return keyPartition(encodeRow([category], parseSchema('category STRING')), 4);
}

function writer() {
  return new KafkajsRecordWriter({ brokers: SERVERS(), maxRequestBytes: 1 << 20 });
}

describe('the repartition sink', () => {
  it('writes each key to one partition in pages, stamped, and then a marker with the batch’s largest event time to every partition', async () => {
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
    const batches = [
      [
        { ts: at(1), category: 'books' },
        { ts: at(3), category: 'games' },
        { ts: at(2), category: 'books' },
        { ts: at(0), category: 'music' },
        { ts: at(4), category: 'games' },
      ],
      [{ ts: at(5), category: 'music' }],
    ];
    for (const batch of batches) {
      input.addData(batch);
      await query.processAllAvailable();
    }
    await query.stop();

    const records = await readTopic(topic, df.schema);
    const micros = (d: Date) => d.getTime() * 1000;
    const pages = records.filter((r) => !r.stamp.marker);
    for (const [batchId, batch] of batches.entries()) {
      const ofBatch = pages
        .filter((p) => p.stamp.batchId === batchId)
        .sort((a, b) => a.stamp.seq - b.stamp.seq);
      // one page per partition that got rows, numbered from 0
      expect(ofBatch.map((p) => p.stamp.seq)).toEqual(ofBatch.map((_, i) => i));
      expect(new Set(ofBatch.map((p) => p.partition)).size).toBe(ofBatch.length);
      for (const p of ofBatch) {
        expect(p.stamp).toMatchObject({ queryId: query.id, stage: 1, shard: 1, shards: 2 });
        // every row of a page is of a key of its partition, in the batch's order
        const keyed = batch.filter((e) => categoryPartition(e.category) === p.partition);
        expect(p.rows).toEqual(keyed.map((e) => [micros(e.ts), e.category]));
        const times = keyed.map((e) => micros(e.ts));
        expect(p.eventTimes).toEqual({ least: Math.min(...times), largest: Math.max(...times) });
      }
      expect(ofBatch.flatMap((p) => p.rows)).toHaveLength(batch.length);
    }

    const markers = records.filter((r) => r.stamp.marker);
    const pagesIn = (batchId: number) => pages.filter((p) => p.stamp.batchId === batchId).length;
    expect(
      markers.map((m) => [m.partition, m.stamp.batchId, m.stamp.seq, m.marker]).sort(),
    ).toEqual(
      [0, 1, 2, 3]
        .flatMap((p) => [
          [p, 0, pagesIn(0) + p, String(micros(at(4)))],
          [p, 1, pagesIn(1) + p, String(micros(at(5)))],
        ])
        .sort(),
    );
    // in each partition, a batch's marker comes after all of the batch's pages
    for (const m of markers) {
      const after = records.slice(records.indexOf(m) + 1);
      expect(
        after.filter(
          (r) =>
            r.partition === m.partition && !r.stamp.marker && r.stamp.batchId === m.stamp.batchId,
        ),
      ).toEqual([]);
    }
  });

  it('closes a page when it reaches its size, and numbers the pages in the order they close', async () => {
    const topic = uniqueName('repartition-pages');
    const session = new SluiceSession();
    const input = session.memoryStream('category STRING, n INT');
    const df = session.readStream.memory(input);
    // a page's header is 5 bytes and a row of 'a' and a 3-digit n 5 more: a page of 14 closes at its second row
    const sink = new RepartitionSink(
      {
        topic,
        partitions: 1,
        keyColumns: ['category'],
        shard: { stage: 1, shard: 0, shards: 1 },
        pageBytes: 14,
      },
      writer(),
    );
    const query = await df.writeStream.sink(sink).option('checkpointLocation', tempDir()).start();
    input.addData(Array.from({ length: 5 }, (_, i) => ({ category: 'a', n: 100 + i })));
    await query.processAllAvailable();
    await query.stop();

    const records = await readTopic(topic, df.schema);
    expect(records.map((r) => [r.stamp.seq, r.stamp.marker, r.rows.map((row) => row[1])])).toEqual([
      [0, false, [100, 101]],
      [1, false, [102, 103]],
      [2, false, [104]],
      [3, true, []],
    ]);
    // no event-time column: no range header, and a marker without a value
    expect(records.map((r) => r.eventTimes)).toEqual([null, null, null, null]);
    expect(records[3].marker).toBeNull();
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
          .map((r) => JSON.stringify([r.stamp, r.rows]));
      });
    const pages = new Set(['a', 'b'].map(categoryPartition)).size;
    expect(records).toHaveLength(2 * (pages + 4));
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
