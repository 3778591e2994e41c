/**
 * Reads a batch's offset ranges, one per partition, into rows, applying the failOnDataLoss policy:
 * offsets the partition no longer holds fail the batch (dataLossError), or are skipped and counted.
 * Rows come partition by partition in topic-partition order, each partition's in offset order, so the
 * same ranges always give the same rows in the same order while the records exist.
 */
import { SourceError } from '../errors.js';
import type { Row } from '../types/row.js';
import { dataLossError } from './data-loss.js';
import type { KafkaPartitionReader, KafkaRecord } from './kafka-partition-reader.js';
import { kafkaRow } from './kafka-schema.js';
import { compareTopicPartitions, partitionName, type TopicPartition } from './partition-offsets.js';

/** One partition's part of a batch: offsets [start, end). */
export interface OffsetRange {
  readonly partition: TopicPartition;
  readonly start: number;
  readonly end: number;
}

/** How to read. */
export interface RangeReadOptions {
  /** Names the source in errors. */
  readonly source: string;
  readonly failOnDataLoss: boolean;
  readonly includeHeaders: boolean;
}

/** The rows read and the offsets skipped because they were lost. */
export interface RangesRead {
  readonly rows: Row[];
  readonly lostOffsets: number;
}

/** How often a range is narrowed to what the partition holds before giving up (retention racing the read). */
const NARROWING_ATTEMPTS = 5;

/** Reads `ranges` (empty ones are skipped) with `reader`. */
export async function readOffsetRanges(
  reader: KafkaPartitionReader,
  ranges: readonly OffsetRange[],
  options: RangeReadOptions,
): Promise<RangesRead> {
  const ordered = ranges
    .filter((r) => r.start < r.end)
    .sort((a, b) => compareTopicPartitions(a.partition, b.partition));
  const parts = await Promise.all(ordered.map((r) => readRange(reader, r, options)));
  const rows: Row[] = [];
  let lostOffsets = 0;
  parts.forEach((part, i) => {
    for (const record of part.records) {
      rows.push(kafkaRow(ordered[i].partition, record, options.includeHeaders));
    }
    lostOffsets += part.lost;
  });
  return { rows, lostOffsets };
}

/** One range; when part of it is lost and loss is tolerated, what is left of it. */
async function readRange(
  reader: KafkaPartitionReader,
  range: OffsetRange,
  options: RangeReadOptions,
): Promise<{ records: KafkaRecord[]; lost: number }> {
  const { partition } = range;
  let { start, end } = range;
  let lost = 0;
  for (let attempt = 1; start < end; attempt++) {
    const read = await reader.readRange(partition, start, end);
    if (read.kind === 'records') return { records: read.records, lost };
    if (options.failOnDataLoss) {
      const { earliest, latest } = read;
      throw dataLossError(options.source, {
        kind: 'offsets',
        partition,
        start,
        end,
        earliest,
        latest,
      });
    }
    if (attempt === NARROWING_ATTEMPTS) {
      throw new SourceError(
        `${options.source}: ${partitionName(partition)} kept losing offsets while being read (now it holds [${read.earliest}, ${read.latest})). Run the batch again.`,
        { retriable: true },
      );
    }
    const kept = { start: Math.max(start, read.earliest), end: Math.min(end, read.latest) };
    if (kept.start >= kept.end) return { records: [], lost: lost + (end - start) };
    lost += kept.start - start + (end - kept.end);
    ({ start, end } = kept);
  }
  return { records: [], lost };
}
