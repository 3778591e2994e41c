/** Bounded reads of Kafka topics (`session.read.format('kafka')`) on the mock cluster. */
import { beforeAll, describe, expect, inject, it } from 'vitest';
import {
  InvalidOptionError,
  SluiceSession,
  SourceError,
  Timestamp,
  type DataFrameReader,
  type RowObject,
} from '../../core/index.js';
import { produce, produceToAllPartitions } from '../support/kafka-producer.js';
import { uniqueName } from '../support/unique-name.js';

const topic = uniqueName('table');

function reader(options: Record<string, string> = {}): DataFrameReader {
  return new SluiceSession().read
    .format('kafka')
    .option('kafka.bootstrap.servers', inject('kafkaBootstrapServers'))
    .option('subscribe', topic)
    .optionsFrom(options);
}

const records = (rows: RowObject[]) =>
  rows.map(
    (r) =>
      `${String(r.partition)}@${String(r.offset)}=${Buffer.from(r.value as Uint8Array).toString()}`,
  );

beforeAll(() => produceToAllPartitions(topic, 5));

describe('a bounded read of Kafka', () => {
  it('reads every record from earliest to latest, partition by partition', async () => {
    const rows = await reader().load().collect();
    expect(records(rows)).toEqual(
      [0, 1, 2, 3].flatMap((p) => [0, 1, 2, 3, 4].map((o) => `${p}@${o}=p${p}-${o}`)),
    );
    expect(rows[0]).toMatchObject({ topic, partition: 0, offset: 0, timestampType: 0, key: null });
    expect(rows[0].timestamp).toBeInstanceOf(Timestamp);
  });

  it('reads exactly [startingOffsets, endingOffsets) of each partition', async () => {
    const rows = await reader({
      startingOffsets: JSON.stringify({ [topic]: { 0: 1, 1: -2, 2: 4, 3: 0 } }),
      endingOffsets: JSON.stringify({ [topic]: { 0: 3, 1: 1, 2: -1, 3: 0 } }),
    })
      .load()
      .collect();
    expect(records(rows)).toEqual(['0@1=p0-1', '0@2=p0-2', '1@0=p1-0', '2@4=p2-4']);
  });

  it('resolves latest each time the DataFrame runs', async () => {
    const own = uniqueName('growing');
    await produce(own, [{ partition: 0, value: 'a' }]);
    const df = new SluiceSession().read
      .format('kafka')
      .option('kafka.bootstrap.servers', inject('kafkaBootstrapServers'))
      .option('subscribe', own)
      .load();
    expect(await df.count()).toBe(1);
    await produce(own, [{ partition: 3, value: 'b' }]);
    expect(await df.count()).toBe(2);
  });

  it('reads only assigned partitions, and refuses partitions that do not exist', async () => {
    const assigned = new SluiceSession().read
      .format('kafka')
      .option('kafka.bootstrap.servers', inject('kafkaBootstrapServers'))
      .option('assign', JSON.stringify({ [topic]: [1, 3] }));
    expect(records(await assigned.load().collect())).toEqual(
      [1, 3].flatMap((p) => [0, 1, 2, 3, 4].map((o) => `${p}@${o}=p${p}-${o}`)),
    );
    const missing = new SluiceSession().read
      .format('kafka')
      .option('kafka.bootstrap.servers', inject('kafkaBootstrapServers'))
      .option('assign', JSON.stringify({ [topic]: [7] }));
    await expect(missing.load().collect()).rejects.toThrow(
      `assigned partitions ${topic}-7 do not exist`,
    );
  });

  it('starts at a timestamp: no record that recent fails by default, or starts at latest', async () => {
    const future = String(Date.now() + 3_600_000);
    await expect(reader({ startingTimestamp: future }).load().collect()).rejects.toThrow(
      SourceError,
    );
    expect(
      await reader({ startingTimestamp: future, startingOffsetsByTimestampStrategy: 'latest' })
        .load()
        .count(),
    ).toBe(0);
    // an ending timestamp no record reaches means latest
    expect(await reader({ endingTimestamp: future }).load().count()).toBe(20);
  });

  it('refuses a path, a schema, and a range that runs backwards', async () => {
    expect(() => reader().load('some/path')).toThrow(InvalidOptionError);
    expect(() => reader().schema('a INT').load()).toThrow('The Kafka source has a fixed schema');
    expect(() => new SluiceSession().read.format('kafak')).toThrow("Unknown file format 'kafak'");
    const backwards = reader({
      startingOffsets: JSON.stringify({ [topic]: { 0: 4, 1: 0, 2: 0, 3: 0 } }),
      endingOffsets: JSON.stringify({ [topic]: { 0: 2, 1: 0, 2: 0, 3: 0 } }),
    }).load();
    await expect(backwards.collect()).rejects.toThrow(
      `${topic}-0 would be read from offset 4 to 2`,
    );
  });
});
