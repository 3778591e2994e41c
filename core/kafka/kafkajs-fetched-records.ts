/**
 * The records of a range in one kafkajs fetch response for one partition.
 *
 * A fetch at offset `from` returns whole record batches, so it may start before `from` (compressed
 * batches) and run past the range's end; it contains control records (transaction markers), and,
 * under read_committed, the records of aborted transactions, which the broker lists for the client
 * to drop (the same rule as kafkajs's consumer). What is left are the records the range means.
 * The next offset to fetch is past the last batch returned, even when compaction or markers leave
 * gaps: a batch's last offset is known from its header, not from the records it still holds.
 */
import type { KafkaHeader, KafkaRecord } from './kafka-partition-reader.js';

/** A record as kafkajs 2.2.4 decodes it (record-batch format; legacy message sets lack `batchContext`). */
export interface FetchedRecord {
  readonly offset: string;
  readonly key: Buffer | null;
  readonly value: Buffer | null;
  readonly timestamp: string;
  readonly headers?: Readonly<Record<string, Buffer | Buffer[] | undefined>>;
  readonly isControlRecord?: boolean;
  readonly batchContext?: {
    readonly firstOffset: string;
    readonly lastOffsetDelta: number;
    readonly producerId: string;
    readonly inTransaction: boolean;
    readonly timestampType: number;
  };
}

/** An aborted transaction the broker reports in a read_committed fetch. */
export interface AbortedTransaction {
  readonly producerId: string;
  readonly firstOffset: string;
}

/** The selected records and the offset to fetch next. */
export interface SelectedRecords {
  readonly records: KafkaRecord[];
  /** The offset after the last batch fetched; `from` when the fetch returned nothing. */
  readonly nextOffset: number;
}

/** The key of a transaction's abort marker (a control record's key: version 0, type 0 = abort). */
const ABORT_MARKER_KEY = Buffer.from([0, 0, 0, 0]);

/** Selects the committed data records with offsets in [from, until) from a fetch's records. */
export function selectRecords(
  fetched: readonly FetchedRecord[],
  from: number,
  until: number,
  abortedTransactions: readonly AbortedTransaction[] = [],
): SelectedRecords {
  const records: KafkaRecord[] = [];
  let nextOffset = from;
  const pendingAborts = [...abortedTransactions].sort(
    (a, b) => Number(a.firstOffset) - Number(b.firstOffset),
  );
  const abortedProducers = new Set<string>();
  for (const record of fetched) {
    const offset = Number(record.offset);
    const batch = record.batchContext;
    nextOffset = Math.max(
      nextOffset,
      batch ? Number(batch.firstOffset) + batch.lastOffsetDelta + 1 : offset + 1,
    );
    if (offset < from) continue;
    // Entering an aborted transaction's first offset marks its producer's records as aborted
    // until that producer's abort marker.
    while (pendingAborts.length > 0 && offset >= Number(pendingAborts[0].firstOffset)) {
      abortedProducers.add(pendingAborts.shift()!.producerId);
    }
    if (record.isControlRecord) {
      if (batch && record.key && ABORT_MARKER_KEY.equals(record.key)) {
        abortedProducers.delete(batch.producerId);
      }
      continue;
    }
    if (batch?.inTransaction && abortedProducers.has(batch.producerId)) continue;
    if (offset >= until) continue; // past the range; keep scanning only to learn the next offset
    records.push({
      offset,
      key: record.key,
      value: record.value,
      timestampMs: Number(record.timestamp),
      timestampType: batch?.timestampType ?? 0,
      headers: headerList(record.headers),
    });
  }
  return { records, nextOffset };
}

/** kafkajs groups repeated header keys into arrays; Spark's rows list each header. */
function headerList(headers: FetchedRecord['headers']): KafkaHeader[] {
  if (!headers) return [];
  const list: KafkaHeader[] = [];
  for (const [key, value] of Object.entries(headers)) {
    if (Array.isArray(value)) for (const v of value) list.push({ key, value: v });
    else list.push({ key, value: value ?? null });
  }
  return list;
}
