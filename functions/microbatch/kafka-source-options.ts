/**
 * The Kafka source's options (Spark's names, as `readStream.format('kafka').option(...)` takes them)
 * for the function's Kafka source configuration. The function reads through the same source and
 * the same option checks as any query, so a setting means the same thing in Lambda and locally.
 */
import type { SourceConfig } from './configuration.js';

/** The function's configuration of a Kafka source. */
export type KafkaSourceConfig = Extract<SourceConfig, { kind: 'kafka' }>;

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
    'kafka.bootstrap.servers': source.bootstrapServers.join(','),
    subscribe: source.topic,
    startingOffsets: source.startingOffsets,
    failOnDataLoss: String(source.failOnDataLoss),
    ...securityOptions(source),
  };
  if (source.maxOffsetsPerTrigger !== undefined) {
    options.maxOffsetsPerTrigger = source.maxOffsetsPerTrigger;
  }
  if (source.minOffsetsPerTrigger !== undefined) {
    options.minOffsetsPerTrigger = source.minOffsetsPerTrigger;
  }
  if (source.maxTriggerDelay !== undefined) options.maxTriggerDelay = source.maxTriggerDelay;
  return options;
}

/** `kafka.security.protocol` and the SASL options; none for a plaintext connection. */
function securityOptions(source: KafkaSourceConfig): Record<string, string> {
  const { sasl, ssl } = source;
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
