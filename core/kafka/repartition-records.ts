/**
 * The records of a repartition topic (docs/repartition-stage.md): what stage 1 writes and stage 2
 * reads, and the rule by which stage 2 drops records delivered again.
 *
 * A data record is a page: many of a stage-1 batch's rows for one partition (core/io/row-binary-
 * codec.ts), not one row, since kafkajs encodes and decodes every record and header one at a time
 * in JavaScript, which made a record per row most of both stages' work. Every record carries the
 * header `sluice-stamp`, whose UTF-8 value is its stamp, fields joined by `|` (one header, not one
 * per field):
 *   stage    the stage that wrote it (1 for the repartition topic of a two-stage query)
 *   shard    the writing shard, 0 .. shards-1
 *   shards   how many shards the writing stage has
 *   batch    the batchId of the writing shard's micro-batch
 *   seq      the record's position in that batch's output: pages 0 .. m-1, then the batch's
 *            watermark markers, m + partition
 *   marker   1 on a watermark marker, else 0: a record without a row, written to every partition
 *            once the batch's rows are acknowledged; its value is the largest event time of the
 *            batch's rows (decimal microseconds), or none
 *   query    the id of the stage-1 query that wrote it, last and as is (it may hold `|`); for
 *            tracing, the dedup key is the shard
 * A page whose rows have event times carries a second header, `sluice-event-times`: the least and
 * the largest of them (decimal microseconds, `least|largest`), so that stage 2 can plan a batch by
 * the watermark rule without decoding the rows.
 *
 * The dedup rule: a shard's re-run batch writes the same rows in the same order (its intent fixes
 * its input, its state is the same version), cut into the same pages, so a record is identified by
 * (shard, batch, seq). In one partition a shard's records arrive in increasing (batch, seq), except
 * for what an attempt that did not commit wrote before the re-run wrote it again (or what a
 * fenced-off zombie wrote late). So per partition and shard, stage 2 admits a record only if its
 * (batch, seq) is above the highest it admitted before, and drops it otherwise.
 */
import { SourceError } from '../errors.js';
import type { KafkaHeader } from './kafka-partition-reader.js';
import type { OutgoingHeader } from './kafka-record-writer.js';

/** The stamp's header, as the module doc describes it. */
export const STAMP_HEADER = 'sluice-stamp';

/** The header of a page's event-time range, as the module doc describes it. */
export const EVENT_TIMES_HEADER = 'sluice-event-times';

/** The stamp's fields before the query id, in the header's order. */
const STAMP_FIELDS = ['stage', 'shard', 'shards', 'batch', 'seq', 'marker'] as const;

const UTF8 = new TextDecoder();

/** Which shard of which stage writes; the same shape as the scale-out's ShardIdentity. */
export interface WritingShard {
  readonly stage: number;
  readonly shard: number;
  readonly shards: number;
}

/** Where a record stands in its writer's output. */
export interface RecordStamp extends WritingShard {
  readonly queryId: string;
  readonly batchId: number;
  readonly seq: number;
  /** True for a watermark marker. */
  readonly marker: boolean;
}

/** The headers of a record with `stamp`. */
export function stampHeaders(stamp: RecordStamp): OutgoingHeader[] {
  const { stage, shard, shards, batchId, seq, marker, queryId } = stamp;
  const value = `${stage}|${shard}|${shards}|${batchId}|${seq}|${marker ? 1 : 0}|${queryId}`;
  return [{ key: STAMP_HEADER, value }];
}

/** The stamp a record's headers give; `where` names the record in the error when it has none. */
export function readStamp(headers: readonly KafkaHeader[], where: string): RecordStamp {
  const header = headers.find((h) => h.key === STAMP_HEADER);
  const text = header?.value ? UTF8.decode(header.value) : undefined;
  const parts = text?.split('|') ?? [];
  const fields = parts.slice(0, STAMP_FIELDS.length);
  const valid =
    parts.length > STAMP_FIELDS.length &&
    fields.every((f) => /^\d{1,15}$/.test(f)) &&
    (fields[5] === '0' || fields[5] === '1');
  if (!valid) {
    throw new SourceError(
      `${where} has no valid ${STAMP_HEADER} header (${text ?? 'none'}; expected ${STAMP_FIELDS.join('|')}|query), so it was not written by a repartition sink; give the repartition stage a topic of its own that nothing else writes to.`,
    );
  }
  const [stage, shard, shards, batchId, seq, marker] = fields.map(Number);
  const queryId = parts.slice(STAMP_FIELDS.length).join('|');
  return { queryId, stage, shard, shards, batchId, seq, marker: marker === 1 };
}

/** The least and the largest event time of a page's rows (microseconds). */
export interface EventTimeRange {
  readonly least: number;
  readonly largest: number;
}

/** The header that carries `range`. */
export function eventTimesHeader(range: EventTimeRange): OutgoingHeader {
  return { key: EVENT_TIMES_HEADER, value: `${range.least}|${range.largest}` };
}

/**
 * The event-time range a page's headers give, or null when they give none (its rows have no event
 * time); `where` names the record in the error when the header is malformed.
 */
export function readEventTimes(
  headers: readonly KafkaHeader[],
  where: string,
): EventTimeRange | null {
  const header = headers.find((h) => h.key === EVENT_TIMES_HEADER);
  if (!header) return null;
  const text = header.value ? UTF8.decode(header.value) : '';
  const parts = text.split('|');
  const [least, largest] = parts.map(Number);
  const valid = parts.length === 2 && parts.every((p) => /^-?\d{1,16}$/.test(p));
  if (!valid || !Number.isSafeInteger(least) || !Number.isSafeInteger(largest)) {
    throw new SourceError(
      `${where} has a malformed ${EVENT_TIMES_HEADER} header (${text}; expected least|largest, in microseconds), so it was not written by a repartition sink; give the repartition stage a topic of its own that nothing else writes to.`,
    );
  }
  return { least, largest };
}

/** The highest (batchId, seq) admitted from a shard, in one partition. */
export type AdmittedPosition = readonly [batchId: number, seq: number];

/** True when a record at `stamp` is new: above `last`, the highest admitted from its shard. */
export function isNewRecord(stamp: RecordStamp, last: AdmittedPosition | undefined): boolean {
  if (last === undefined) return true;
  return stamp.batchId > last[0] || (stamp.batchId === last[0] && stamp.seq > last[1]);
}
