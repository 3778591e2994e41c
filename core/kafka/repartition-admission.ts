/**
 * What stage 2 admits from the repartition topic: pure functions over the records read and the
 * position the last batch ended at (docs/repartition-stage.md).
 *
 * The position is part of the source's offset, so it is written in the batch's intent and commit
 * with the rest of the checkpoint: the dedup knowledge and the Kafka offsets move together, and a
 * re-run batch starts from exactly the knowledge its first attempt had. Its records are keyed by
 * partition and shard numbers, which JavaScript keeps in numeric order, so equal positions have
 * equal JSON (the engine compares offsets by their JSON).
 *
 * - Dedup (repartition-records.ts): per partition and stage-1 shard, a record counts only if its
 *   (batch, seq) is above the highest one admitted before.
 * - The watermark rule: stage 2 must not run ahead of stage 1's slowest shard. Each stage-1 shard's
 *   markers say how far its event times have come; the ceiling is the minimum over all stage-1
 *   shards (a shard not heard from yet counts as -infinity). A batch admits, per partition, the
 *   records up to the first new row whose event time is above the ceiling, and stops there: stage
 *   2's largest event time, and so its own watermark (largest - delay), never passes what every
 *   stage-1 shard has reached. The records behind it wait for the slow shard's next markers.
 */
import type { Row } from '../types/row.js';
import { type AdmittedPosition, isNewRecord, type RecordStamp } from './repartition-records.js';

/** One record of the topic, decoded. */
export interface StampedRecord {
  readonly offset: number;
  readonly stamp: RecordStamp;
  /** A data record's row; none for a marker. */
  readonly row?: Row;
  /** A data record's event time, or a marker's largest event time; null when it has none. */
  readonly eventTime: number | null;
}

/** Where stage 2 stands in one partition, and what it knows of each stage-1 shard. */
export interface RepartitionPosition {
  /** Per partition, the next offset to read. */
  readonly offsets: Readonly<Record<string, number>>;
  /** Per partition, per stage-1 shard, the highest (batch, seq) admitted. */
  readonly admitted: Readonly<Record<string, Readonly<Record<string, AdmittedPosition>>>>;
  /** Per stage-1 shard, the largest event time its admitted markers carried. */
  readonly eventTime: Readonly<Record<string, number>>;
  /** How many shards stage 1 has, as its records say (0 before any). */
  readonly shards: number;
}

/** The records of one partition read after the position, and where they end. */
export interface PartitionRead {
  readonly partition: number;
  readonly records: readonly StampedRecord[];
  /** The offset after the range read (records may have gaps: compaction, transaction markers). */
  readonly end: number;
}

/** What a walk over the records admitted. */
export interface Admission {
  readonly position: RepartitionPosition;
  readonly rows: Row[];
  /** Records dropped as copies of records admitted before. */
  readonly duplicates: number;
  /** Records left for a later batch by the watermark rule. */
  readonly heldBack: number;
}

/** The event-time ceiling over what `from` knows and the markers in `reads`; +Infinity when not bounded. */
export function eventTimeCeiling(
  from: RepartitionPosition,
  reads: readonly PartitionRead[],
  hasEventTime: boolean,
): number {
  if (!hasEventTime) return Infinity;
  const known = latestEventTimes(
    from,
    reads.flatMap((r) => r.records),
  );
  const shards = shardCount(from, reads);
  if (shards === 0) return -Infinity;
  let ceiling = Infinity;
  for (let s = 0; s < shards; s++) ceiling = Math.min(ceiling, known[s] ?? -Infinity);
  return ceiling;
}

/**
 * Walks each partition's records in offset order from `from`: drops copies, admits new rows, learns
 * from markers, and stops a partition at the first new row above `ceiling`.
 */
export function admit(
  from: RepartitionPosition,
  reads: readonly PartitionRead[],
  ceiling: number,
): Admission {
  const offsets: Record<string, number> = { ...from.offsets };
  const admitted: Record<string, Record<string, AdmittedPosition>> = {};
  for (const [p, shards] of Object.entries(from.admitted)) admitted[p] = { ...shards };
  const walked: StampedRecord[] = [];
  const rows: Row[] = [];
  let duplicates = 0;
  let heldBack = 0;
  for (const read of reads) {
    const key = String(read.partition);
    const last = (admitted[key] ??= {});
    offsets[key] = read.end;
    for (let i = 0; i < read.records.length; i++) {
      const r = read.records[i];
      const shard = String(r.stamp.shard);
      if (!isNewRecord(r.stamp, last[shard])) {
        duplicates++;
        continue;
      }
      if (r.row && r.eventTime !== null && r.eventTime > ceiling) {
        offsets[key] = r.offset;
        heldBack += read.records.length - i;
        break;
      }
      last[shard] = [r.stamp.batchId, r.stamp.seq];
      walked.push(r);
      if (r.row) rows.push(r.row);
    }
  }
  const position: RepartitionPosition = {
    offsets,
    admitted,
    eventTime: latestEventTimes(from, walked),
    shards: shardCount(from, reads),
  };
  return { position, rows, duplicates, heldBack };
}

/** Per shard, the largest event time of `from` and of the markers among `records`. */
function latestEventTimes(
  from: RepartitionPosition,
  records: readonly StampedRecord[],
): Record<string, number> {
  const out: Record<string, number> = { ...from.eventTime };
  for (const r of records) {
    if (r.row || r.eventTime === null) continue;
    const s = String(r.stamp.shard);
    out[s] = Math.max(out[s] ?? -Infinity, r.eventTime);
  }
  return out;
}

function shardCount(from: RepartitionPosition, reads: readonly PartitionRead[]): number {
  let n = from.shards;
  for (const read of reads) for (const r of read.records) n = Math.max(n, r.stamp.shards);
  return n;
}
