import { describe, expect, it } from 'vitest';
import { InvalidOptionError } from '../../core/errors.js';
import {
  installedKafkaCredentials,
  useKafkaCredentials,
} from '../../core/kafka/installed-kafka-credentials.js';
import type { KafkaCredentials } from '../../core/kafka/kafka-credentials.js';

// The installed provider is process-wide: these run in order, before and after installing one.
describe('the Kafka credentials of the process', () => {
  it('are none until the composition root installs them: a secret or an IAM token fails naming the option and the fix', async () => {
    const secret = installedKafkaCredentials.saslSecret(
      'arn:aws:secretsmanager:eu-west-1:1:secret:k',
    );
    await expect(secret).rejects.toBeInstanceOf(InvalidOptionError);
    await expect(secret).rejects.toThrow(
      /kafka\.sasl\.secretArn \(arn:aws:secretsmanager:eu-west-1:1:secret:k\) needs a Kafka credentials provider.*useKafkaCredentials\(awsKafkaCredentials\)/,
    );
    await expect(installedKafkaCredentials.mskIamToken('eu-west-1')).rejects.toThrow(
      /AWS_MSK_IAM needs a Kafka credentials provider/,
    );
    expect(() => installedKafkaCredentials.forgetSaslSecret('arn:x')).not.toThrow();
  });

  it('ask the provider installed when a connection needs them', async () => {
    const asked: string[] = [];
    const provider = (name: string): KafkaCredentials => ({
      saslSecret: async (arn) => {
        asked.push(`${name} secret ${arn}`);
        return { username: name, password: 'pw' };
      },
      forgetSaslSecret: (arn) => asked.push(`${name} forget ${arn}`),
      mskIamToken: async (region) => {
        asked.push(`${name} token ${region}`);
        return `${name}-token`;
      },
    });
    useKafkaCredentials(provider('first'));
    expect(await installedKafkaCredentials.saslSecret('arn:a')).toEqual({
      username: 'first',
      password: 'pw',
    });
    useKafkaCredentials(provider('second'));
    expect(await installedKafkaCredentials.mskIamToken(undefined)).toBe('second-token');
    installedKafkaCredentials.forgetSaslSecret('arn:a');
    expect(asked).toEqual(['first secret arn:a', 'second token undefined', 'second forget arn:a']);
  });
});
