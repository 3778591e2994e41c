/**
 * KafkaSource: topics of a Kafka cluster as a stream (Spark's Kafka source), read through a
 * KafkaPartitionReader without a consumer group.
 *
 * Offsets are Spark's `{"topic":{"partition":offset}}`: the next offset to read per partition. A batch
 * over (start, end] reads offsets [start[p], end[p]) of every partition p in `end`, so a re-run of the
 * batch from its intent reads exactly the same records. Invariants:
 * - The stream starts at its initial offsets (startingOffsets, ...), resolved and recorded in the
 *   checkpoint once (initial-offsets.ts); a batch with no start begins there.
 * - A partition in `end` but not in `start` appeared since the last batch: it is read from offset 0,
 *   its beginning, so nothing it received before the batch that found it is skipped (if retention
 *   already removed some of it, that is data loss, as Spark reports it).
 * - Planning admits at most maxOffsetsPerTrigger offsets, split by lag, and holds a batch back while
 *   fewer than minOffsetsPerTrigger are pending and maxTriggerDelay has not passed since the last
 *   committed batch (offset-admission.ts). Both depend only on the cluster's offsets and the
 *   intents' timestamps, so every attempt and every invocation decides alike. A once trigger admits
 *   everything; an availableNow run reads up to the latest offsets of when it started, within
 *   maxOffsetsPerTrigger.
 * - Lost data (retention, recreated topics, vanished partitions) fails the batch when failOnDataLoss,
 *   else is skipped and counted in the batch's progress as `lostOffsets`.
 * - With kafka.group.id, each committed batch's end offsets are copied to that consumer group for
 *   tools that watch its lag. Best effort and bounded (2 s): a failed or timed-out copy is reported
 *   in the batch's progress (metric `offsetsCommittedToGroup` 0 and a warning) and never fails the
 *   batch; the checkpoint stays the only truth about what was read.
 * - In shard i of a query with parallelism N, the source reads only the partitions p with
 *   p mod N = i (shard-partitions.ts); everything above applies to those alone.
 */
import { type ShardIdentity, UNSHARDED } from '../checkpoint/shard-identity.js';
import { InvalidOptionError, SourceError } from '../errors.js';
import type { RecordedInitialOffset } from '../sources/recorded-initial-offset.js';
import type { Offset, PlanningContext, Source, SourceContext } from '../sources/source.js';
import type { StructType } from '../types/data-types.js';
import type { Row } from '../types/row.js';
import { withinDeadline } from './call-deadline.js';
import { dataLossError } from './data-loss.js';
import { initialOffsets } from './initial-offsets.js';
import { queryGroupId } from './query-group.js';
import { resolveOffsetSpec } from './kafka-offset-spec.js';
import type { KafkaSourceOptions } from './kafka-options.js';
import type { KafkaPartitionReader } from './kafka-partition-reader.js';
import { kafkaSchema } from './kafka-schema.js';
import { describeSubscription, subscribedPartitions } from './kafka-subscription.js';
import { kafkajsReader } from './kafkajs-partition-reader.js';
import { admitOffsets, holdsBatchBack, type PendingOffsets } from './offset-admission.js';
import {
  checkpointedOffsets,
  offsetEntries,
  offsetOf,
  offsetsFrom,
  partitionName,
  type PartitionOffsets,
  type TopicPartition,
} from './partition-offsets.js';
import { readOffsetRanges } from './read-offset-ranges.js';
import { shardPartitions } from './shard-partitions.js';

/**
 * How long the copy of a batch's end offsets to the consumer group may take (at most the API
 * timeout): the batch is committed already, and a hanging broker must not hold up the next one.
 */
const GROUP_COPY_TIMEOUT_MS = 2_000;

/** Creates the reader a source uses; tests give other clients through it. */
export type KafkaReaderFactory = (options: KafkaSourceOptions) => KafkaPartitionReader;

