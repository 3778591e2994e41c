/**
 * Kafka credentials from AWS: SASL usernames and passwords from Secrets Manager (cached per
 * container), and MSK IAM tokens signed with the caller's identity.
 */
import type { KafkaCredentials } from '../kafka/kafka-credentials.js';
import { mskIamToken } from './msk-iam-token.js';
import { saslSecrets } from './sasl-secret.js';

/** The credentials Kafka connections use unless given others. */
export const awsKafkaCredentials: KafkaCredentials = {
  saslSecret: (secretArn) => saslSecrets.get(secretArn),
  forgetSaslSecret: (secretArn) => saslSecrets.forget(secretArn),
  mskIamToken,
};
