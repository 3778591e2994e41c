/**
 * The kafkajs client settings for a connection's security: `ssl` (true, or TLS options with a CA
 * and a client certificate) and `sasl` (PLAIN and SCRAM with a username and password, inline or from
 * a secret; AWS_MSK_IAM as kafkajs's OAUTHBEARER, whose provider signs a new token for each broker
 * connection). Secrets are fetched here, before the client exists: kafkajs takes credentials as
 * plain values.
 */
import type { SASLOptions } from 'kafkajs';
import type { ConnectionOptions } from 'node:tls';
import type { KafkaCredentials } from './kafka-credentials.js';
import type { KafkaSecurity, SaslSettings, TlsSettings } from './kafka-security.js';

/** The `ssl` and `sasl` fields of kafkajs's KafkaConfig. */
export interface KafkajsSecurityConfig {
  readonly ssl?: ConnectionOptions | true;
  readonly sasl?: SASLOptions;
}

/** kafkajs's settings for `security`, with credentials from `credentials`. */
export async function kafkajsSecurityConfig(
  security: KafkaSecurity,
  credentials: KafkaCredentials,
): Promise<KafkajsSecurityConfig> {
  return {
    ...(security.tls ? { ssl: tlsOptions(security.tls) } : {}),
    ...(security.sasl ? { sasl: await saslOptions(security.sasl, credentials) } : {}),
  };
}

/** `true` (the system's CAs, no client certificate) unless TLS material is given. */
function tlsOptions(tls: TlsSettings): ConnectionOptions | true {
  if (tls.ca === undefined && tls.certificate === undefined) return true;
  return {
    ...(tls.ca !== undefined ? { ca: [tls.ca] } : {}),
    ...(tls.certificate !== undefined ? { cert: tls.certificate, key: tls.key } : {}),
  };
}

async function saslOptions(
  sasl: SaslSettings,
  credentials: KafkaCredentials,
): Promise<SASLOptions> {
  if (sasl.mechanism === 'AWS_MSK_IAM') {
    const { region } = sasl;
    return {
      mechanism: 'oauthbearer',
      oauthBearerProvider: async () => ({ value: await credentials.mskIamToken(region) }),
    };
  }
  const { username, password } =
    sasl.credentials.kind === 'inline'
      ? sasl.credentials
      : await credentials.saslSecret(sasl.credentials.secretArn);
  switch (sasl.mechanism) {
    case 'PLAIN':
      return { mechanism: 'plain', username, password };
    case 'SCRAM-SHA-256':
      return { mechanism: 'scram-sha-256', username, password };
    case 'SCRAM-SHA-512':
      return { mechanism: 'scram-sha-512', username, password };
  }
}
