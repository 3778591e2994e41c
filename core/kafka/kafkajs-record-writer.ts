/**
 * KafkaRecordWriter on kafkajs's producer: idempotent, acks=all, one request in flight per broker.
 *
 * Idempotence means the brokers drop the duplicates the producer's own retries would otherwise
 * write (each record carries the producer id and a sequence number per partition). It does not
 * reach across producers: a batch sent again after a crash comes from a new producer id, so the Kafka
 * sink is at-least-once, as Spark's is (kafka-sink.ts). kafkajs's constraints, checked in its
 * source (2.2.4): idempotence requires acks -1 (sendBatch refuses anything else) and at least one
 * retry; it serializes requests per broker itself, and maxInFlightRequests 1 says so for the
 * connection. kafkajs retries an idempotent producer's failures forever unless told otherwise; a
 * batch that cannot be written should fail instead, within the invocation's time, and be run again
 * by the next attempt, so retries are bounded. After any failed send the sequence numbers of the
 * partitions it touched are in doubt, so the producer is discarded and the next send starts afresh.
 *
 * kafkajs asks the cluster's controller for a producer id, even for a non-transactional producer
 * whose id any broker can give (its own source says so, and Java's producer asks the least loaded
 * broker). A cluster that names a controller outside its broker list (librdkafka's mock cluster
 * does) thus refuses every idempotent kafkajs producer; the cluster the producer is built on falls
 * back to a known broker in that case (kafkajs 2.2.4's internal cluster factory, as the reader uses
 * it, see kafkajs-internals.ts).
 *
 * A batch is sent in requests of about `maxRequestBytes`, one after the other: kafkajs puts all of a
 * request's records for a partition into one record batch, and brokers refuse record batches larger
 * than message.max.bytes (1 MB by default).
 */
import type { CompressionTypes, IHeaders, Kafka, Message, Producer } from 'kafkajs';
import { SinkError } from '../errors.js';
import { installedKafkaCredentials } from './installed-kafka-credentials.js';
import type { KafkaCredentials } from './kafka-credentials.js';
import type { KafkaRecordWriter, OutgoingRecord } from './kafka-record-writer.js';
import type { KafkaCompression } from './kafka-sink-options.js';
import { type KafkaSecurity, PLAINTEXT } from './kafka-security.js';
import { isRetriableKafkajsError } from './kafkajs-internals.js';
import { kafkajsSecurityConfig } from './kafkajs-security.js';

/** kafkajs's CompressionTypes.GZIP, spelt out so that kafkajs stays loaded lazily (a type import). */
const KAFKAJS_GZIP = 1 as CompressionTypes;

/** How to reach the cluster, and how large a produce request may grow. */
export interface KafkajsWriterConfig {
  /** `host:port` of one or more brokers. */
  readonly brokers: readonly string[];
  /** @default PLAINTEXT */
  readonly security?: KafkaSecurity;
  /** About how many bytes of records one request carries. */
  readonly maxRequestBytes: number;
  /** How record batches are compressed. @default 'none' */
  readonly compression?: KafkaCompression;
  /** @default 'sluice' */
  readonly clientId?: string;
}

/** Retries of kafkajs's connection and metadata requests (as the reader's). */
const CLIENT_RETRIES = 2;
/** Retries of a produce request: with kafkajs's backoff, about 10 s before the batch fails. */
const PRODUCE_RETRIES = 5;
const RETRY_BACKOFF_MS = 100;
/** A record's size beyond its key, value and headers in a record batch, roughly. */
const RECORD_OVERHEAD_BYTES = 24;

/** The parts of kafkajs 2.2.4's internal Cluster that the controller fallback uses. */
interface ProducerCluster {
  findControllerBroker(): Promise<unknown>;
  findBroker(node: { nodeId: string }): Promise<unknown>;
  readonly brokerPool: { readonly metadata?: { readonly brokers?: { nodeId: number }[] } };
}

/** A writer on an idempotent kafkajs producer; connects on first send. */
export class KafkajsRecordWriter implements KafkaRecordWriter {
  private connecting: Promise<Producer> | undefined;

