/**
 * Which Kafka partitions a shard of a query reads: partition p of every topic goes to shard
 * p mod N. Keyed producers put a key in the same partition number of every topic with the same
 * partition count (Kafka's default partitioner), so topics keyed alike are read by the same shard,
 * as Kafka Streams co-partitions them. Adding partitions to a topic moves no existing one.
 */
import type { ShardIdentity } from '../checkpoint/shard-identity.js';
import type { TopicPartition } from './partition-offsets.js';

/** The shard (0 to `shards - 1`) that reads partition `partition`. */
export function kafkaPartitionShard(partition: number, shards: number): number {
  return partition % shards;
}

/** The partitions of `partitions` that shard `identity` reads, in their order. */
export function shardPartitions(
  partitions: readonly TopicPartition[],
  identity: ShardIdentity,
): TopicPartition[] {
  return partitions.filter(
    (tp) => kafkaPartitionShard(tp.partition, identity.shards) === identity.shard,
  );
}
