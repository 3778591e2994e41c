/**
 * The options of the Kafka sink, as Spark names them, checked when the query starts: every mistake
 * fails there, with the option's name. The writer's own options (checkpointLocation, ...) share the
 * same map, so options the sink does not know are left alone rather than refused.
 */
import { InvalidOptionError } from '../errors.js';
import { kafkaSecurity, type KafkaSecurity } from './kafka-security.js';

/** A raw option value as users pass it. */
type RawOption = string | number | boolean;

/** The checked options of a Kafka sink. */
export interface KafkaSinkOptions {
  /** `kafka.bootstrap.servers`, split at commas. */
  readonly bootstrapServers: readonly string[];
  /** TLS and SASL, from the same options as the source's (kafka-security.ts). @default PLAINTEXT */
  readonly security: KafkaSecurity;
  /**
   * `topic`: the topic of every record. As in Spark it overrides a `topic` column; without it, each
   * row's `topic` column names its topic.
   */
  readonly topic?: string;
  /**
   * `kafka.max.request.size`: about how many bytes of records one produce request carries; a batch
   * is sent in requests of this size (and of 1,000 records at most), so that no partition's record
   * batch exceeds what a broker accepts (message.max.bytes). @default 1048576, the Java producer's
   * default
   */
  readonly maxRequestBytes: number;
  /**
   * `kafka.compression.type`: how record batches are compressed, `none` or `gzip` (kafkajs's
   * built-in codec; snappy, lz4 and zstd would need codecs the bundle does not carry). Undefined
   * when not given: the Kafka sink then sends uncompressed, as the Java producer does by default.
   */
  readonly compression?: KafkaCompression;
}

/** The record-batch compressions the writer can produce. */
export type KafkaCompression = 'none' | 'gzip';

/** The Java producer's max.request.size default. */
export const DEFAULT_MAX_REQUEST_BYTES = 1024 * 1024;

/** Checks raw options (keyed by lower-cased name, as the writer keeps them). */
export function kafkaSinkOptions(raw: ReadonlyMap<string, RawOption>): KafkaSinkOptions {
  const text = (name: string): string | undefined => {
    const value = raw.get(name.toLowerCase());
    return value === undefined ? undefined : String(value).trim();
  };
  const servers = (text('kafka.bootstrap.servers') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (servers.length === 0) {
    throw new InvalidOptionError(
      "The Kafka sink needs option('kafka.bootstrap.servers', 'host:port,...').",
    );
  }
  const topic = text('topic');
  if (topic === '') {
    throw new InvalidOptionError(
      "Invalid option topic='': name a topic, or leave the option out and give each row a topic column.",
    );
  }
  const size = text('kafka.max.request.size');
  const maxRequestBytes = size === undefined ? DEFAULT_MAX_REQUEST_BYTES : Number(size);
  if (!Number.isSafeInteger(maxRequestBytes) || maxRequestBytes <= 0) {
    throw new InvalidOptionError(
      `Invalid option kafka.max.request.size='${size}'; use a positive number of bytes.`,
    );
  }
  const compression = compressionOption(text('kafka.compression.type'));
  const given = (name: string): string | undefined => {
    const value = raw.get(name.toLowerCase());
    return value === undefined ? undefined : String(value);
  };
  return {
    bootstrapServers: servers,
    // credentials and PEM text as given: a password may well end in a space
    security: kafkaSecurity(given),
    ...(topic ? { topic } : {}),
    maxRequestBytes,
    ...(compression ? { compression } : {}),
  };
}

function compressionOption(given: string | undefined): KafkaCompression | undefined {
  if (given === undefined) return undefined;
  const value = given.toLowerCase();
  if (value === 'none' || value === 'gzip') return value;
  throw new InvalidOptionError(
    `Invalid option kafka.compression.type='${given}': use none or gzip (snappy, lz4 and zstd need codecs Sluice does not bundle).`,
  );
}
