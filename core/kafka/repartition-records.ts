/**
 * The records of a repartition topic (docs/repartition-stage.md): what stage 1 writes and stage 2
 * reads, and the rule by which stage 2 drops records delivered again.
 *
 * Every record carries these headers, as UTF-8 decimal text (the query id as is):
 *   sluice-query   the id of the stage-1 query that wrote it (for tracing; the dedup key is the shard)
 *   sluice-stage   the stage that wrote it (1 for the repartition topic of a two-stage query)
 *   sluice-shard   the writing shard, 0 .. shards-1
 *   sluice-shards  how many shards the writing stage has
 *   sluice-batch   the batchId of the writing shard's micro-batch
 *   sluice-seq     the record's position in that batch's output: data rows 0 .. n-1, then the
 *                  batch's watermark markers, n + partition
 *   sluice-marker  present (value "1") only on a watermark marker: a record without a row, written
 *                  to every partition once the batch's rows are acknowledged; its value is the
 *                  largest event time of the batch's rows (decimal microseconds), or none.
 *
 * The dedup rule: a shard's re-run batch writes the same rows in the same order (its intent fixes
 * its input, its state is the same version), so a record is identified by (shard, batch, seq). In
 * one partition a shard's records arrive in increasing (batch, seq), except for what an attempt
 * that did not commit wrote before the re-run wrote it again (or what a fenced-off zombie wrote
 * late). So per partition and shard, stage 2 admits a record only if its (batch, seq) is above the
 * highest it admitted before, and drops it otherwise.
 */
import { SourceError } from '../errors.js';
import type { KafkaHeader } from './kafka-partition-reader.js';
import type { OutgoingHeader } from './kafka-record-writer.js';

/** The header names, as the module doc describes them. */
export const REPARTITION_HEADERS = {
  query: 'sluice-query',
  stage: 'sluice-stage',
  shard: 'sluice-shard',
  shards: 'sluice-shards',
  batch: 'sluice-batch',
  seq: 'sluice-seq',
  marker: 'sluice-marker',
} as const;

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
  const h = REPARTITION_HEADERS;
  return [
    { key: h.query, value: stamp.queryId },
    { key: h.stage, value: String(stamp.stage) },
    { key: h.shard, value: String(stamp.shard) },
    { key: h.shards, value: String(stamp.shards) },
    { key: h.batch, value: String(stamp.batchId) },
    { key: h.seq, value: String(stamp.seq) },
    ...(stamp.marker ? [{ key: h.marker, value: '1' }] : []),
  ];
}

/** The stamp a record's headers give; `where` names the record in the error when one is missing. */
export function readStamp(headers: readonly KafkaHeader[], where: string): RecordStamp {
  const text = (key: string): string | undefined => {
    const h = headers.find((x) => x.key === key);
    return h?.value ? new TextDecoder().decode(h.value) : undefined;
  };
  const number = (key: string): number => {
    const value = Number(text(key));
    if (text(key) === undefined || !Number.isSafeInteger(value) || value < 0) {
      throw new SourceError(
        `${where} has no valid ${key} header (${text(key) ?? 'none'}), so it was not written by a repartition sink; give the repartition stage a topic of its own that nothing else writes to.`,
      );
    }
    return value;
  };
  return {
    queryId: text(REPARTITION_HEADERS.query) ?? '',
    stage: number(REPARTITION_HEADERS.stage),
    shard: number(REPARTITION_HEADERS.shard),
    shards: number(REPARTITION_HEADERS.shards),
    batchId: number(REPARTITION_HEADERS.batch),
    seq: number(REPARTITION_HEADERS.seq),
    marker: text(REPARTITION_HEADERS.marker) === '1',
  };
}

/** The highest (batchId, seq) admitted from a shard, in one partition. */
export type AdmittedPosition = readonly [batchId: number, seq: number];

/** True when a record at `stamp` is new: above `last`, the highest admitted from its shard. */
export function isNewRecord(stamp: RecordStamp, last: AdmittedPosition | undefined): boolean {
  if (last === undefined) return true;
  return stamp.batchId > last[0] || (stamp.batchId === last[0] && stamp.seq > last[1]);
}
