/**
 * The Kafka source's planning and reading, over an in-memory reader: where batches start and end,
 * what is remembered across restarts, and what happens when partitions appear, vanish or lose data.
 */
import { describe, expect, it } from 'vitest';
import { MemoryObjectStore } from '../../core/checkpoint/memory-object-store.js';
import { CheckpointError, InvalidOptionError, SourceError } from '../../core/errors.js';
import { kafkaOptions } from '../../core/kafka/kafka-options.js';
import { KafkaSource } from '../../core/kafka/kafka-source.js';
import type { Offset } from '../../core/sources/source.js';
import type { Row } from '../../core/types/row.js';
import { MemoryKafkaReader } from '../support/memory-kafka-reader.js';

/** A source over `reader` with these options (plus the brokers and, without a pattern, subscribe=clicks), on `store`. */
function source(
  reader: MemoryKafkaReader,
  options: Record<string, string | number> = {},
  store = new MemoryObjectStore(),
): KafkaSource {
  const raw = new Map<string, string | number>([['kafka.bootstrap.servers', 'unused:9092']]);
  if (!('subscribePattern' in options)) raw.set('subscribe', 'clicks');
  for (const [k, v] of Object.entries(options)) raw.set(k.toLowerCase(), v);
  return new KafkaSource(kafkaOptions(raw, 'stream'), { metadataStore: store }, () => reader);
}

/** The values of rows, as text. */
const values = (rows: Row[]) => rows.map((r) => Buffer.from(r[1] as Uint8Array).toString());

/** Plans and reads one batch after `start`; returns its end and rows. */
async function batch(s: KafkaSource, start: Offset | undefined) {
  const end = await s.latestOffset(start);
  return { end, rows: end === start ? [] : await s.getBatch(start, end) };
}

