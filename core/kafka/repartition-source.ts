/**
 * RepartitionSource: the source of stage 2 of a split query (core/plan/stage-split.ts). It reads the
 * repartition topic that stage 1's shards write (repartition-sink.ts), the partitions of its own
 * shard only (partition p goes to shard p mod N, as for any Kafka source), and admits its pages by
 * repartition-admission.ts: copies a re-run stage-1 batch wrote again are dropped, and no row above
 * the slowest stage-1 shard's event time is admitted.
 *
 * Its offset is the admission's position (RepartitionPosition): per partition the next offset to
 * read, with what the dedup and watermark rules know at that point. The position is thus written in
 * each batch's intent and commit, like a Kafka source's offsets, and a re-run batch starts from the
 * knowledge its first attempt had. Steps:
 *   1. planning (`latestOffset`): read every owned partition from the position to its latest offset,
 *      compute the event-time ceiling over the markers read, and admit by the pages' event-time
 *      headers, decoding no row; the new position ends where each partition's admission stopped
 *      (its latest offset, or the first page held back);
 *   2. the batch (`getBatch`): read exactly [start, end) of each partition again and admit with no
 *      ceiling. Every record in that range was admitted or dropped as a copy when the batch was
 *      planned (a held-back page is at `end`, outside it), and the dedup rule depends only on the
 *      start position and the records' order, so the batch gets the same rows in every attempt;
 *   3. the commit (`eventTimeReached`): the ceiling over the markers admitted up to `end` counts
 *      toward stage 2's largest event time, so the watermark of a shard whose keys get no more rows
 *      still moves with the stream, as the unsplit query's would; and (`eventTimeLimit`) no event
 *      time counts beyond what keeps the watermark below the rows planning held back.
 * Offsets the topic no longer holds fail the batch: a lost record is a lost row of stage 2's state,
 * so the repartition topic's retention must outlast stage 2's lag.
 */
import { type ShardIdentity, UNSHARDED } from '../checkpoint/shard-identity.js';
import { InvalidOptionError, SourceError } from '../errors.js';
import { type EventTimeColumn, eventTimeColumn } from '../exec/event-time-column.js';
import { decodeRowPage } from '../io/row-binary-codec.js';
import type { Offset, Source, SourceContext, SourceFactory } from '../sources/source.js';
import type { StructType } from '../types/data-types.js';
import type { Row } from '../types/row.js';
import type { KafkaPartitionReader, KafkaRecord } from './kafka-partition-reader.js';
import {
  admit,
  admittedRows,
  eventTimeCeiling,
  type PartitionRead,
  type RepartitionPosition,
  type StampedRecord,
} from './repartition-admission.js';
import { readEventTimes, readStamp } from './repartition-records.js';
import { shardPartitions } from './shard-partitions.js';

/** What stage 2 reads. */
export interface RepartitionSourceOptions {
  /** The repartition topic stage 1's RepartitionSink writes. */
  readonly topic: string;
  /** The schema of stage 1's rows (the split's `stage1.schema`), which the records' values encode. */
  readonly schema: StructType;
  /**
   * How long a stage-1 shard may write no marker before it stops holding back stage 2's event time
   * (repartition-admission.ts). @default DEFAULT_SHARD_IDLE_TIMEOUT_MS (5 minutes)
   */
  readonly idleTimeoutMs?: number;
}

const UTF8 = new TextDecoder();

/** The position before the first batch: every partition from offset 0, nothing known yet. */
const START: RepartitionPosition = { offsets: {}, admitted: {}, eventTime: {}, shards: 0 };

/** Stage 2's source over its shard's partitions of the repartition topic. */
export class RepartitionSource implements Source {
  readonly schema: StructType;
  readonly description: string;
  readonly splitsAcrossShards = true;
  private readonly shard: ShardIdentity;
  private readonly eventTime: EventTimeColumn | undefined;
  /** The range read last (its JSON) and how many copies it dropped, for the batch's metrics. */
  private lastRead: { range: string; duplicates: number } | undefined;

  constructor(
    private readonly options: RepartitionSourceOptions,
    context: SourceContext,
    private readonly reader: KafkaPartitionReader,
  ) {
    this.description = `RepartitionSource[${options.topic}]`;
    this.schema = options.schema;
    this.shard = context.shard ?? UNSHARDED;
    this.eventTime = eventTimeColumn(options.schema);
  }

  /** Step 1 of the module doc: the position after admitting what the partitions hold now. */
  async latestOffset(start: Offset | undefined): Promise<Offset | undefined> {
    const from = this.position(start);
    const tps = shardPartitions(await this.reader.partitions([this.options.topic]), this.shard);
    const bounds = await this.reader.offsetBounds(tps);
    const reads = await Promise.all(
      tps.map((tp, i) =>
        this.read(tp.partition, from.offsets[tp.partition] ?? 0, bounds[i].latest),
      ),
    );
    const ceiling = eventTimeCeiling(
      from,
      reads,
      this.eventTime !== undefined,
      this.options.idleTimeoutMs,
    );
    const { position } = admit(from, reads, ceiling);
    if (JSON.stringify(position.offsets) === JSON.stringify(from.offsets)) return start;
    return position;
  }

