/**
 * Which partitions a Kafka source reads: Spark's three ways to name them. `subscribe` and
 * `subscribePattern` follow the cluster (partitions and, for a pattern, topics added later join the
 * next batch); `assign` is a fixed list.
 */
import { SourceError } from '../errors.js';
import type { KafkaPartitionReader } from './kafka-partition-reader.js';
import { compareTopicPartitions, partitionName, type TopicPartition } from './partition-offsets.js';

/** The partitions a source reads, as the user named them. */
export type Subscription =
  | { readonly kind: 'subscribe'; readonly topics: readonly string[] }
  /**
   * Topics whose whole name matches `pattern` (as Java's `Pattern.matches`), internal topics
   * excluded; `matcher` is the pattern anchored at both ends.
   */
  | { readonly kind: 'subscribePattern'; readonly pattern: string; readonly matcher: RegExp }
  | { readonly kind: 'assign'; readonly partitions: readonly TopicPartition[] };

/** A short text for progress reports: `clicks,views`, `pattern clicks-.*`, `clicks-0,clicks-1`. */
export function describeSubscription(subscription: Subscription): string {
  switch (subscription.kind) {
    case 'subscribe':
      return subscription.topics.join(',');
    case 'subscribePattern':
      return `pattern ${subscription.pattern}`;
    case 'assign':
      return subscription.partitions.map(partitionName).join(',');
  }
}

/**
 * The partitions the subscription names now, in topic-partition order. Subscribed topics that do not
 * exist (yet) have none. Assigned partitions must exist: reading a partition that is not there would
 * silently read nothing.
 */
export async function subscribedPartitions(
  subscription: Subscription,
  reader: KafkaPartitionReader,
): Promise<TopicPartition[]> {
  switch (subscription.kind) {
    case 'subscribe':
      return reader.partitions(subscription.topics);
    case 'subscribePattern': {
      const { matcher } = subscription;
      const topics = (await reader.listTopics()).filter((t) => matcher.test(t));
      return topics.length === 0 ? [] : reader.partitions(topics);
    }
    case 'assign': {
      const assigned = [...subscription.partitions].sort(compareTopicPartitions);
      const existing = new Set(
        (await reader.partitions([...new Set(assigned.map((p) => p.topic))])).map(partitionName),
      );
      const missing = assigned.filter((p) => !existing.has(partitionName(p)));
      if (missing.length > 0) {
        throw new SourceError(
          `Kafka source: assigned partitions ${missing.map(partitionName).join(', ')} do not exist. Create them, or change the option assign.`,
        );
      }
      return assigned;
    }
  }
}
