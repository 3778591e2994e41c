import { describe, expect, it } from 'vitest';
import { kafkaPartitionShard, shardPartitions } from '../../core/kafka/shard-partitions.js';

describe('Kafka partitions split across shards', () => {
  it.each([
    // partition, shards, shard
    [0, 1, 0],
    [5, 1, 0],
    [0, 4, 0],
    [1, 4, 1],
    [3, 4, 3],
    [4, 4, 0],
    [7, 4, 3],
    [11, 3, 2],
  ])('partition %i of %i shards goes to shard %i', (partition, shards, shard) => {
    expect(kafkaPartitionShard(partition, shards)).toBe(shard);
  });

  it('gives each shard the same partition numbers of every topic, each partition to one shard', () => {
    const partitions = ['clicks', 'views'].flatMap((topic) =>
      Array.from({ length: 6 }, (_, partition) => ({ topic, partition })),
    );
    const shares = [0, 1, 2, 3].map((shard) =>
      shardPartitions(partitions, { stage: 0, shard, shards: 4 }),
    );
    expect(shares[1]).toEqual([
      { topic: 'clicks', partition: 1 },
      { topic: 'clicks', partition: 5 },
      { topic: 'views', partition: 1 },
      { topic: 'views', partition: 5 },
    ]);
    expect(shares.flat().length).toBe(partitions.length);
    expect(new Set(shares.flat().map((tp) => `${tp.topic}-${tp.partition}`)).size).toBe(12);
  });

  it('leaves a shard with more shards than partitions with none', () => {
    const partitions = [{ topic: 'clicks', partition: 0 }];
    expect(shardPartitions(partitions, { stage: 0, shard: 1, shards: 2 })).toEqual([]);
  });
});
