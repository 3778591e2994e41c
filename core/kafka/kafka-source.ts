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
 * - Planning admits at most maxOffsetsPerTrigger offsets, split by lag (offset-admission.ts).
 * - Lost data (retention, recreated topics, vanished partitions) fails the batch when failOnDataLoss,
 *   else is skipped and counted in the batch's progress as `lostOffsets`.
 */
import { InvalidOptionError } from '../errors.js';
import type { Offset, Source, SourceContext } from '../sources/source.js';
import type { StructType } from '../types/data-types.js';
import type { Row } from '../types/row.js';
import { dataLossError } from './data-loss.js';
import { InitialOffsets } from './initial-offsets.js';
import { resolveOffsetSpec } from './kafka-offset-spec.js';
import type { KafkaSourceOptions } from './kafka-options.js';
import type { KafkaPartitionReader } from './kafka-partition-reader.js';
import { kafkaSchema } from './kafka-schema.js';
import { describeSubscription, subscribedPartitions } from './kafka-subscription.js';
import { kafkajsReader } from './kafkajs-partition-reader.js';
import { admitOffsets } from './offset-admission.js';
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

/** Creates the reader a source uses; tests give other clients through it. */
export type KafkaReaderFactory = (options: KafkaSourceOptions) => KafkaPartitionReader;

/** A Kafka stream. */
export class KafkaSource implements Source {
  readonly schema: StructType;
  readonly description: string;
  private readonly initial: InitialOffsets;
  private reader: KafkaPartitionReader | undefined;
  /** The range the source read last (its JSON) and the offsets it found lost there. */
  private lastRead: { range: string; lostOffsets: number } | undefined;

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
    this.initial = new InitialOffsets(context.metadataStore, this.description);
  }

  /**
   * Plans the next batch: where each current partition's new records end, capped by
   * maxOffsetsPerTrigger. Data already lost is found here too, before an intent fixes the batch.
   */
  async latestOffset(start: Offset | undefined): Promise<Offset | undefined> {
    const reader = this.connection();
    const from =
      start === undefined
        ? await this.initial.getOrCreate(() => this.startingOffsets(reader))
        : checkpointedOffsets(start, this.description);
    const partitions = await subscribedPartitions(this.options.subscription, reader);
    const bounds = await reader.offsetBounds(partitions);
    this.checkNoneGone(from, partitions);
    const { failOnDataLoss } = this.options;
    const pending = partitions.map((tp, i) => {
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
    const ends = admitOffsets(pending, this.options.maxOffsetsPerTrigger);
    const end = offsetsFrom(partitions.map((tp, i) => [tp, ends[i]] as const));
    if (JSON.stringify(end) === JSON.stringify(from)) return start; // nothing new
    return end;
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

  /** `lostOffsets`: offsets of the batch that were no longer available and skipped (failOnDataLoss=false). */
  metrics(start: Offset | undefined, end: Offset): Readonly<Record<string, number>> {
    const range = JSON.stringify([start ?? null, end]);
    return { lostOffsets: this.lastRead?.range === range ? this.lastRead.lostOffsets : 0 };
  }

  async stop(): Promise<void> {
    const reader = this.reader;
    this.reader = undefined;
    await reader?.close();
  }

  private connection(): KafkaPartitionReader {
    return (this.reader ??= this.createReader(this.options));
  }

  /** The initial offsets: startingOffsets (or a starting timestamp) in every partition read now. */
  private async startingOffsets(reader: KafkaPartitionReader): Promise<PartitionOffsets> {
    const partitions = await subscribedPartitions(this.options.subscription, reader);
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