describe('the Kafka source', () => {
  it('starts at earliest: the first batch reads everything, in topic-partition then offset order', async () => {
    const reader = new MemoryKafkaReader();
    reader.createTopic('clicks', 2);
    reader.append('clicks', 1, 2);
    reader.append('clicks', 0, 3);
    const s = source(reader, { startingOffsets: 'earliest' });
    const { end, rows } = await batch(s, undefined);
    expect(end).toEqual({ clicks: { 0: 3, 1: 2 } });
    expect(values(rows)).toEqual([
      'clicks-0-0',
      'clicks-0-1',
      'clicks-0-2',
      'clicks-1-0',
      'clicks-1-1',
    ]);
    expect(rows[0].slice(2, 5)).toEqual(['clicks', 0, 0]);
    // the same range again: the same rows
    expect(await s.getBatch(undefined, end)).toEqual(rows);
    // nothing new: the end is the start itself
    expect(await s.latestOffset(end)).toBe(end);
  });

  it('starts at latest by default, and remembers that start across a restart before its first batch', async () => {
    const reader = new MemoryKafkaReader();
    reader.createTopic('clicks', 2);
    reader.append('clicks', 0, 5);
    const store = new MemoryObjectStore();
    expect(await source(reader, {}, store).latestOffset(undefined)).toBeUndefined();
    reader.append('clicks', 0, 2); // arrives while no query runs (e.g. between two invocations)
    const restarted = source(reader, {}, store);
    const { end, rows } = await batch(restarted, undefined);
    expect(end).toEqual({ clicks: { 0: 7, 1: 0 } });
    expect(values(rows)).toEqual(['clicks-0-5', 'clicks-0-6']);
  });

  it('starts at per-partition offsets, -2 meaning earliest and -1 latest', async () => {
    const reader = new MemoryKafkaReader();
    reader.createTopic('clicks', 3);
    for (const p of [0, 1, 2]) reader.append('clicks', p, 4);
    reader.deleteBefore('clicks', 1, 1);
    const s = source(reader, { startingOffsets: '{"clicks":{"0":2,"1":-2,"2":-1}}' });
    const { rows } = await batch(s, undefined);
    expect(values(rows)).toEqual([
      'clicks-0-2',
      'clicks-0-3',
      'clicks-1-1',
      'clicks-1-2',
      'clicks-1-3',
    ]);
  });

  it('refuses per-partition starting offsets that leave out a partition it reads', async () => {
    const reader = new MemoryKafkaReader();
    reader.createTopic('clicks', 2);
    const s = source(reader, { startingOffsets: '{"clicks":{"0":0}}' });
    await expect(s.latestOffset(undefined)).rejects.toThrow(InvalidOptionError);
    await expect(s.latestOffset(undefined)).rejects.toThrow('it leaves out clicks-1');
  });

  it('starts at a timestamp, failing or starting at latest where no record is that recent', async () => {
    const reader = new MemoryKafkaReader();
    reader.createTopic('clicks', 2);
    reader.append('clicks', 0, 10, 1_000); // timestamps 1000..1009
    reader.append('clicks', 1, 3, 500); // 500..502: none at or after 1005
    const failing = source(reader, { startingTimestamp: 1_005 });
    await expect(failing.latestOffset(undefined)).rejects.toThrow(SourceError);
    await expect(failing.latestOffset(undefined)).rejects.toThrow(
      'clicks-1 has no record at or after timestamp 1005',
    );
    const s = source(reader, {
      startingOffsetsByTimestamp: '{"clicks":{"0":1005,"1":1005}}',
      startingOffsetsByTimestampStrategy: 'latest',
    });
    reader.append('clicks', 1, 1, 2_000);
    const { rows } = await batch(s, undefined);
    expect(values(rows)).toEqual([5, 6, 7, 8, 9].map((o) => `clicks-0-${o}`).concat('clicks-1-3'));
  });

  it('admits at most maxOffsetsPerTrigger offsets per batch, split by lag, until it caught up', async () => {
    const reader = new MemoryKafkaReader();
    reader.createTopic('clicks', 4);
    reader.append('clicks', 0, 100);
    reader.append('clicks', 1, 10);
    reader.append('clicks', 3, 1);
    const s = source(reader, { startingOffsets: 'earliest', maxOffsetsPerTrigger: 20 });
    const first = await batch(s, undefined);
    // each lagging partition gets one, the other 17 go by lag: 99 and 9 of 108
    expect(first.end).toEqual({ clicks: { 0: 17, 1: 2, 2: 0, 3: 1 } });
    expect(first.rows).toHaveLength(20);
    let start = first.end;
    let total = first.rows.length;
    let batches = 1;
    for (;;) {
      const next = await batch(s, start);
      if (next.end === start) break;
      expect(next.rows.length).toBeLessThanOrEqual(20);
      total += next.rows.length;
      batches++;
      start = next.end;
    }
    expect(total).toBe(111);
    expect(batches).toBe(6);
  });

  it('reads partitions added to a topic between batches from their first offset', async () => {
    const reader = new MemoryKafkaReader();
    reader.createTopic('clicks', 1);
    reader.append('clicks', 0, 1);
    const s = source(reader, { startingOffsets: 'earliest' });
    const first = await batch(s, undefined);
    reader.createTopic('clicks', 3); // partitions 1 and 2 are new
    reader.append('clicks', 2, 2);
    reader.append('clicks', 0, 1);
    const second = await batch(s, first.end);
    expect(second.end).toEqual({ clicks: { 0: 2, 1: 0, 2: 2 } });
    expect(values(second.rows)).toEqual(['clicks-0-1', 'clicks-2-0', 'clicks-2-1']);
  });

  it('fails on offsets retention deleted, naming topic, partition, wanted and available offsets', async () => {
    const reader = new MemoryKafkaReader();
    reader.createTopic('clicks', 1);
    reader.append('clicks', 0, 10);
    const s = source(reader, { startingOffsets: 'earliest' });
    const end = await s.latestOffset(undefined);
    reader.deleteBefore('clicks', 0, 4); // before the batch reads
    const error = await s.getBatch(undefined, end).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceError);
    expect((error as Error).message).toContain(
      'KafkaSource[clicks]: data loss: clicks-0: the batch needs offsets [0, 10), but the partition now holds [4, 10): retention deleted records',
    );
    expect((error as Error).message).toContain('failOnDataLoss=false');
  });

  it('skips and counts lost offsets with failOnDataLoss=false, also when planning finds them', async () => {
    const reader = new MemoryKafkaReader();
    reader.createTopic('clicks', 2);
    reader.append('clicks', 0, 10);
    reader.append('clicks', 1, 2);
    const s = source(reader, { startingOffsets: 'earliest', failOnDataLoss: 'false' });
    const end = await s.latestOffset(undefined);
    reader.deleteBefore('clicks', 0, 4);
    expect(values(await s.getBatch(undefined, end))).toHaveLength(8);
    expect(s.metrics(undefined, end)).toMatchObject({ lostOffsets: 4 });
    expect(s.metrics(end, end)).toMatchObject({ lostOffsets: 0 }); // another range: nothing read, nothing lost

    reader.append('clicks', 0, 10);
    reader.deleteBefore('clicks', 0, 15); // the next batch's start is gone before it is planned
    const s2 = source(reader, {
      startingOffsets: 'earliest',
      failOnDataLoss: 'false',
      maxOffsetsPerTrigger: 3,
    });
    const next = await s2.latestOffset(end);
    // the allowance is spent on offsets that exist: 15, 16, 17 (lost 10..14 do not count)
    expect(next).toEqual({ clicks: { 0: 18, 1: 2 } });
    expect(values(await s2.getBatch(end, next))).toEqual([
      'clicks-0-15',
      'clicks-0-16',
      'clicks-0-17',
    ]);
    expect(s2.metrics(end, next)).toMatchObject({ lostOffsets: 5 });
  });

  it('treats a vanished partition and offsets that went back as data loss', async () => {
    const reader = new MemoryKafkaReader();
    reader.createTopic('clicks', 2);
    reader.append('clicks', 0, 5);
    reader.append('clicks', 1, 5);
    const strict = source(reader, { startingOffsets: 'earliest' });
    const end = await strict.latestOffset(undefined);
    reader.truncate('clicks', 1);
    reader.append('clicks', 1, 2);
    await expect(strict.latestOffset(end)).rejects.toThrow(
      'clicks-1 was read up to offset 5, but now ends at offset 2',
    );
    const lenient = source(reader, { startingOffsets: 'earliest', failOnDataLoss: 'false' });
    expect(await lenient.latestOffset(end)).toEqual({ clicks: { 0: 5, 1: 2 } });

    reader.deleteTopic('clicks');
    reader.createTopic('clicks', 1);
    reader.append('clicks', 0, 5);
    await expect(strict.latestOffset(end)).rejects.toThrow(
      'partition clicks-1, read up to offset 5, no longer exists',
    );
    expect(await lenient.latestOffset(end)).toEqual({ clicks: { 0: 5 } });
  });

  it('follows a pattern: topics created later join from their first offset', async () => {
    const reader = new MemoryKafkaReader();
    reader.createTopic('clicks-a', 1);
    reader.createTopic('views', 1);
    reader.append('clicks-a', 0, 1);
    reader.append('views', 0, 1);
    const s = source(reader, { subscribePattern: 'clicks-.*', startingOffsets: 'latest' });
    const first = await s.latestOffset(undefined);
    expect(first).toBeUndefined();
    reader.createTopic('clicks-b', 1);
    reader.append('clicks-b', 0, 2);
    const { end, rows } = await batch(s, undefined);
    expect(end).toEqual({ 'clicks-a': { 0: 1 }, 'clicks-b': { 0: 2 } });
    expect(values(rows)).toEqual(['clicks-b-0-0', 'clicks-b-0-1']);
  });

  it('refuses offsets that are not Kafka offsets per partition, as a damaged checkpoint', async () => {
    const reader = new MemoryKafkaReader();
    reader.createTopic('clicks', 1);
    const s = source(reader);
    await expect(s.latestOffset(17)).rejects.toThrow(CheckpointError);
    await expect(s.getBatch({ clicks: { 0: -3 } }, { clicks: { 0: 1 } })).rejects.toThrow(
      CheckpointError,
    );
  });

  it('needs a metadata store to record where it starts', () => {
    const options = kafkaOptions(
      new Map([
        ['kafka.bootstrap.servers', 'x:1'],
        ['subscribe', 'clicks'],
      ]),
      'stream',
    );
    expect(() => new KafkaSource(options, {})).toThrow(InvalidOptionError);
  });
});
