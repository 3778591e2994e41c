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
 *   records up to the first new page with an event time above the ceiling (a page's largest event
 *   time is in its header, repartition-records.ts), and stops there: stage 2's largest event time,
 *   and so its own watermark (largest - delay), never passes what every stage-1 shard has reached.
 *   The records behind it wait for the slow shard's next markers.
 * - The rows held back: a stage-1 batch's rows are in no event-time order (its shard writes the rows
 *   of one source partition, then of the next, each over the batch's whole span; and a page held
 *   back holds rows below the ceiling too), so the rows behind the stop may be older than every row
 *   admitted before it. The position keeps the least event time of the new rows held back, and
 *   stage 2's watermark stays below it (repartition-source.ts, eventTimeLimit): they are admitted
 *   later, and must not be late then.
 * - Idle stage-1 shards: a stage-1 shard whose partitions have no input runs no batch and sends no
 *   marker. As a shard of an unsplit query is left out of the query watermark (query-watermark.ts),
 *   a stage-1 shard is left out of the ceiling while it is idle: its last marker with an event time
 *   was written (the marker's Kafka timestamp) more than the idle timeout before the newest such
 *   marker of any stage-1 shard. A shard never heard from is measured from the first marker stage 2
 *   saw. When it writes again it counts again; its rows below stage 2's watermark by then are late.
 */
import { DEFAULT_SHARD_IDLE_TIMEOUT_MS } from '../checkpoint/shard-identity.js';
import type { Row } from '../types/row.js';
import { type AdmittedPosition, isNewRecord, type RecordStamp } from './repartition-records.js';

/** One record of the topic, decoded as far as admission needs. */
export interface StampedRecord {
  readonly offset: number;
  readonly stamp: RecordStamp;
  /**
   * A data record's page of rows, decoded when called: planning a batch needs only the page's
   * event times. None for a marker.
   */
  readonly rows?: () => readonly Row[];
  /** The largest event time of a page's rows, or a marker's; null when it has none. */
  readonly eventTime: number | null;
  /** The least event time of a page's rows; null or absent when it has none. */
  readonly leastEventTime?: number | null;
  /** A marker's Kafka timestamp (when stage 1 wrote it), for the idleness rule; none if unknown. */
  readonly timestampMs?: number;
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
  /**
   * Per stage-1 shard, when it wrote its latest admitted marker with an event time (Kafka timestamp,
   * ms). Absent in positions written before the idleness rule, which then starts from what it reads.
   */
  readonly heardAtMs?: Readonly<Record<string, number>>;
  /** When the first admitted marker with an event time of any stage-1 shard was written. */
  readonly firstHeardAtMs?: number;
  /**
   * The least event time of the new rows read and held back at this position (behind a partition's
   * first row above the ceiling); absent when none was. Stage 2's watermark must stay below it: a
   * stage-1 batch's rows are not in event-time order (a shard writes the rows of its source
   * partitions one partition after the other), so rows held back may be far older than the ones
   * admitted before them.
   */
  readonly heldBackEventTime?: number;
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
  /** The pages admitted, in the order walked (admittedRows decodes them). */
  readonly pages: readonly StampedRecord[];
  /** Records dropped as copies of records admitted before. */
  readonly duplicates: number;
  /** Records left for a later batch by the watermark rule. */
  readonly heldBack: number;
}

/**
 * The event-time ceiling over what `from` knows and the markers in `reads`: the minimum over the
 * stage-1 shards that are not idle (module doc); +Infinity when not bounded.
 */
export function eventTimeCeiling(
  from: RepartitionPosition,
  reads: readonly PartitionRead[],
  hasEventTime: boolean,
  idleTimeoutMs: number = DEFAULT_SHARD_IDLE_TIMEOUT_MS,
): number {
  if (!hasEventTime) return Infinity;
  const records = reads.flatMap((r) => r.records);
  const known = latestEventTimes(from, records);
  const heard = latestHeard(from, records);
  const shards = shardCount(from, reads);
  if (shards === 0) return -Infinity;
  let ceiling = Infinity;
  for (let s = 0; s < shards; s++) {
    const last = heard.atMs[s] ?? heard.firstMs;
    const idle = last !== undefined && heard.newestMs - last > idleTimeoutMs;
    if (!idle) ceiling = Math.min(ceiling, known[s] ?? -Infinity);
  }
  return ceiling;
}

/**
 * Walks each partition's records in offset order from `from`: drops copies, admits new pages, learns
 * from markers, and stops a partition at the first new page with a row above `ceiling`.
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
  const pages: StampedRecord[] = [];
  let duplicates = 0;
  let heldBack = 0;
  let heldBackEventTime = Infinity;
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
      if (r.rows && r.eventTime !== null && r.eventTime > ceiling) {
        offsets[key] = r.offset;
        heldBack += read.records.length - i;
        heldBackEventTime = Math.min(heldBackEventTime, leastNewEventTime(read.records, i, last));
        break;
      }
      last[shard] = [r.stamp.batchId, r.stamp.seq];
      walked.push(r);
      if (r.rows) pages.push(r);
    }
  }
  const heard = latestHeard(from, walked);
  const position: RepartitionPosition = {
    offsets,
    admitted,
    eventTime: latestEventTimes(from, walked),
    shards: shardCount(from, reads),
    ...(heard.firstMs === undefined
      ? {}
      : { heardAtMs: heard.atMs, firstHeardAtMs: heard.firstMs }),
    ...(Number.isFinite(heldBackEventTime) ? { heldBackEventTime } : {}),
  };
  return { position, pages, duplicates, heldBack };
}

/** The rows of the pages `admission` admitted, in order. */
export function admittedRows(admission: Admission): Row[] {
  const rows: Row[] = [];
  for (const page of admission.pages) for (const row of page.rows!()) rows.push(row);
  return rows;
}

/**
 * The least event time of the pages from `records[from]` on that are new after `admitted` (copies
 * of admitted pages are dropped when read again, so they hold nothing back); Infinity without one.
 */
function leastNewEventTime(
  records: readonly StampedRecord[],
  from: number,
  admitted: Readonly<Record<string, AdmittedPosition>>,
): number {
  let least = Infinity;
  for (let i = from; i < records.length; i++) {
    const r = records[i];
    if (!r.rows || r.leastEventTime === null || r.leastEventTime === undefined) continue;
    if (isNewRecord(r.stamp, admitted[String(r.stamp.shard)])) {
      least = Math.min(least, r.leastEventTime);
    }
  }
  return least;
}

/** Per shard, the largest event time of `from` and of the markers among `records`. */
function latestEventTimes(
  from: RepartitionPosition,
  records: readonly StampedRecord[],
): Record<string, number> {
  const out: Record<string, number> = { ...from.eventTime };
  for (const r of records) {
    if (r.rows || r.eventTime === null) continue;
    const s = String(r.stamp.shard);
    out[s] = Math.max(out[s] ?? -Infinity, r.eventTime);
  }
  return out;
}

/**
 * When each shard wrote its latest marker with an event time, per `from` and `records`; the first
 * such time of any shard, and the newest (-Infinity before any).
 */
function latestHeard(from: RepartitionPosition, records: readonly StampedRecord[]) {
  const atMs: Record<string, number> = { ...from.heardAtMs };
  let firstMs = from.firstHeardAtMs;
  for (const r of records) {
    if (r.rows || r.eventTime === null || r.timestampMs === undefined) continue;
    const s = String(r.stamp.shard);
    atMs[s] = Math.max(atMs[s] ?? -Infinity, r.timestampMs);
    firstMs = Math.min(firstMs ?? Infinity, r.timestampMs);
  }
  const newestMs = Math.max(-Infinity, ...Object.values(atMs));
  return { atMs, firstMs, newestMs };
}

function shardCount(from: RepartitionPosition, reads: readonly PartitionRead[]): number {
  let n = from.shards;
  for (const read of reads) for (const r of read.records) n = Math.max(n, r.stamp.shards);
  return n;
}
