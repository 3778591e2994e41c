/**
 * How the kafkajs writer cuts a batch's records into produce requests: consecutive runs, in order,
 * each within the request size and of MAX_REQUEST_RECORDS records at most.
 */
import { describe, expect, it } from 'vitest';
import type { OutgoingRecord } from '../../core/kafka/kafka-record-writer.js';
import { MAX_REQUEST_RECORDS, requestChunks } from '../../core/kafka/kafkajs-record-writer.js';

function records(count: number, valueBytes: number): OutgoingRecord[] {
  return Array.from({ length: count }, (_, i) => ({
    topic: 'out',
    partition: 0,
    key: null,
    value: String(i).padStart(valueBytes, '0'),
    headers: [],
  }));
}

describe('the produce requests of a batch', () => {
  it('hold MAX_REQUEST_RECORDS small records at most, in order, however many fit the size', () => {
    const batch = records(2 * MAX_REQUEST_RECORDS + 7, 8);
    const chunks = [...requestChunks(batch, 1 << 20)];
    expect(chunks.map((c) => c.length)).toEqual([MAX_REQUEST_RECORDS, MAX_REQUEST_RECORDS, 7]);
    expect(chunks.flat()).toEqual(batch);
  });

  it('close at the request size first when records are large, and send a larger record alone', () => {
    const batch = [...records(10, 300), ...records(1, 5000), ...records(2, 300)];
    const chunks = [...requestChunks(batch, 1000)];
    expect(chunks.map((c) => c.length)).toEqual([3, 3, 3, 1, 1, 2]);
    expect(chunks.flat()).toEqual(batch);
  });
});
