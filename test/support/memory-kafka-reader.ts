/**
 * A KafkaPartitionReader over partitions held in memory, for tests of the Kafka source's planning
 * without a cluster: records, partitions and retention (records deleted from the start of a
 * partition) are changed at will, including what the mock cluster cannot do (adding partitions to a
 * topic, looking offsets up by timestamp).
 */
import type {
  KafkaPartitionReader,
  KafkaRecord,
  OffsetBounds,
  RangeRead,
} from '../../core/kafka/kafka-partition-reader.js';
import type { PartitionOffsets, TopicPartition } from '../../core/kafka/partition-offsets.js';

interface Partition {
  earliest: number;
  /** Records from offset 0; those before `earliest` are deleted. */
  records: KafkaRecord[];
}

/** Kafka in memory. */
export class MemoryKafkaReader implements KafkaPartitionReader {
  private readonly topics = new Map<string, Partition[]>();
  /** The offsets last committed to each consumer group. */
  readonly committed = new Map<string, PartitionOffsets>();
  /** When set, commits to consumer groups fail with it (as when the group coordinator is down). */
  commitFailure: Error | undefined;

  /** Creates `topic` with `partitions` empty partitions (or adds partitions up to that count). */
  createTopic(topic: string, partitions: number): void {
    const list = this.topics.get(topic) ?? [];
    while (list.length < partitions) list.push({ earliest: 0, records: [] });
    this.topics.set(topic, list);
  }

  /** Removes a topic. */
  deleteTopic(topic: string): void {
    this.topics.delete(topic);
  }

  /** Appends records valued `<topic>-<partition>-<offset>`, with timestamps `timestampMs`, +1 each. */
  append(topic: string, partition: number, count: number, timestampMs = 1_000): void {
    const p = this.partition({ topic, partition });
    for (let i = 0; i < count; i++) {
      const offset = p.records.length;
      p.records.push({
        offset,
        key: null,
        value: Buffer.from(`${topic}-${partition}-${offset}`),
        timestampMs: timestampMs + i,
        timestampType: 0,
        headers: [],
      });
    }
  }

  /** Retention: deletes the records before `offset`. */
  deleteBefore(topic: string, partition: number, offset: number): void {
    this.partition({ topic, partition }).earliest = offset;
  }

  /** Empties a partition and starts its offsets again from 0, as when a topic is recreated. */
  truncate(topic: string, partition: number): void {
    Object.assign(this.partition({ topic, partition }), { earliest: 0, records: [] });
  }

  async listTopics(): Promise<string[]> {
    return [...this.topics.keys()].sort();
  }

  async partitions(topics: readonly string[]): Promise<TopicPartition[]> {
    return [...topics]
      .sort()
      .flatMap((topic) =>
        (this.topics.get(topic) ?? []).map((_, partition) => ({ topic, partition })),
      );
  }

  async offsetBounds(partitions: readonly TopicPartition[]): Promise<OffsetBounds[]> {
    return partitions.map((tp) => this.bounds(tp));
  }

  async offsetsForTimestamps(
    requests: readonly { partition: TopicPartition; timestampMs: number }[],
  ): Promise<(number | null)[]> {
    return requests.map(({ partition, timestampMs }) => {
      const p = this.partition(partition);
      const found = p.records.find((r) => r.offset >= p.earliest && r.timestampMs >= timestampMs);
      return found ? found.offset : null;
    });
  }

  async readRange(tp: TopicPartition, start: number, end: number): Promise<RangeRead> {
    const bounds = this.bounds(tp);
    if (start < bounds.earliest || end > bounds.latest) return { kind: 'unavailable', ...bounds };
    return { kind: 'records', records: this.partition(tp).records.slice(start, end) };
  }

  async commitOffsets(groupId: string, offsets: PartitionOffsets): Promise<void> {
    if (this.commitFailure) throw this.commitFailure;
    this.committed.set(groupId, offsets);
  }

  async close(): Promise<void> {}

  private bounds(tp: TopicPartition): OffsetBounds {
    const p = this.partition(tp);
    return { earliest: p.earliest, latest: p.records.length };
  }

  private partition(tp: TopicPartition): Partition {
    const p = this.topics.get(tp.topic)?.[tp.partition];
    if (!p) throw new Error(`no partition ${tp.topic}-${tp.partition}`);
    return p;
  }
}
