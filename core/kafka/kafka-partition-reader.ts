/**
 * The Kafka client as the source sees it: list topics and partitions, ask for offsets, and read one
 * partition's records in [start, end). Nothing more, so that another client can replace kafkajs
 * without touching the source (kafkajs-partition-reader.ts is the implementation).
 *
 * A reader never joins a consumer group: which records a batch reads is decided by the checkpoint's
 * intent alone, and a group rebalance would cost seconds of a paid invocation. It can copy offsets to
 * a group (`commitOffsets`) for tools that watch consumer groups' lag; nothing reads them back.
 */
import type { PartitionOffsets, TopicPartition } from './partition-offsets.js';

/**
 * Which records of transactional producers a reader sees: only committed ones (records of open
 * transactions stay invisible until they end), or all.
 */
export type IsolationLevel = 'read_committed' | 'read_uncommitted';

/** A record header; a record may carry several with the same key. */
export interface KafkaHeader {
  readonly key: string;
  readonly value: Uint8Array | null;
}

/** One record of a partition. */
export interface KafkaRecord {
  readonly offset: number;
  readonly key: Uint8Array | null;
  readonly value: Uint8Array | null;
  /** Milliseconds since the epoch. */
  readonly timestampMs: number;
  /** 0: the producer's create time; 1: the broker's log-append time (Kafka's TimestampType). */
  readonly timestampType: number;
  readonly headers: readonly KafkaHeader[];
}

/**
 * The offsets a partition holds now: records from `earliest` (the log start) up to, not including,
 * `latest` (the end readers may see: the last stable offset under read_committed).
 */
export interface OffsetBounds {
  readonly earliest: number;
  readonly latest: number;
}

/**
 * The outcome of reading [start, end): every record in it (offsets may have gaps: compaction,
 * transaction markers, aborted transactions), or `unavailable` when part of the range is not in the
 * partition's log now (deleted by retention, or beyond its end), with the bounds it does hold.
 */
export type RangeRead =
  | { readonly kind: 'records'; readonly records: KafkaRecord[] }
  | ({ readonly kind: 'unavailable' } & OffsetBounds);

/** Reads topics' metadata, offsets and records. */
export interface KafkaPartitionReader {
  /** The cluster's topics, internal topics (such as `__consumer_offsets`) excluded. */
  listTopics(): Promise<string[]>;
  /** The partitions of these topics, in topic-partition order; a topic that does not exist has none. */
  partitions(topics: readonly string[]): Promise<TopicPartition[]>;
  /** The offset bounds of each partition, in the order given. */
  offsetBounds(partitions: readonly TopicPartition[]): Promise<OffsetBounds[]>;
  /**
   * For each partition, the earliest offset whose record's timestamp is at or after the given one
   * (milliseconds since the epoch), or null when no record is that recent.
   */
  offsetsForTimestamps(
    requests: readonly { readonly partition: TopicPartition; readonly timestampMs: number }[],
  ): Promise<(number | null)[]>;
  /** The records of one partition with offsets in [start, end). */
  readRange(partition: TopicPartition, start: number, end: number): Promise<RangeRead>;
  /**
   * Commits `offsets` (per partition, the next offset to read) to consumer group `groupId` as a
   * client outside the group; fails when the group has active members.
   */
  commitOffsets(groupId: string, offsets: PartitionOffsets): Promise<void>;
  /** Closes the reader's connections. */
  close(): Promise<void>;
}
