import { describe, expect, it } from 'vitest';
import { type FetchedRecord, selectRecords } from '../../core/kafka/kafkajs-fetched-records.js';

/** Records of one batch starting at `firstOffset`, as kafkajs decodes them. */
function recordBatch(
  firstOffset: number,
  values: (string | null)[],
  options: { lastOffsetDelta?: number; producerId?: string; inTransaction?: boolean } = {},
): FetchedRecord[] {
  const batchContext = {
    firstOffset: String(firstOffset),
    lastOffsetDelta: options.lastOffsetDelta ?? values.length - 1,
    producerId: options.producerId ?? '-1',
    inTransaction: options.inTransaction ?? false,
    timestampType: 1,
  };
  return values.flatMap((value, i) =>
    value === null
      ? [] // compacted away
      : [
          {
            offset: String(firstOffset + i),
            key: null,
            value: Buffer.from(value),
            timestamp: String(1_000 + i),
            headers: { h: Buffer.from('x') },
            batchContext,
          },
        ],
  );
}

/** A transaction marker (control record) at `offset`: abort or commit. */
function marker(offset: number, producerId: string, abort: boolean): FetchedRecord {
  return {
    offset: String(offset),
    key: Buffer.from([0, 0, 0, abort ? 0 : 1]),
    value: null,
    timestamp: '0',
    isControlRecord: true,
    batchContext: {
      firstOffset: String(offset),
      lastOffsetDelta: 0,
      producerId,
      inTransaction: true,
      timestampType: 0,
    },
  };
}

const text = (r: { records: { value: Uint8Array | null }[] }) =>
  r.records.map((x) => Buffer.from(x.value!).toString());

describe('selecting a range from a kafkajs fetch', () => {
  it('keeps offsets in [from, until) of whole batches, and continues after the last batch', () => {
    const fetched = [...recordBatch(0, ['a', 'b', 'c']), ...recordBatch(3, ['d', 'e'])];
    const selected = selectRecords(fetched, 1, 4);
    expect(text(selected)).toEqual(['b', 'c', 'd']);
    expect(selected.records.map((r) => r.offset)).toEqual([1, 2, 3]);
    expect(selected.records[0]).toMatchObject({ timestampMs: 1_001, timestampType: 1 });
    expect(selected.records[0].headers).toEqual([{ key: 'h', value: Buffer.from('x') }]);
    expect(selected.nextOffset).toBe(5);
  });

  it('moves past gaps that compaction left, by the batch header', () => {
    const selected = selectRecords(recordBatch(10, ['a', null, null, 'd', null]), 10, 20);
    expect(text(selected)).toEqual(['a', 'd']);
    expect(selected.nextOffset).toBe(15);
  });

  it('drops the records of aborted transactions and all transaction markers', () => {
    const fetched = [
      ...recordBatch(0, ['t1', 't2'], { producerId: '7', inTransaction: true }),
      ...recordBatch(2, ['plain']),
      marker(3, '7', true),
      ...recordBatch(4, ['t3'], { producerId: '7', inTransaction: true }),
      marker(5, '7', false),
    ];
    const selected = selectRecords(fetched, 0, 10, [{ producerId: '7', firstOffset: '0' }]);
    expect(text(selected)).toEqual(['plain', 't3']);
    expect(selected.nextOffset).toBe(6);
    // read_uncommitted: the broker lists no aborted transactions; only markers are dropped
    expect(text(selectRecords(fetched, 0, 10))).toEqual(['t1', 't2', 'plain', 't3']);
  });

  it('reports no progress for an empty fetch', () => {
    expect(selectRecords([], 42, 50)).toEqual({ records: [], nextOffset: 42 });
  });
});