  constructor(
    private readonly config: KafkajsWriterConfig,
    private readonly credentials: KafkaCredentials = installedKafkaCredentials,
  ) {}

  async send(records: readonly OutgoingRecord[]): Promise<void> {
    if (records.length === 0) return;
    const producer = await this.producer();
    try {
      for (const chunk of requestChunks(records, this.config.maxRequestBytes)) {
        await producer.sendBatch({
          acks: -1,
          compression: this.config.compression === 'gzip' ? KAFKAJS_GZIP : undefined,
          topicMessages: topicMessages(chunk),
        });
      }
    } catch (e) {
      const failure = new SinkError(
        `Kafka (${this.brokerList}): could not write records to ${topicList(records)}: ${message(e)}. The batch's records up to the failure may have been written; running the batch again writes them again, with the same sluice.* headers.`,
        { cause: e, retriable: isRetriableKafkajsError(e) },
      );
      throw await this.discardAfter(failure);
    }
  }

  async close(): Promise<void> {
    const connecting = this.connecting;
    this.connecting = undefined;
    // a producer that failed to connect has nothing to close (its error went to the send that made it)
    const producer = await connecting?.catch(() => undefined);
    await producer?.disconnect();
  }

  private get brokerList(): string {
    return this.config.brokers.join(',');
  }

  /** Closes the producer after a failed send; a failure to close is reported with the send's. */
  private async discardAfter(failure: SinkError): Promise<SinkError> {
    try {
      await this.close();
      return failure;
    } catch (closing) {
      return new SinkError(
        `${failure.message} Closing the producer afterwards failed too: ${message(closing)}.`,
        {
          cause: new AggregateError([failure.cause, closing]),
          retriable: failure.retriable,
        },
      );
    }
  }

  /** The connected producer; a failed connection is tried again by the next send. */
  private producer(): Promise<Producer> {
    this.connecting ??= this.connect().catch((e: unknown) => {
      this.connecting = undefined;
      throw e;
    });
    return this.connecting;
  }

  private async connect(): Promise<Producer> {
    try {
      // loaded on first connect, so a query that writes no Kafka never loads kafkajs
      const { Kafka, logLevel, Partitioners } = await import('kafkajs');
      const kafka = new Kafka({
        clientId: this.config.clientId ?? 'sluice',
        brokers: [...this.config.brokers],
        // failures reach the caller as SinkErrors; kafkajs's own console lines would only repeat them
        logLevel: logLevel.NOTHING,
        retry: { retries: CLIENT_RETRIES, initialRetryTime: RETRY_BACKOFF_MS },
        ...(await kafkajsSecurityConfig(this.config.security ?? PLAINTEXT, this.credentials)),
      });
      withControllerFallback(kafka);
      const producer = kafka.producer({
        idempotent: true,
        maxInFlightRequests: 1,
        retry: { retries: PRODUCE_RETRIES, initialRetryTime: RETRY_BACKOFF_MS },
        // Kafka's default partitioner (murmur2 of the key, as the Java client), said explicitly
        createPartitioner: Partitioners.DefaultPartitioner,
      });
      await producer.connect();
      return producer;
    } catch (e) {
      throw new SinkError(
        `Kafka (${this.brokerList}): could not connect a producer: ${message(e)}.`,
        {
          cause: e,
          retriable: isRetriableKafkajsError(e),
        },
      );
    }
  }
}

/**
 * Makes the clusters `kafka` creates ask a known broker for a producer id when the controller the
 * cluster names is not one of its brokers (see the module doc).
 */
