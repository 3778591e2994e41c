/**
 * KafkaPartitionReader on kafkajs, without a consumer group.
 *
 * kafkajs has no public `assign()`: every consumer joins a group, and an empty group's first join
 * waits for the broker's initial rebalance delay (3 s by default). Its internal Cluster and Broker
 * can do what a reader needs without one, so this adapter uses them (DESIGN.md section 9):
 * the client's cluster factory (kept under the private symbol `private:Kafka:createCluster`),
 * `connect`, `metadata`, `addMultipleTargetTopics`, `findLeaderForPartitions`, `findBroker`, and the
 * broker's `listOffsets` and `fetch`. That is kafkajs 2.2.4's internal API: package.json pins that
 * exact version, the shapes used are declared below, and test/kafka covers them against the mock
 * cluster. Nothing outside this file knows about kafkajs.
 *
 * Failures are classified here: a leader that moved or a dropped connection is retried after a
 * metadata refresh; what still fails becomes a SourceError naming the partition (retriable when
 * kafkajs says so); an offset out of range is an outcome (`unavailable`), not an error.
 */
import { Kafka, logLevel } from 'kafkajs';
import { SourceError } from '../errors.js';
import type {
  IsolationLevel,
  KafkaPartitionReader,
  KafkaRecord,
  OffsetBounds,
  RangeRead,
} from './kafka-partition-reader.js';
import {
  type AbortedTransaction,
  type FetchedRecord,
  selectRecords,
} from './kafkajs-fetched-records.js';
import { compareTopicPartitions, partitionName, type TopicPartition } from './partition-offsets.js';

/** How to reach the cluster. */
export interface KafkajsReaderConfig {
  /** `host:port` of one or more brokers. */
  readonly brokers: readonly string[];
  /** @default 'read_committed' */
  readonly isolationLevel?: IsolationLevel;
  /** @default 'sluice' */
  readonly clientId?: string;
}

/** kafkajs's wire values for the isolation levels. */
const ISOLATION = { read_uncommitted: 0, read_committed: 1 } as const;
/** ListOffsets' special timestamps: the log start and the log end. */
const EARLIEST = -2;
const LATEST = -1;
/** Per-partition and per-request fetch sizes: the Java consumer's defaults. */
const PARTITION_FETCH_BYTES = 1024 * 1024;
const FETCH_BYTES = 50 * 1024 * 1024;
/** Attempts of a request whose leader moved or whose connection dropped. */
const ATTEMPTS = 3;
/** Retries of kafkajs's own connection and metadata requests. */
const CLIENT_RETRIES = 2;
const RETRY_BACKOFF_MS = 100;
/** How long cached leader metadata is trusted (kafkajs's default). */
const METADATA_MAX_AGE_MS = 5 * 60_000;

/** The parts of kafkajs 2.2.4's internal Cluster used here. */
interface InternalCluster {
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  metadata(): Promise<{
    topicMetadata: {
      topic: string;
      isInternal?: boolean;
      partitionMetadata: { partitionId: number }[];
    }[];
  }>;
  refreshMetadata(): Promise<void>;
  addMultipleTargetTopics(topics: string[]): Promise<void>;
  findLeaderForPartitions(topic: string, partitions: number[]): Record<string, number[]>;
  findBroker(node: { nodeId: string }): Promise<InternalBroker>;
}

/** The parts of kafkajs 2.2.4's internal Broker used here. */
interface InternalBroker {
  listOffsets(request: {
    isolationLevel: number;
    topics: { topic: string; partitions: { partition: number; timestamp: number }[] }[];
  }): Promise<{
    responses: { topic: string; partitions: { partition: number; offset: string }[] }[];
  }>;
  fetch(request: {
    isolationLevel: number;
    maxWaitTime: number;
    minBytes: number;
    maxBytes: number;
    topics: {
      topic: string;
      partitions: { partition: number; fetchOffset: string; maxBytes: number }[];
    }[];
  }): Promise<{
    responses: {
      partitions: {
        messages: FetchedRecord[];
        abortedTransactions?: AbortedTransaction[];
      }[];
    }[];
  }>;
}

type ClusterFactory = (options: {
  metadataMaxAge?: number;
  allowAutoTopicCreation: boolean;
  isolationLevel: number;
}) => InternalCluster;

/** A reader over kafkajs's internal cluster client; connects on first use. */
export class KafkajsPartitionReader implements KafkaPartitionReader {
  private readonly createCluster: ClusterFactory;
  private readonly isolation: number;
  private connecting: Promise<InternalCluster> | undefined;

