/**
 * The function's Kafka source configuration as the source's own options: every security mode and
 * admission setting maps to the option Spark (and the source) names, and the source accepts them.
 */
import { describe, expect, it } from 'vitest';
import { SluiceSession } from '../../../core/index.js';
import { DEFAULT_MAX_OFFSETS_PER_TRIGGER } from '../../../functions/microbatch/configuration.js';
import {
  type KafkaSourceConfig,
  kafkaSourceOptions,
} from '../../../functions/microbatch/kafka-source-options.js';

const PLAIN: KafkaSourceConfig = {
  kind: 'kafka',
  bootstrapServers: ['b-1:9092', 'b-2:9092'],
  topic: 'clicks',
  ssl: false,
  startingOffsets: 'earliest',
  failOnDataLoss: true,
  maxOffsetsPerTrigger: DEFAULT_MAX_OFFSETS_PER_TRIGGER,
};
const SECRET = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:kafka-clicks-AbCdEf';

/** The Kafka stream of `options`: the source checks them here, without connecting. */
function kafkaStream(options: Record<string, string | number>) {
  return new SluiceSession().readStream.format('kafka').optionsFrom(options).load();
}

describe('kafkaSourceOptions', () => {
  it('gives the brokers, the topic, the starting position and the batch cap of a plaintext connection', () => {
    expect(kafkaSourceOptions(PLAIN)).toEqual({
      'kafka.bootstrap.servers': 'b-1:9092,b-2:9092',
      subscribe: 'clicks',
      startingOffsets: 'earliest',
      failOnDataLoss: 'true',
      maxOffsetsPerTrigger: 100_000,
    });
  });

  it('gives the admission limits that are set, which the Kafka source accepts', () => {
    const options = kafkaSourceOptions({
      ...PLAIN,
      maxOffsetsPerTrigger: 50_000,
      minOffsetsPerTrigger: 1_000,
      maxTriggerDelay: '5 minutes',
      failOnDataLoss: false,
    });
    expect(options).toMatchObject({
      maxOffsetsPerTrigger: 50_000,
      minOffsetsPerTrigger: 1_000,
      maxTriggerDelay: '5 minutes',
      failOnDataLoss: 'false',
    });
    expect(kafkaStream(options).isStreaming).toBe(true);
  });

  it.each<[string, Partial<KafkaSourceConfig>, Record<string, string>]>([
    ['TLS', { ssl: true }, { 'kafka.security.protocol': 'SSL' }],
    [
      'MSK IAM over TLS',
      { ssl: true, sasl: { mechanism: 'aws-msk-iam', region: 'eu-west-1' } },
      {
        'kafka.security.protocol': 'SASL_SSL',
        'kafka.sasl.mechanism': 'AWS_MSK_IAM',
        'kafka.sasl.aws.region': 'eu-west-1',
      },
    ],
    [
      'SCRAM-SHA-512 from a secret over TLS',
      { ssl: true, sasl: { mechanism: 'scram-sha-512', secretArn: SECRET } },
      {
        'kafka.security.protocol': 'SASL_SSL',
        'kafka.sasl.mechanism': 'SCRAM-SHA-512',
        'kafka.sasl.secretArn': SECRET,
      },
    ],
    [
      'PLAIN from a secret without TLS',
      { sasl: { mechanism: 'plain', secretArn: SECRET } },
      {
        'kafka.security.protocol': 'SASL_PLAINTEXT',
        'kafka.sasl.mechanism': 'PLAIN',
        'kafka.sasl.secretArn': SECRET,
      },
    ],
  ])('gives the security options of %s, which the Kafka source accepts', (_, change, expected) => {
    const options = kafkaSourceOptions({ ...PLAIN, ...change });
    const security = Object.fromEntries(
      Object.entries(options).filter(([k]) => k.startsWith('kafka.s')),
    );
    expect(security).toEqual(expected);
    expect(kafkaStream(options).isStreaming).toBe(true);
  });
});
