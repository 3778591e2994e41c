/**
 * KafkaPartitionReader on kafkajs, without a consumer group.
 *
 * kafkajs has no public `assign()`: every consumer joins a group, and an empty group's first join
 * waits for the broker's initial rebalance delay (3 s by default). Its internal Cluster and Broker
 * can do what a reader needs without one (kafkajs-internals.ts): `metadata`,
 * `addMultipleTargetTopics`, `findLeaderForPartitions`, `findBroker`, the broker's `listOffsets` and
 * `fetch`, and, to copy a batch's offsets to a consumer group for monitoring, `findGroupCoordinator`
 * and `offsetCommit` as a client outside the group (generation -1), which brokers accept for a group
 * without active members. Nothing outside core/kafka knows about kafkajs.
 *
 * The reader works on a KafkajsConnection: its own (closed by `close`), or one shared by the process
 * (kafka-connection-pool.ts; `close` leaves it open for the next query or invocation).
 *
 * Failures are classified here: a leader that moved or a dropped connection is retried after a
 * metadata refresh; what still fails becomes a SourceError naming the partition (retriable when
 * kafkajs says so); an offset out of range is an outcome (`unavailable`), not an error.
 */
import { SourceError } from '../errors.js';
import { sharedKafkaConnection } from './kafka-connection-pool.js';
import type {
  IsolationLevel,
  KafkaPartitionReader,
  KafkaRecord,
  OffsetBounds,
  RangeRead,
} from './kafka-partition-reader.js';
import type { KafkaSecurity } from './kafka-security.js';
import { KafkajsConnection, type KafkaConnectionConfig } from './kafkajs-connection.js';
import { selectRecords } from './kafkajs-fetched-records.js';
import {
  type InternalBroker,
  type InternalCluster,
  isRetriableKafkajsError,
} from './kafkajs-internals.js';
import {
  compareTopicPartitions,
  offsetEntries,
  partitionName,
  type PartitionOffsets,
  type TopicPartition,
} from './partition-offsets.js';

/** How to reach the cluster and what to read. */
export interface KafkajsReaderConfig extends KafkaConnectionConfig {
  /** @default 'read_committed' */
  readonly isolationLevel?: IsolationLevel;
}

/** kafkajs's wire values for the isolation levels. */
const ISOLATION = { read_uncommitted: 0, read_committed: 1 } as const;
/** ListOffsets' special timestamps: the log start and the log end. */
const EARLIEST = -2;
const LATEST = -1;
/** Per-partition and per-request fetch sizes: the Java consumer's defaults. */
const PARTITION_FETCH_BYTES = 1024 * 1024;
const FETCH_BYTES = 50 * 1024 * 1024;
/** Attempts of a request whose leader or coordinator moved or whose connection dropped. */
const ATTEMPTS = 3;
const RETRY_BACKOFF_MS = 100;
/** An OffsetCommit from outside the group: no generation, no member. */
const NO_GENERATION = -1;

/** A reader over kafkajs's internal cluster client; connects on first use. */
export class KafkajsPartitionReader implements KafkaPartitionReader {
  private readonly isolation: number;
  private readonly connection: KafkajsConnection;
  private readonly ownsConnection: boolean;

  /** Reads on `connection` when given (left open by `close`), else on a connection of its own. */
  constructor(config: KafkajsReaderConfig, connection?: KafkajsConnection) {
    this.connection = connection ?? new KafkajsConnection(config);
    this.ownsConnection = connection === undefined;
    this.isolation = ISOLATION[config.isolationLevel ?? 'read_committed'];
  }

  async listTopics(): Promise<string[]> {
    const metadata = await this.metadata('list topics');
    return metadata.topicMetadata
      .filter((t) => !t.isInternal && !t.topic.startsWith('__'))
      .map((t) => t.topic)
      .sort();
  }

  async partitions(topics: readonly string[]): Promise<TopicPartition[]> {
    // Metadata of all topics rather than of the named ones: kafkajs fails the whole request when
    // one named topic does not exist, and brokers that ignore allowAutoTopicCreation (the mock
    // cluster does) would create it. A subscribed topic that is not there yet simply has no
    // partitions.
    const metadata = await this.metadata('list partitions');
    const wanted = new Set(topics);
    return metadata.topicMetadata
      .filter((t) => wanted.has(t.topic))
      .flatMap((t) =>
        t.partitionMetadata.map((p) => ({ topic: t.topic, partition: p.partitionId })),
      )
      .sort(compareTopicPartitions);
  }

  async offsetBounds(partitions: readonly TopicPartition[]): Promise<OffsetBounds[]> {
    const [earliest, latest] = await Promise.all([
      this.listOffsets(partitions.map((partition) => ({ partition, timestamp: EARLIEST }))),
      this.listOffsets(partitions.map((partition) => ({ partition, timestamp: LATEST }))),
    ]);
    return partitions.map((_, i) => ({ earliest: earliest[i], latest: latest[i] }));
  }