function withControllerFallback(kafka: Kafka): void {
  const symbol = Object.getOwnPropertySymbols(kafka).find(
    (s) => s.description === 'private:Kafka:createCluster',
  );
  const holder = kafka as unknown as Record<symbol, unknown>;
  const create = symbol && holder[symbol];
  if (typeof create !== 'function') {
    throw new SinkError(
      "The installed kafkajs has no internal cluster factory ('private:Kafka:createCluster'): the Kafka sink needs kafkajs 2.2.4, the version package.json pins. Reinstall with `npm ci`.",
    );
  }
  holder[symbol!] = (options: unknown) => {
    const cluster = (create as (o: unknown) => ProducerCluster)(options);
    const findController = cluster.findControllerBroker.bind(cluster);
    cluster.findControllerBroker = async () => {
      try {
        return await findController();
      } catch (e) {
        const known = cluster.brokerPool.metadata?.brokers?.[0];
        if ((e as Error).name !== 'KafkaJSBrokerNotFound' || !known) throw e;
        return cluster.findBroker({ nodeId: String(known.nodeId) });
      }
    };
    return cluster;
  };
}

/**
 * Records per request at most. kafkajs 2.2.4 groups a request's records by partition copying the
 * group for every record it adds (`[...current, message]`), which is quadratic: a mebibyte of small
 * records (20,000 counts) took seconds, where requests of this many take about 2 µs a record.
 */
export const MAX_REQUEST_RECORDS = 1000;

/**
 * Consecutive runs of records of about `maxBytes` each (a larger record goes alone), and of
 * MAX_REQUEST_RECORDS at most.
 */
export function* requestChunks(
  records: readonly OutgoingRecord[],
  maxBytes: number,
): Generator<readonly OutgoingRecord[]> {
  let start = 0;
  let bytes = 0;
  for (let i = 0; i < records.length; i++) {
    const size = recordBytes(records[i]);
    if (i > start && (bytes + size > maxBytes || i - start === MAX_REQUEST_RECORDS)) {
      yield records.slice(start, i);
      start = i;
      bytes = 0;
    }
    bytes += size;
  }
  yield records.slice(start);
}

/** The records as kafkajs's topic messages, in order within each topic. */
function topicMessages(
  records: readonly OutgoingRecord[],
): { topic: string; messages: Message[] }[] {
  const byTopic = new Map<string, Message[]>();
  for (const r of records) {
    const messages = byTopic.get(r.topic) ?? [];
    if (messages.length === 0) byTopic.set(r.topic, messages);
    messages.push({
      key: bytes(r.key),
      value: bytes(r.value),
      ...(r.partition === null ? {} : { partition: r.partition }),
      headers: headers(r),
    });
  }
  return [...byTopic].map(([topic, messages]) => ({ topic, messages }));
}

/**
 * kafkajs keeps headers in an object, a list per repeated key; it writes them grouped by key, in the
 * order each key first appears. It cannot write a header without value (2.2.4 measures the value
 * with Buffer.byteLength before looking for null), so a null header value is written empty.
 */
function headers(record: OutgoingRecord): IHeaders {
  // no prototype: a header named __proto__ is a header like any other
  const result = Object.create(null) as Record<string, HeaderValue | HeaderValue[]>;
  for (const h of record.headers) {
    const value = bytes(h.value) ?? '';
    const existing = result[h.key];
    if (existing === undefined) result[h.key] = value;
    else result[h.key] = [...(Array.isArray(existing) ? existing : [existing]), value];
  }
  return result as IHeaders;
}

/** A header value as kafkajs takes it. */
type HeaderValue = Buffer | string;

/** kafkajs writes Buffers as bytes and anything else as its String(): binary must be a Buffer. */
function bytes(value: Uint8Array | string | null): Buffer | string | null {
  if (value === null || typeof value === 'string') return value;
  return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
}

function recordBytes(r: OutgoingRecord): number {
  let n = RECORD_OVERHEAD_BYTES + byteLength(r.key) + byteLength(r.value);
  for (const h of r.headers) n += Buffer.byteLength(h.key) + byteLength(h.value);
  return n;
}

function byteLength(value: Uint8Array | string | null): number {
  if (value === null) return 0;
  return typeof value === 'string' ? Buffer.byteLength(value) : value.byteLength;
}

function topicList(records: readonly OutgoingRecord[]): string {
  const topics = [...new Set(records.map((r) => r.topic))];
  return topics.length <= 3
    ? `topic ${topics.join(', ')}`
    : `topics ${topics.slice(0, 3).join(', ')} and ${topics.length - 3} more`;
}

function message(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).replace(/\.$/, '');
}