  /** Step 2 of the module doc: the rows admitted from [start, end) of each partition. */
  async getBatch(start: Offset | undefined, end: Offset): Promise<Row[]> {
    const from = this.position(start);
    const until = this.position(end);
    const reads = await Promise.all(
      Object.entries(until.offsets).map(([p, last]) =>
        this.read(Number(p), from.offsets[p] ?? 0, last),
      ),
    );
    const admission = admit(from, reads, Infinity);
    this.lastRead = {
      range: JSON.stringify([start ?? null, end]),
      duplicates: admission.duplicates,
    };
    return admittedRows(admission);
  }

  /**
   * The least event time the stage-1 shards' markers admitted up to `end` announce, over the shards
   * the idleness rule counts (repartition-admission.ts): what the whole query's input has reached,
   * though this shard's keys may have had no row near it. Stage 2's watermark follows it as the
   * unsplit query's follows every row, and never passes what every stage-1 shard has reached.
   */
  eventTimeReached(end: Offset): number | undefined {
    if (this.eventTime === undefined) return undefined;
    const reached = eventTimeCeiling(this.position(end), [], true, this.options.idleTimeoutMs);
    return Number.isFinite(reached) ? reached : undefined;
  }

  /**
   * The largest event time the batch ending at `end` may count toward stage 2's watermark: below
   * the rows its planning read and held back by the watermark rule (repartition-admission.ts) by
   * the watermark's delay, so that the watermark stays below them and they are not dropped as late
   * when a later batch admits them, as none of them would be in the unsplit query.
   */
  eventTimeLimit(end: Offset): number | undefined {
    const held = this.position(end).heldBackEventTime;
    if (this.eventTime === undefined || held === undefined) return undefined;
    // one microsecond below: a row at the watermark itself is late
    return held + this.eventTime.delayMicros - 1;
  }

  /** `duplicateRecords`: the records of the batch's range dropped as copies of admitted ones. */
  metrics(start: Offset | undefined, end: Offset): Readonly<Record<string, number>> {
    const range = JSON.stringify([start ?? null, end]);
    return { duplicateRecords: this.lastRead?.range === range ? this.lastRead.duplicates : 0 };
  }

  async stop(): Promise<void> {
    await this.reader.close();
  }

  /** `offset` as a position, checked to be one this source wrote. */
  private position(offset: Offset | undefined): RepartitionPosition {
    if (offset === undefined) return START;
    const p = offset as Partial<RepartitionPosition> | null;
    if (
      p === null ||
      typeof p !== 'object' ||
      typeof p.offsets !== 'object' ||
      typeof p.admitted !== 'object' ||
      typeof p.eventTime !== 'object' ||
      typeof p.shards !== 'number'
    ) {
      throw new SourceError(
        `${this.description}: the checkpoint's offset ${JSON.stringify(offset)} is not a repartition position; the checkpoint belongs to another source, so give stage 2 a checkpoint of its own.`,
      );
    }
    return p as RepartitionPosition;
  }

  /** The records of [start, end) of `partition`, decoded. */
  private async read(partition: number, start: number, end: number): Promise<PartitionRead> {
    if (start >= end) return { partition, records: [], end: start };
    const tp = { topic: this.options.topic, partition };
    const read = await this.reader.readRange(tp, start, end);
    if (read.kind === 'unavailable') {
      throw new SourceError(
        `${this.description}: partition ${partition} no longer holds offsets [${start}, ${end}) (it holds [${read.earliest}, ${read.latest})), so stage 2 would miss stage 1's rows; keep the repartition topic's retention longer than stage 2 can fall behind, and run stage 2 under a new checkpoint after re-running stage 1.`,
      );
    }
    return { partition, records: read.records.map((r) => this.decode(partition, r)), end };
  }

  private decode(partition: number, record: KafkaRecord): StampedRecord {
    const where = `record ${this.options.topic}-${partition}@${record.offset}`;
    const stamp = readStamp(record.headers, where);
    if (stamp.marker) {
      const text = record.value === null ? '' : UTF8.decode(record.value);
      const eventTime = text === '' ? null : Number(text);
      return { offset: record.offset, stamp, eventTime, timestampMs: record.timestampMs };
    }
    if (record.value === null) {
      throw new SourceError(
        `${where} is a data record without a value; give the repartition stage a topic that only its RepartitionSink writes to.`,
      );
    }
    const value = record.value;
    const range = this.eventTime ? readEventTimes(record.headers, where) : null;
    return {
      offset: record.offset,
      stamp,
      rows: () => decodeRowPage(value, this.options.schema),
      eventTime: range?.largest ?? null,
      leastEventTime: range?.least ?? null,
    };
  }
}

/** The source factory of stage 2's relation (the split's `stage2({ source })`). */
export function repartitionSource(
  options: RepartitionSourceOptions,
  createReader: () => KafkaPartitionReader,
): SourceFactory {
  if (options.topic === '') {
    throw new InvalidOptionError(
      'RepartitionSource: the topic is empty; give the repartition topic stage 1 writes to.',
    );
  }
  return (context) => new RepartitionSource(options, context, createReader());
}