  async offsetsForTimestamps(
    requests: readonly { readonly partition: TopicPartition; readonly timestampMs: number }[],
  ): Promise<(number | null)[]> {
    const offsets = await this.listOffsets(
      requests.map((r) => ({ partition: r.partition, timestamp: r.timestampMs })),
    );
    // the broker answers -1 when no record is at or after the timestamp
    return offsets.map((o) => (o < 0 ? null : o));
  }

  async readRange(tp: TopicPartition, start: number, end: number): Promise<RangeRead> {
    const records: KafkaRecord[] = [];
    let next = start;
    while (next < end) {
      let partition;
      try {
        partition = await this.fetch(tp, next);
      } catch (e) {
        if ((e as Error).name !== 'KafkaJSOffsetOutOfRange') {
          throw this.failure(`read ${partitionName(tp)} from offset ${next}`, e);
        }
        return { kind: 'unavailable', ...(await this.offsetBounds([tp]))[0] };
      }
      const selected = selectRecords(partition.messages, next, end, partition.abortedTransactions);
      if (selected.nextOffset === next) {
        // Nothing at `next`: the log ends before `end` (it was truncated or recreated since the
        // range was planned), or retention removed `next` after the fetch had been answered.
        const bounds = (await this.offsetBounds([tp]))[0];
        if (bounds.latest <= next || bounds.earliest > next) {
          return { kind: 'unavailable', ...bounds };
        }
        throw new SourceError(
          `Kafka returned no records of ${partitionName(tp)} at offset ${next}, although the partition holds offsets [${bounds.earliest}, ${bounds.latest}). Run the batch again.`,
          { retriable: true },
        );
      }
      for (const r of selected.records) records.push(r); // not push(...): a large fetch overflows the stack
      next = selected.nextOffset;
    }
    return { kind: 'records', records };
  }

  async commitOffsets(groupId: string, offsets: PartitionOffsets): Promise<void> {
    const entries = offsetEntries(offsets);
    const byTopic = new Map<string, { partition: number; offset: string }[]>();
    for (const [tp, offset] of entries) {
      byTopic.set(tp.topic, [
        ...(byTopic.get(tp.topic) ?? []),
        { partition: tp.partition, offset: String(offset) },
      ]);
    }
    const topics = [...byTopic].map(([topic, partitions]) => ({ topic, partitions }));
    const what = `commit offsets of ${listNames(entries.map(([tp]) => tp))} to consumer group '${groupId}'`;
    try {
      await this.connection.use(what, (cluster) =>
        this.retrying(cluster, async () => {
          const coordinator = await cluster.findGroupCoordinator({ groupId });
          await coordinator.offsetCommit({
            groupId,
            groupGenerationId: NO_GENERATION,
            memberId: '',
            topics,
          });
        }),
      );
    } catch (e) {
      throw this.failure(what, e);
    }
  }

  async close(): Promise<void> {
    if (this.ownsConnection) await this.connection.disconnect();
  }

  /** One fetch of a partition from `offset` on its leader, up to the per-partition size. */
  private async fetch(tp: TopicPartition, offset: number) {
    const response = await this.onLeaders(`read ${partitionName(tp)}`, [tp], async (broker) =>
      broker.fetch({
        isolationLevel: this.isolation,
        // only offsets below the planned end are fetched, and those exist: never wait for new data
        maxWaitTime: 0,
        minBytes: 1,
        maxBytes: FETCH_BYTES,
        topics: [
          {
            topic: tp.topic,
            partitions: [
              {
                partition: tp.partition,
                fetchOffset: String(offset),
                maxBytes: PARTITION_FETCH_BYTES,
              },
            ],
          },
        ],
      }),
    );
    // a response without the partition (a broker may leave it out) reads as an empty fetch
    return response[0].responses[0]?.partitions[0] ?? { messages: [] };
  }

  /** ListOffsets for each (partition, timestamp), one request per leader; offsets in the order given. */
  private async listOffsets(
    requests: readonly { partition: TopicPartition; timestamp: number }[],
  ): Promise<number[]> {
    const partitions = requests.map((r) => r.partition);
    let responses;
    try {
      responses = await this.onLeaders(`list offsets`, partitions, (broker, onBroker) => {
        const byTopic = new Map<string, { partition: number; timestamp: number }[]>();
        for (const i of onBroker) {
          const { partition, timestamp } = requests[i];
          const list = byTopic.get(partition.topic) ?? [];
          byTopic.set(partition.topic, [...list, { partition: partition.partition, timestamp }]);
        }
        return broker.listOffsets({
          isolationLevel: this.isolation,
          topics: [...byTopic].map(([topic, list]) => ({ topic, partitions: list })),
        });
      });
    } catch (e) {
      throw this.failure(`list offsets of ${listNames(partitions)}`, e);
    }
    const found = new Map<string, number>();
    for (const response of responses) {
      for (const t of response.responses) {
        for (const p of t.partitions) {
          found.set(partitionName({ topic: t.topic, partition: p.partition }), Number(p.offset));
        }
      }
    }
    return requests.map((r) => {
      const offset = found.get(partitionName(r.partition));
      if (offset === undefined) {
        throw new SourceError(
          `Kafka did not return an offset for ${partitionName(r.partition)}. Run the batch again.`,
          { retriable: true },
        );
      }
      return offset;
    });
  }

