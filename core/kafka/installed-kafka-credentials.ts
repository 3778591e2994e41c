/**
 * The process's Kafka credentials: what connections created without credentials of their own use to
 * fetch a SASL secret (`kafka.sasl.secretArn`) or sign an Amazon MSK IAM token (`AWS_MSK_IAM`). The
 * Kafka connector knows no AWS SDK, so importing it loads none and nothing is installed by default:
 * the composition root installs a provider (the Lambda function installs the AWS one, and a local
 * program does with `useKafkaCredentials(awsKafkaCredentials)` from core/aws/index.ts). Until then a
 * query whose options need credentials fails naming the option and the fix; PLAINTEXT, SSL and an
 * inline username and password need none.
 */
import { InvalidOptionError } from '../errors.js';
import type { KafkaCredentials } from './kafka-credentials.js';

let installed: KafkaCredentials | undefined;

/** Installs the credentials every Kafka connection of the process uses unless given others. */
export function useKafkaCredentials(credentials: KafkaCredentials): void {
  installed = credentials;
}

/** Credentials that ask whichever provider is installed when a connection needs them. */
export const installedKafkaCredentials: KafkaCredentials = {
  saslSecret: (secretArn) =>
    installed
      ? installed.saslSecret(secretArn)
      : Promise.reject(notInstalled(`option kafka.sasl.secretArn (${secretArn})`)),
  forgetSaslSecret: (secretArn) => installed?.forgetSaslSecret(secretArn),
  mskIamToken: (region) =>
    installed
      ? installed.mskIamToken(region)
      : Promise.reject(notInstalled('kafka.sasl.mechanism AWS_MSK_IAM')),
};

function notInstalled(what: string): InvalidOptionError {
  return new InvalidOptionError(
    `${what} needs a Kafka credentials provider, and none is installed: call useKafkaCredentials(awsKafkaCredentials) (both exported by core/aws/index.ts) before the query connects, or give kafka.sasl.username and kafka.sasl.password instead.`,
  );
}