  constructor(private readonly config: KafkajsReaderConfig) {
    const kafka = new Kafka({
      clientId: config.clientId ?? 'sluice',
      brokers: [...config.brokers],
      // failures reach the caller as SourceErrors; kafkajs's own console lines would only repeat them
      logLevel: logLevel.NOTHING,
      // kafkajs retries connecting and refreshing metadata for ~10 s by default; an invocation paid
      // per millisecond had better fail within a second and let the next attempt try again
      retry: { retries: CLIENT_RETRIES, initialRetryTime: RETRY_BACKOFF_MS },
    });
    const symbol = Object.getOwnPropertySymbols(kafka).find(
      (s) => s.description === 'private:Kafka:createCluster',
    );
    const factory: unknown = symbol && (kafka as unknown as Record<symbol, unknown>)[symbol];
    if (typeof factory !== 'function') {
      throw new SourceError(
        "The installed kafkajs has no internal cluster factory ('private:Kafka:createCluster'): the Kafka source needs kafkajs 2.2.4, the version package.json pins. Reinstall with `npm ci`.",
      );
    }
    this.createCluster = factory as ClusterFactory;
    this.isolation = ISOLATION[config.isolationLevel ?? 'read_committed'];
  }

  async listTopics(): Promise<string[]> {
    const metadata = await this.request('list topics', (c) => c.metadata());
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
    const metadata = await this.request('list partitions', (c) => c.metadata());
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

  async close(): Promise<void> {
    const connecting = this.connecting;
    this.connecting = undefined;
    if (connecting) await (await connecting.catch(() => undefined))?.disconnect();
  }

  /** One fetch of a partition from `offset` on its leader, up to the per-partition size. */
  private async fetch(tp: TopicPartition, offset: number) {
    const response = await this.onLeaders([tp], async (broker) =>
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
      responses = await this.onLeaders(partitions, (broker, onBroker) => {
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
  private async onLeaders<T>(
    partitions: readonly TopicPartition[],
    work: (broker: InternalBroker, indexes: number[]) => Promise<T>,
  ): Promise<T[]> {
    const cluster = await this.cluster();
    for (let attempt = 1; ; attempt++) {
      try {
        await cluster.addMultipleTargetTopics([...new Set(partitions.map((p) => p.topic))]);
        const byLeader = this.leaders(cluster, partitions);
        return await Promise.all(
          [...byLeader].map(async ([nodeId, indexes]) =>
            work(await cluster.findBroker({ nodeId }), indexes),
          ),
        );
      } catch (e) {
        if (attempt === ATTEMPTS || !isRetriable(e)) throw e;
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

  /** Runs a metadata request, converting failures. */
  private async request<T>(what: string, work: (cluster: InternalCluster) => Promise<T>) {
    try {
      return await work(await this.cluster());
    } catch (e) {
      throw this.failure(what, e);
    }
  }

  /** The connected cluster; a failed connection is tried again by the next call. */
  private cluster(): Promise<InternalCluster> {
    this.connecting ??= (async () => {
      const cluster = this.createCluster({
        // Metadata of the target topics is kept this long; a leader that moved or a partition it
        // does not know yet makes a request refresh it sooner (see onLeaders).
        metadataMaxAge: METADATA_MAX_AGE_MS,
        // a source must not create the topics it reads
        allowAutoTopicCreation: false,
        isolationLevel: this.isolation,
      });
      await cluster.connect();
      return cluster;
    })().catch((e: unknown) => {
      this.connecting = undefined;
      throw this.failure('connect', e);
    });
    return this.connecting;
  }

  private failure(what: string, cause: unknown): SourceError {
    if (cause instanceof SourceError) return cause;
    const message = cause instanceof Error ? cause.message : String(cause);
    return new SourceError(
      `Kafka (${this.config.brokers.join(',')}): could not ${what}: ${message}`,
      { cause, retriable: isRetriable(cause) },
    );
  }
}

/**
 * kafkajs marks errors worth retrying (connections, leaders, timeouts) with `retriable`; when its own
 * retries ran out, it wraps the last error, which tells whether a later attempt may succeed.
 */
function isRetriable(e: unknown): boolean {
  const error = e as { name?: unknown; retriable?: unknown; cause?: unknown } | null;
  if (error?.name === 'KafkaJSNumberOfRetriesExceeded') return isRetriable(error.cause);
  return error?.retriable === true;
}

function listNames(partitions: readonly TopicPartition[]): string {
  const names = partitions.map(partitionName);
  return names.length <= 5
    ? names.join(', ')
    : `${names.slice(0, 5).join(', ')} and ${names.length - 5} more`;
}

/** The reader a Kafka source uses unless given another: kafkajs, on the options' brokers. */
export function kafkajsReader(options: {
  readonly bootstrapServers: readonly string[];
  readonly isolationLevel: IsolationLevel;
}): KafkaPartitionReader {
  return new KafkajsPartitionReader({
    brokers: options.bootstrapServers,
    isolationLevel: options.isolationLevel,
  });
}
