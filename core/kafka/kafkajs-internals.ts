/**
 * The parts of kafkajs 2.2.4's internal API the Kafka source uses: its
 * Cluster (without a consumer group: metadata, leaders, brokers, group coordinators) and Broker
 * (ListOffsets, Fetch, OffsetCommit), reached through the cluster factory the client keeps under the
 * private symbol `private:Kafka:createCluster`. package.json pins that exact kafkajs version; the
 * shapes are declared here and test/kafka covers them against the mock cluster.
 */
import type { Kafka } from 'kafkajs';
import { SourceError } from '../errors.js';
import type { AbortedTransaction, FetchedRecord } from './kafkajs-fetched-records.js';

/** kafkajs's internal Cluster. */
export interface InternalCluster {
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  /** The cached metadata, refreshed when stale; null when the last refresh failed. */
  metadata(): Promise<{
    topicMetadata: {
      topic: string;
      isInternal?: boolean;
      partitionMetadata: { partitionId: number }[];
    }[];
  } | null>;
  refreshMetadata(): Promise<void>;
  addMultipleTargetTopics(topics: string[]): Promise<void>;
  findLeaderForPartitions(topic: string, partitions: number[]): Record<string, number[]>;
  findBroker(node: { nodeId: string }): Promise<InternalBroker>;
  findGroupCoordinator(group: { groupId: string }): Promise<InternalBroker>;
}

/** kafkajs's internal Broker. */
export interface InternalBroker {
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
  /** Fails with the first partition's error when the broker refuses a commit. */
  offsetCommit(request: {
    groupId: string;
    groupGenerationId: number;
    memberId: string;
    topics: { topic: string; partitions: { partition: number; offset: string }[] }[];
  }): Promise<unknown>;
}

/** Creates an internal cluster client with the Kafka client's brokers, security and retries. */
export type ClusterFactory = (options: {
  metadataMaxAge?: number;
  allowAutoTopicCreation: boolean;
  isolationLevel: number;
}) => InternalCluster;

/** The client's internal cluster factory. */
export function internalClusterFactory(kafka: Kafka): ClusterFactory {
  const symbol = Object.getOwnPropertySymbols(kafka).find(
    (s) => s.description === 'private:Kafka:createCluster',
  );
  const factory: unknown = symbol && (kafka as unknown as Record<symbol, unknown>)[symbol];
  if (typeof factory !== 'function') {
    throw new SourceError(
      "The installed kafkajs has no internal cluster factory ('private:Kafka:createCluster'): the Kafka source needs kafkajs 2.2.4, the version package.json pins. Reinstall with `npm ci`.",
    );
  }
  return factory as ClusterFactory;
}

/**
 * kafkajs marks errors worth retrying (connections, leaders, timeouts) with `retriable`; when its own
 * retries ran out, it wraps the last error, which tells whether a later attempt may succeed.
 */
export function isRetriableKafkajsError(e: unknown): boolean {
  const error = e as { name?: unknown; retriable?: unknown; cause?: unknown } | null;
  if (error?.name === 'KafkaJSNumberOfRetriesExceeded') return isRetriableKafkajsError(error.cause);
  return error?.retriable === true;
}

/** True when the cluster refused the client's SASL credentials (anywhere in kafkajs's cause chain). */
export function isSaslAuthenticationFailure(e: unknown): boolean {
  for (let error = e as { name?: unknown; type?: unknown; cause?: unknown } | null; error;) {
    if (error.name === 'KafkaJSSASLAuthenticationError') return true;
    if (error.type === 'SASL_AUTHENTICATION_FAILED') return true;
    error = error.cause as typeof error;
  }
  return false;
}