/** A Kafka stream. */
export class KafkaSource implements Source {
  readonly schema: StructType;
  readonly description: string;
  readonly splitsAcrossShards = true;
  /** The shard of the query this source reads for: partition p when p mod shards is its shard. */
  private readonly shard: ShardIdentity;
  private readonly initial: RecordedInitialOffset<PartitionOffsets>;
  private reader: KafkaPartitionReader | undefined;
  /** The range the source read last (its JSON) and the offsets it found lost there. */
  private lastRead: { range: string; lostOffsets: number } | undefined;
  /** The latest offsets of the partitions when the source last planned a batch. */
  private latest: PartitionOffsets | undefined;
  /** The consumer group committed end offsets are copied to; none when the copy is off. */
  private readonly groupId: string | undefined;
  /** The last copy of a batch's end offsets (its JSON) to the consumer group, and why it failed. */
  private lastGroupCommit: { end: string; failure?: string } | undefined;
  /** In an availableNow run, each partition's latest offset when it started; the run reads no further. */
  private availableNowEnd: PartitionOffsets | undefined;

  constructor(
    private readonly options: KafkaSourceOptions,
    context: SourceContext,
    private readonly createReader: KafkaReaderFactory = kafkajsReader,
  ) {
    this.description = `KafkaSource[${describeSubscription(options.subscription)}]`;
    if (!context.metadataStore) {
      throw new InvalidOptionError(
        `${this.description} needs a checkpoint to record the offsets it starts from; run it as a streaming query (writeStream ... start()).`,
      );
    }
    this.schema = kafkaSchema(options.includeHeaders);
    this.shard = context.shard ?? UNSHARDED;
    this.groupId = options.commitOffsetsToGroup
      ? (options.groupId ?? (context.queryId && queryGroupId(context.queryId)))
      : undefined;
    this.initial = initialOffsets(context.metadataStore, this.description);
  }

  /**
   * Plans the next batch: where each current partition's new records end, capped by
   * maxOffsetsPerTrigger, or no batch while minOffsetsPerTrigger holds it back (`context` gives the
   * times; without it, nothing is held back). Data already lost is found here too, before an intent
   * fixes the batch.
   */
  async latestOffset(
    start: Offset | undefined,
    context?: PlanningContext,
  ): Promise<Offset | undefined> {
    const from = await this.startingAt(start);
    const { partitions, pending: available } = await this.pendingOffsets(from);
    this.latest = offsetsFrom(partitions.map((tp, i) => [tp, available[i].latest] as const));
    const pending = this.withinAvailableNow(partitions, available);
    const readAll = context?.readAllAvailable === true;
    if (!readAll && this.heldBack(pending, context)) return start;
    const ends = admitOffsets(pending, readAll ? undefined : this.options.maxOffsetsPerTrigger);
    const end = offsetsFrom(partitions.map((tp, i) => [tp, ends[i]] as const));
    if (JSON.stringify(end) === JSON.stringify(from)) return start; // nothing new
    return end;
  }

  /** The latest offsets found when the last batch was planned (Spark's `reportLatestOffset`). */
  reportLatestOffset(): Offset | undefined {
    return this.latest;
  }

  /**
   * availableNow: the run reads up to each partition's latest offset now, and nothing of partitions
   * that appear later.
   */
  async prepareForAvailableNow(start: Offset | undefined): Promise<void> {
    const { partitions, pending } = await this.pendingOffsets(await this.startingAt(start));
    this.availableNowEnd = offsetsFrom(partitions.map((tp, i) => [tp, pending[i].latest] as const));
  }

  /** The offsets available after `end`, over all partitions, ignoring admission limits. */
  async backlog(end: Offset | undefined): Promise<number> {
    const { partitions, pending: available } = await this.pendingOffsets(
      await this.startingAt(end),
    );
    const pending = this.withinAvailableNow(partitions, available);
    return pending.reduce((sum, p) => sum + Math.max(0, p.latest - p.start), 0);
  }

