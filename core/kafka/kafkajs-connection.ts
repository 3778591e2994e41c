/**
 * One kafkajs connection to a cluster: its internal Cluster client (kafkajs-internals.ts), created
 * with the connection's security settings and connected on first use, then kept.
 *
 * A connection may outlive the queries that use it: a warm Lambda container plans and reads every
 * invocation's batches on the same one (kafka-connection-pool.ts), so only the first invocation pays
 * for connecting, authenticating and loading metadata. An idle connection must not keep a process
 * alive, though (a local run ends when its query does), hence:
 * - its sockets come from its own socket factory and keep the process alive (are ref'd) only while a
 *   call (`use`) is in flight; between calls they are unref'd;
 * - kafkajs's request queues neither spin nor hold the process while idle
 *   (kafkajs-request-queue.ts).
 * A request the cluster does not answer fails after the request timeout (kafkajs marks it
 * retriable), so a socket left dead while a Lambda container was frozen costs one timeout, not a
 * hang until the function's own timeout.
 */
import type { ISocketFactoryArgs } from 'kafkajs';
import net, { type Socket } from 'node:net';
import tls from 'node:tls';
import { SourceError } from '../errors.js';
import { withinDeadline } from './call-deadline.js';
import { installedKafkaCredentials } from './installed-kafka-credentials.js';
import type { KafkaCredentials } from './kafka-credentials.js';
import { type KafkaSecurity, PLAINTEXT } from './kafka-security.js';
import {
  type InternalCluster,
  internalClusterFactory,
  isRetriableKafkajsError,
  isSaslAuthenticationFailure,
} from './kafkajs-internals.js';
import { quietIdleRequestQueues } from './kafkajs-request-queue.js';
import { kafkajsSecurityConfig } from './kafkajs-security.js';

/** Which cluster, and how to reach it. */
export interface KafkaConnectionConfig {
  /** `host:port` of one or more brokers. */
  readonly brokers: readonly string[];
  /** @default PLAINTEXT */
  readonly security?: KafkaSecurity;
  /** @default 'sluice' */
  readonly clientId?: string;
  /**
   * How long one call (`use`) may take before it fails with a retriable SourceError; requests time
   * out no later. @default 30 s
   */
  readonly apiTimeoutMs?: number;
}

/** Retries of kafkajs's own connection and metadata requests. */
const CLIENT_RETRIES = 2;
const RETRY_BACKOFF_MS = 100;
/** How long cached leader metadata is trusted (kafkajs's default). */
const METADATA_MAX_AGE_MS = 5 * 60_000;
/**
 * How long a request may go unanswered before kafkajs fails it (retriable): a third of the Java
 * client's default, as every request here is a short one (fetches do not wait for new records).
 */
const REQUEST_TIMEOUT_MS = 10_000;
/** The default bound of one call. */
const API_TIMEOUT_MS = 30_000;
/** TCP keep-alive, as kafkajs's own socket factory sets it. */
const KEEP_ALIVE_MS = 60_000;
/** The cluster's own isolation level is unused: every ListOffsets and Fetch names its own. */
const READ_COMMITTED = 1;

/** A connection to one cluster; connects on first use. */
export class KafkajsConnection {
  private connecting: Promise<InternalCluster> | undefined;
  /** Calls in flight: while there are any, the sockets keep the process alive. */
  private calls = 0;
  private readonly sockets = new Set<Socket>();

  constructor(
    readonly config: KafkaConnectionConfig,
    private readonly credentials: KafkaCredentials = installedKafkaCredentials,
  ) {}

  /** The brokers, for messages. */
  get brokerList(): string {
    return this.config.brokers.join(',');
  }

  /**
   * Runs `work` on the connected cluster. A failure to connect is a SourceError; what `work` throws is
   * passed on as it is. A call without an outcome within the API timeout fails with a retriable
   * SourceError naming the brokers and `what` the call was to do.
   */
  use<T>(what: string, work: (cluster: InternalCluster) => Promise<T>): Promise<T> {
    this.begin();
    const call = (async () => work(await this.cluster()))().finally(() => this.end());
    const ms = this.apiTimeoutMs;
    return withinDeadline(
      call,
      ms,
      () =>
        new SourceError(
          `Kafka (${this.brokerList}): could not ${what}: no answer within ${ms} ms (kafka.default.api.timeout.ms). A broker may be hanging or unreachable; the batch is tried again by the next trigger. Raise kafka.default.api.timeout.ms if the cluster is only slow.`,
          { retriable: true },
        ),
    );
  }

