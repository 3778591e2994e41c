/**
 * Where a read starts or ends, as the options `startingOffsets`, `endingOffsets`,
 * `startingTimestamp`, `startingOffsetsByTimestamp`, `endingTimestamp` and `endingOffsetsByTimestamp`
 * give it, and its resolution into one offset per partition against the cluster.
 *
 * As in Spark, a per-partition option must name exactly the partitions being read: a partition left
 * out (or one that is not read) is far more likely a mistake than an intent.
 */
import { InvalidOptionError, SourceError } from '../errors.js';
import type { KafkaPartitionReader } from './kafka-partition-reader.js';
import {
  offsetOf,
  offsetsFrom,
  offsetEntries,
  partitionName,
  type PartitionOffsets,
  type TopicPartition,
} from './partition-offsets.js';

/** In a per-partition offsets option, -2 means the partition's earliest offset, -1 its latest. */
export const EARLIEST_OFFSET = -2;
/** See EARLIEST_OFFSET. */
export const LATEST_OFFSET = -1;

/** A starting or ending position. `option` names the option it came from, for messages. */
export type OffsetSpec =
  | { readonly kind: 'earliest' }
  | { readonly kind: 'latest' }
  | { readonly kind: 'offsets'; readonly option: string; readonly offsets: PartitionOffsets }
  | { readonly kind: 'timestamps'; readonly option: string; readonly timestamps: PartitionOffsets }
  | { readonly kind: 'timestamp'; readonly option: string; readonly timestampMs: number };

/**
 * When no record is as recent as a timestamp: fail (`error`, Spark's default for a start) or use the
 * partition's latest offset (`latest`; always so for an end).
 */
export type NoOffsetForTimestamp = 'error' | 'latest';

/** The offset `spec` names in each of `partitions`. */
export async function resolveOffsetSpec(
  spec: OffsetSpec,
  partitions: readonly TopicPartition[],
  reader: KafkaPartitionReader,
  noOffsetForTimestamp: NoOffsetForTimestamp,
): Promise<PartitionOffsets> {
  const bounds = () => reader.offsetBounds(partitions);
  switch (spec.kind) {
    case 'earliest':
      return zip(
        partitions,
        (await bounds()).map((b) => b.earliest),
      );
    case 'latest':
      return zip(
        partitions,
        (await bounds()).map((b) => b.latest),
      );
    case 'offsets': {
      checkCoversExactly(spec.option, spec.offsets, partitions);
      const given = partitions.map((tp) => offsetOf(spec.offsets, tp)!);
      const special = given.some((o) => o === EARLIEST_OFFSET || o === LATEST_OFFSET);
      const known = special ? await bounds() : [];
      return zip(
        partitions,
        given.map((o, i) =>
          o === EARLIEST_OFFSET ? known[i].earliest : o === LATEST_OFFSET ? known[i].latest : o,
        ),
      );
    }
    case 'timestamps':
    case 'timestamp': {
      if (spec.kind === 'timestamps') checkCoversExactly(spec.option, spec.timestamps, partitions);
      const requests = partitions.map((partition) => ({
        partition,
        timestampMs:
          spec.kind === 'timestamp' ? spec.timestampMs : offsetOf(spec.timestamps, partition)!,
      }));
      const found = await reader.offsetsForTimestamps(requests);
      const latest = found.includes(null) ? await bounds() : [];
      return zip(
        partitions,
        found.map((offset, i) => {
          if (offset !== null) return offset;
          if (noOffsetForTimestamp === 'latest') return latest[i].latest;
          throw new SourceError(
            `Kafka source: ${partitionName(partitions[i])} has no record at or after timestamp ${requests[i].timestampMs} (option ${spec.option}). Give an earlier timestamp, or set startingOffsetsByTimestampStrategy to 'latest' to start such partitions at their latest offset.`,
          );
        }),
      );
    }
  }
}

function zip(partitions: readonly TopicPartition[], offsets: readonly number[]): PartitionOffsets {
  return offsetsFrom(partitions.map((tp, i) => [tp, offsets[i]] as const));
}

function checkCoversExactly(
  option: string,
  given: PartitionOffsets,
  partitions: readonly TopicPartition[],
): void {
  const read = new Set(partitions.map(partitionName));
  const named = offsetEntries(given).map(([tp]) => partitionName(tp));
  const missing = [...read].filter((p) => !named.includes(p));
  const extra = named.filter((p) => !read.has(p));
  if (missing.length > 0 || extra.length > 0) {
    const problems = [
      missing.length > 0 ? `it leaves out ${missing.join(', ')}` : '',
      extra.length > 0 ? `it names ${extra.join(', ')}, which the source does not read` : '',
    ].filter(Boolean);
    throw new InvalidOptionError(
      `Invalid option ${option}: ${problems.join(' and ')}. A per-partition ${option} must name every partition the source reads (now: ${[...read].join(', ') || 'none'}).`,
    );
  }
}