  /** The records of [start[p], end[p]) of each partition p of `end`. */
  async getBatch(start: Offset | undefined, end: Offset): Promise<Row[]> {
    const from =
      start === undefined
        ? await this.initial.required()
        : checkpointedOffsets(start, this.description);
    const until = checkpointedOffsets(end, this.description);
    const ranges = offsetEntries(until).map(([partition, last]) => ({
      partition,
      start: offsetOf(from, partition) ?? 0,
      end: last,
    }));
    const read = await readOffsetRanges(this.connection(), ranges, {
      source: this.description,
      failOnDataLoss: this.options.failOnDataLoss,
      includeHeaders: this.options.includeHeaders,
    });
    this.lastRead = { range: JSON.stringify([start ?? null, end]), lostOffsets: read.lostOffsets };
    return read.rows;
  }

  /**
   * `lostOffsets`: offsets of the batch that were no longer available and skipped
   * (failOnDataLoss=false); as in Spark, `avgOffsetsBehindLatest`, `maxOffsetsBehindLatest` and
   * `minOffsetsBehindLatest` over the partitions, and their sum `offsetsBehindLatest`: how far the
   * batch's end is behind the latest offsets found when it was planned; with kafka.group.id,
   * `offsetsCommittedToGroup`: 1 when the end offsets reached the consumer group, else 0.
   */
  metrics(start: Offset | undefined, end: Offset): Readonly<Record<string, number>> {
    const range = JSON.stringify([start ?? null, end]);
    const committed = this.lastGroupCommit;
    return {
      lostOffsets: this.lastRead?.range === range ? this.lastRead.lostOffsets : 0,
      ...this.offsetsBehindLatest(end),
      ...(this.groupId === undefined
        ? {}
        : {
            offsetsCommittedToGroup:
              committed?.end === JSON.stringify(end) && committed.failure === undefined ? 1 : 0,
          }),
    };
  }

  /** Why copying the batch's end offsets to the consumer group failed, if it did. */
  warnings(_start: Offset | undefined, end: Offset): readonly string[] {
    const committed = this.lastGroupCommit;
    return committed?.end === JSON.stringify(end) && committed.failure ? [committed.failure] : [];
  }

  /**
   * After the batch ending at `end` committed: copies its end offsets to the consumer group, if one
   * is configured, giving up after GROUP_COPY_TIMEOUT_MS. Never throws: the batch is committed
   * whatever happens here.
   */
  async commit(end: Offset): Promise<void> {
    const groupId = this.groupId;
    if (groupId === undefined || end === null || end === undefined) return;
    const key = JSON.stringify(end);
    const offsets = checkpointedOffsets(end, this.description);
    const ms = Math.min(GROUP_COPY_TIMEOUT_MS, this.options.apiTimeoutMs);
    try {
      await withinDeadline(
        this.connection().commitOffsets(groupId, offsets),
        ms,
        () => new SourceError(`the cluster did not answer within ${ms} ms`, { retriable: true }),
      );
      this.lastGroupCommit = { end: key };
    } catch (e) {
      // reported in the batch's progress (warnings, offsetsCommittedToGroup 0): the copy is for
      // monitoring only, and the next batch's copy carries the offsets forward
      const said = (e instanceof Error ? e.message : String(e)).replace(/\.$/, '');
      this.lastGroupCommit = {
        end: key,
        failure: `${this.description}: the batch committed, but copying its end offsets to consumer group '${groupId}' failed, so tools watching the group see it behind until a later batch's copy succeeds: ${said}. A group with active consumers refuses commits from outside it: give kafka.group.id a group no consumer uses.`,
      };
    }
  }

  async stop(): Promise<void> {
    const reader = this.reader;
    this.reader = undefined;
    await reader?.close();
  }

  private connection(): KafkaPartitionReader {
    return (this.reader ??= this.createReader(this.options));
  }

  /** Where a batch after `offset` starts: there, or at the initial offsets before the first batch. */
  private async startingAt(offset: Offset | undefined): Promise<PartitionOffsets> {
    if (offset !== undefined) return checkpointedOffsets(offset, this.description);
    return this.initial.getOrCreate(() => this.startingOffsets(this.connection()));
  }

