/**
 * What a Kafka connection needs from outside to authenticate: a username and password kept in a
 * secret, or a signed token for Amazon MSK's IAM authentication. A small interface, so the kafkajs
 * adapter knows no AWS SDK and tests give fakes; the AWS implementation is
 * core/aws/aws-kafka-credentials.ts, installed by the composition root
 * (installed-kafka-credentials.ts).
 */

/** A SASL username and password. */
export interface SaslUserPassword {
  readonly username: string;
  readonly password: string;
}

/** Fetches credentials for Kafka connections. */
export interface KafkaCredentials {
  /** The username and password a secret holds (`kafka.sasl.secretArn`). */
  saslSecret(secretArn: string): Promise<SaslUserPassword>;
  /**
   * Forgets a secret whose credentials the cluster refused (it may have been rotated), so the next
   * connection fetches it again.
   */
  forgetSaslSecret(secretArn: string): void;
  /**
   * A fresh AWS_MSK_IAM authentication token signed with the caller's AWS credentials, for the
   * cluster's `region` (undefined: the environment's region).
   */
  mskIamToken(region: string | undefined): Promise<string>;
}