  /**
   * Runs `work` on the leader of each group of partitions (it receives the indexes of its
   * partitions), retrying all of it after a metadata refresh when a leader moved or a connection
   * failed. The error of the last attempt is thrown as kafkajs raised it.
   */
  private onLeaders<T>(
    what: string,
    partitions: readonly TopicPartition[],
    work: (broker: InternalBroker, indexes: number[]) => Promise<T>,
  ): Promise<T[]> {
    return this.connection.use(what, (cluster) =>
      this.retrying(cluster, async () => {
        await cluster.addMultipleTargetTopics([...new Set(partitions.map((p) => p.topic))]);
        const byLeader = this.leaders(cluster, partitions);
        return Promise.all(
          [...byLeader].map(async ([nodeId, indexes]) =>
            work(await cluster.findBroker({ nodeId }), indexes),
          ),
        );
      }),
    );
  }

  /** `work`, tried again after a metadata refresh while it fails with a retriable error. */
  private async retrying<T>(cluster: InternalCluster, work: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await work();
      } catch (e) {
        if (attempt === ATTEMPTS || !isRetriableKafkajsError(e)) throw e;
        await new Promise((resolve) => setTimeout(resolve, RETRY_BACKOFF_MS * attempt));
        await cluster.refreshMetadata().catch(() => {}); // the next attempt reports what still fails
      }
    }
  }

  /** The indexes of `partitions` grouped by their leader's node id, from the cluster's metadata. */
  private leaders(cluster: InternalCluster, partitions: readonly TopicPartition[]) {
    const byLeader = new Map<string, number[]>();
    partitions.forEach((tp, i) => {
      const leader = Object.entries(cluster.findLeaderForPartitions(tp.topic, [tp.partition]))[0];
      if (!leader) {
        throw new SourceError(`Kafka's metadata has no leader for ${partitionName(tp)}.`, {
          retriable: true,
        });
      }
      byLeader.set(leader[0], [...(byLeader.get(leader[0]) ?? []), i]);
    });
    return byLeader;
  }

  /**
   * The cluster's metadata. kafkajs gives none (null) when its last refresh failed, e.g. while a
   * broker hangs: that is a retriable failure of `what`, not a missing topic.
   */
  private async metadata(what: string) {
    const metadata = await this.request(what, (c) => c.metadata());
    if (!metadata) {
      throw new SourceError(
        `Kafka (${this.connection.brokerList}): could not ${what}: the cluster gave no metadata (its brokers did not answer a metadata request). The batch is tried again by the next trigger.`,
        { retriable: true },
      );
    }
    return metadata;
  }

  /** Runs a metadata request, converting failures. */
  private async request<T>(what: string, work: (cluster: InternalCluster) => Promise<T>) {
    try {
      return await this.connection.use(what, work);
    } catch (e) {
      throw this.failure(what, e);
    }
  }

  private failure(what: string, cause: unknown): SourceError {
    if (cause instanceof SourceError) return cause;
    const message = cause instanceof Error ? cause.message : String(cause);
    return new SourceError(`Kafka (${this.connection.brokerList}): could not ${what}: ${message}`, {
      cause,
      retriable: isRetriableKafkajsError(cause),
    });
  }
}

function listNames(partitions: readonly TopicPartition[]): string {
  const names = partitions.map(partitionName);
  return names.length <= 5
    ? names.join(', ')
    : `${names.slice(0, 5).join(', ')} and ${names.length - 5} more`;
}

/**
 * The reader a Kafka source uses unless given another: kafkajs, on the process's shared connection
 * to the options' brokers with their security settings.
 */
export function kafkajsReader(options: {
  readonly bootstrapServers: readonly string[];
  readonly security: KafkaSecurity;
  readonly isolationLevel: IsolationLevel;
  readonly apiTimeoutMs?: number;
}): KafkaPartitionReader {
  const config = {
    brokers: options.bootstrapServers,
    security: options.security,
    isolationLevel: options.isolationLevel,
    apiTimeoutMs: options.apiTimeoutMs,
  };
  return new KafkajsPartitionReader(config, sharedKafkaConnection(config));
}