  private get apiTimeoutMs(): number {
    return this.config.apiTimeoutMs ?? API_TIMEOUT_MS;
  }

  /** Closes the connection; the next call connects again. */
  async disconnect(): Promise<void> {
    const connecting = this.connecting;
    this.connecting = undefined;
    // a connection that failed has nothing to close (its error went to the call that made it)
    const cluster = await connecting?.catch(() => undefined);
    await cluster?.disconnect();
  }

  /** The connected cluster; a failed connection is tried again by the next call. */
  private cluster(): Promise<InternalCluster> {
    this.connecting ??= this.connect().catch((e: unknown) => {
      this.connecting = undefined;
      throw e;
    });
    return this.connecting;
  }

  private async connect(): Promise<InternalCluster> {
    await quietIdleRequestQueues();
    const security = this.config.security ?? PLAINTEXT;
    try {
      // loaded on first connect, so a query that reads no Kafka never loads kafkajs
      const { Kafka, logLevel } = await import('kafkajs');
      const kafka = new Kafka({
        clientId: this.config.clientId ?? 'sluice',
        brokers: [...this.config.brokers],
        // failures reach the caller as SourceErrors; kafkajs's own console lines would only repeat them
        logLevel: logLevel.NOTHING,
        // kafkajs retries connecting and refreshing metadata for ~10 s by default; an invocation paid
        // per millisecond had better fail within a second and let the next attempt try again
        retry: { retries: CLIENT_RETRIES, initialRetryTime: RETRY_BACKOFF_MS },
        // a request never outlives the call that made it
        requestTimeout: Math.min(REQUEST_TIMEOUT_MS, this.apiTimeoutMs),
        socketFactory: (args) => this.socket(args),
        ...(await kafkajsSecurityConfig(security, this.credentials)),
      });
      const cluster = internalClusterFactory(kafka)({
        // Metadata of the target topics is kept this long; a leader that moved or a partition it
        // does not know yet makes a request refresh it sooner.
        metadataMaxAge: METADATA_MAX_AGE_MS,
        // a source must not create the topics it reads
        allowAutoTopicCreation: false,
        isolationLevel: READ_COMMITTED,
      });
      await cluster.connect();
      return cluster;
    } catch (e) {
      this.destroySockets(); // a half-made connection must not linger
      if (security.sasl && 'credentials' in security.sasl && isSaslAuthenticationFailure(e)) {
        const { credentials } = security.sasl;
        if (credentials.kind === 'secret') this.credentials.forgetSaslSecret(credentials.secretArn);
      }
      throw this.connectFailure(e);
    }
  }

  private connectFailure(cause: unknown): SourceError {
    if (cause instanceof SourceError) return cause;
    const message = cause instanceof Error ? cause.message : String(cause);
    return new SourceError(`Kafka (${this.brokerList}): could not connect: ${message}`, {
      cause,
      retriable: isRetriableKafkajsError(cause),
    });
  }

  /** kafkajs's socket factory, keeping track of the sockets. */
  private socket({ host, port, ssl, onConnect }: ISocketFactoryArgs): Socket {
    const socket = ssl
      ? tls.connect(
          { host, port, ...(net.isIP(host) ? {} : { servername: host }), ...ssl },
          onConnect,
        )
      : net.connect({ host, port }, onConnect);
    socket.setKeepAlive(true, KEEP_ALIVE_MS);
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
    if (this.calls === 0) socket.unref();
    return socket;
  }

  private begin(): void {
    if (this.calls++ === 0) for (const socket of this.sockets) socket.ref();
  }

  private end(): void {
    if (--this.calls === 0) for (const socket of this.sockets) socket.unref();
  }

  /** Destroys the sockets with an error, which makes kafkajs fail what they carried. */
  private destroySockets(): void {
    for (const socket of this.sockets) {
      socket.destroy(new Error('connection closed by Sluice after a failed connect'));
    }
  }
}