  /**
   * Each current partition's pending offsets after `from`: from where the last batch ended (0 for a
   * new partition) to its latest offset. Data already lost fails here when failOnDataLoss; else lost
   * offsets are not counted as pending, and a partition that went back starts from its new end.
   */
  private async pendingOffsets(from: PartitionOffsets) {
    const reader = this.connection();
    const partitions = await this.partitions(reader);
    const bounds = await reader.offsetBounds(partitions);
    this.checkNoneGone(from, partitions);
    const { failOnDataLoss } = this.options;
    const pending = partitions.map((tp, i): PendingOffsets => {
      const begin = offsetOf(from, tp) ?? 0;
      const { earliest, latest } = bounds[i];
      if (latest < begin) {
        if (failOnDataLoss) {
          throw dataLossError(this.description, {
            kind: 'reset',
            partition: tp,
            offset: begin,
            latest,
          });
        }
        return { start: latest, latest }; // go on from the partition's new end
      }
      // Offsets that are lost anyway do not use up the batch's allowance.
      return { start: failOnDataLoss ? begin : Math.max(begin, earliest), latest };
    });
    return { partitions, pending };
  }

  /** The pending offsets an availableNow run may still read: none past its end (all outside one). */
  private withinAvailableNow(
    partitions: readonly TopicPartition[],
    pending: readonly PendingOffsets[],
  ): readonly PendingOffsets[] {
    const end = this.availableNowEnd;
    if (!end) return pending;
    return pending.map((p, i) => {
      const bound = offsetOf(end, partitions[i]) ?? p.start;
      return { start: p.start, latest: Math.max(p.start, Math.min(p.latest, bound)) };
    });
  }

  /**
   * minOffsetsPerTrigger: too few pending offsets, and maxTriggerDelay not over since the last
   * batch. Never in an availableNow run, which would otherwise stop with offsets left unread.
   */
  private heldBack(pending: readonly PendingOffsets[], context: PlanningContext | undefined) {
    const { minOffsetsPerTrigger, maxTriggerDelayMs } = this.options;
    if (minOffsetsPerTrigger === undefined || context === undefined || this.availableNowEnd)
      return false;
    return holdsBatchBack(
      pending,
      { minOffsets: minOffsetsPerTrigger, maxDelayMs: maxTriggerDelayMs },
      { nowMs: context.batchTimestampMs, previousMs: context.previousBatchTimestampMs },
    );
  }

  /** How far `end` is behind the latest offsets found when the batch was planned. */
  private offsetsBehindLatest(end: Offset): Record<string, number> {
    if (!this.latest) return {};
    const until = checkpointedOffsets(end, this.description);
    const behind = offsetEntries(this.latest).map(([tp, latest]) =>
      Math.max(0, latest - (offsetOf(until, tp) ?? 0)),
    );
    if (behind.length === 0) return {};
    const total = behind.reduce((a, b) => a + b, 0);
    return {
      offsetsBehindLatest: total,
      avgOffsetsBehindLatest: total / behind.length,
      maxOffsetsBehindLatest: Math.max(...behind),
      minOffsetsBehindLatest: Math.min(...behind),
    };
  }

  /** The subscribed partitions this source's shard reads. */
  private async partitions(reader: KafkaPartitionReader): Promise<TopicPartition[]> {
    return shardPartitions(
      await subscribedPartitions(this.options.subscription, reader),
      this.shard,
    );
  }

  /** The initial offsets: startingOffsets (or a starting timestamp) in every partition read now. */
  private async startingOffsets(reader: KafkaPartitionReader): Promise<PartitionOffsets> {
    const partitions = await this.partitions(reader);
    return resolveOffsetSpec(
      this.options.startingOffsets,
      partitions,
      reader,
      this.options.startingOffsetsByTimestampStrategy,
    );
  }

  /** A partition read before that no longer exists is data loss (when failOnDataLoss). */
  private checkNoneGone(from: PartitionOffsets, partitions: readonly TopicPartition[]): void {
    if (!this.options.failOnDataLoss) return; // it is simply left out of the next offsets
    const current = new Set(partitions.map(partitionName));
    const gone = offsetEntries(from).find(([tp]) => !current.has(partitionName(tp)));
    if (gone) {
      throw dataLossError(this.description, { kind: 'gone', partition: gone[0], offset: gone[1] });
    }
  }
}
