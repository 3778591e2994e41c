/**
 * A bounded read of Kafka (`session.read.format('kafka')`): the records of [startingOffsets,
 * endingOffsets) of every partition the subscription names, resolved each time the DataFrame runs
 * (as Spark resolves them per query), read without a consumer group, and disconnected afterwards.
 */
import { SourceError } from '../errors.js';
import type { Row } from '../types/row.js';
import { resolveOffsetSpec } from './kafka-offset-spec.js';
import type { KafkaSourceOptions } from './kafka-options.js';
import { describeSubscription, subscribedPartitions } from './kafka-subscription.js';
import type { KafkaReaderFactory } from './kafka-source.js';
import { kafkajsReader } from './kafkajs-partition-reader.js';
import { offsetOf, partitionName } from './partition-offsets.js';
import { readOffsetRanges } from './read-offset-ranges.js';

/** The scan of a bounded Kafka relation. */
export function kafkaBatchScan(
  options: KafkaSourceOptions,
  createReader: KafkaReaderFactory = kafkajsReader,
): () => Promise<Row[]> {
  const source = `Kafka[${describeSubscription(options.subscription)}]`;
  return async () => {
    const reader = createReader(options);
    try {
      const partitions = await subscribedPartitions(options.subscription, reader);
      const [start, end] = await Promise.all([
        resolveOffsetSpec(
          options.startingOffsets,
          partitions,
          reader,
          options.startingOffsetsByTimestampStrategy,
        ),
        // as in Spark, an ending timestamp no record reaches means the partition's latest offset
        resolveOffsetSpec(options.endingOffsets, partitions, reader, 'latest'),
      ]);
      const ranges = partitions.map((partition) => ({
        partition,
        start: offsetOf(start, partition)!,
        end: offsetOf(end, partition)!,
      }));
      const reversed = ranges.find((r) => r.start > r.end);
      if (reversed) {
        throw new SourceError(
          `${source}: ${partitionName(reversed.partition)} would be read from offset ${reversed.start} to ${reversed.end}, which is backwards. Check startingOffsets and endingOffsets (or their timestamp forms).`,
        );
      }
      const read = await readOffsetRanges(reader, ranges, {
        source,
        failOnDataLoss: options.failOnDataLoss,
        includeHeaders: options.includeHeaders,
      });
      return read.rows;
    } finally {
      await reader.close();
    }
  };
}
