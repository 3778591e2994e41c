/**
 * The Kafka source's and sink's options (Spark's names, as `format('kafka').option(...)` takes them)
 * for the function's Kafka configuration. The function reads and writes through the same source, sink
 * and option checks as any query, so a setting means the same thing in Lambda and locally.
 */
import type { SinkConfig, SourceConfig } from './configuration.js';

/** The function's configuration of a Kafka source. */
export type KafkaSourceConfig = Extract<SourceConfig, { kind: 'kafka' }>;
/** The function's configuration of a Kafka sink. */
export type KafkaSinkConfig = Extract<SinkConfig, { kind: 'kafka' }>;

/** Spark's SASL mechanism names, by the configuration's. */
const SASL_MECHANISMS = {
  'aws-msk-iam': 'AWS_MSK_IAM',
  'scram-sha-512': 'SCRAM-SHA-512',
  'scram-sha-256': 'SCRAM-SHA-256',
  plain: 'PLAIN',
} as const;

/** The source options for `source`; settings left out of the configuration are left to the source's defaults. */
export function kafkaSourceOptions(source: KafkaSourceConfig): Record<string, string | number> {
  const options: Record<string, string | number> = {
    ...connectionOptions(source),
    subscribe: source.topic,
    startingOffsets: source.startingOffsets,
    failOnDataLoss: String(source.failOnDataLoss),
    maxOffsetsPerTrigger: source.maxOffsetsPerTrigger,
  };
  if (source.minOffsetsPerTrigger !== undefined) {
    options.minOffsetsPerTrigger = source.minOffsetsPerTrigger;
  }
  if (source.maxTriggerDelay !== undefined) options.maxTriggerDelay = source.maxTriggerDelay;
  return options;
}

/**
 * The repartition topic's connection (option prefix `repartition.`) of a query split at a
 * repartition stage: the source's cluster, brokers and security alike.
 */
export function repartitionOptions(source: KafkaSourceConfig): Record<string, string> {
  return Object.fromEntries(
    Object.entries(connectionOptions(source)).map(([key, value]) => [`repartition.${key}`, value]),
  );
}

/** The sink options for `sink`: the connection and the topic of every record. */
export function kafkaSinkOptions(sink: KafkaSinkConfig): Record<string, string> {
  return { ...connectionOptions(sink), topic: sink.topic };
}

/** The brokers, `kafka.security.protocol` and the SASL options (none for plaintext). */
function connectionOptions(kafka: KafkaSourceConfig | KafkaSinkConfig): Record<string, string> {
  return { 'kafka.bootstrap.servers': kafka.bootstrapServers.join(','), ...securityOptions(kafka) };
}

function securityOptions(kafka: KafkaSourceConfig | KafkaSinkConfig): Record<string, string> {
  const { sasl, ssl } = kafka;
  if (!sasl) return ssl ? { 'kafka.security.protocol': 'SSL' } : {};
  const options: Record<string, string> = {
    'kafka.security.protocol': ssl ? 'SASL_SSL' : 'SASL_PLAINTEXT',
    'kafka.sasl.mechanism': SASL_MECHANISMS[sasl.mechanism],
  };
  if (sasl.mechanism === 'aws-msk-iam') {
    if (sasl.region !== undefined) options['kafka.sasl.aws.region'] = sasl.region;
  } else {
    options['kafka.sasl.secretArn'] = sasl.secretArn;
  }
  return options;
}
