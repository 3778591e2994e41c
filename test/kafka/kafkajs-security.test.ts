/**
 * The kafkajs client settings each security mode produces. Credentials come from a fake
 * KafkaCredentials, except for MSK IAM's token, which goes through the real AWS adapter with only
 * the signer mocked: the token kafkajs's OAUTHBEARER provider presents must be the signer's.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { awsKafkaCredentials } from '../../core/aws/aws-kafka-credentials.js';
import type { KafkaCredentials } from '../../core/kafka/kafka-credentials.js';
import type { KafkaSecurity } from '../../core/kafka/kafka-security.js';
import { kafkajsSecurityConfig } from '../../core/kafka/kafkajs-security.js';

const signer = vi.hoisted(() => ({ calls: [] as unknown[], token: 'token-1' }));
vi.mock('aws-msk-iam-sasl-signer-js', () => ({
  generateAuthToken: async (options: unknown) => {
    signer.calls.push(options);
    return { token: signer.token, expiryTime: Date.now() + 900_000 };
  },
}));

const SECRET = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:AmazonMSK_clicks-AbCdEf';
const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----';

/** Credentials that hold one secret and count fetches. */
function fakeCredentials() {
  const fetched: string[] = [];
  const credentials: KafkaCredentials = {
    saslSecret: async (arn) => {
      fetched.push(arn);
      return { username: 'from-secret', password: 'secret-pw' };
    },
    forgetSaslSecret: () => {},
    mskIamToken: async () => 'fake-token',
  };
  return { credentials, fetched };
}

const config = (security: KafkaSecurity) =>
  kafkajsSecurityConfig(security, fakeCredentials().credentials);

beforeEach(() => {
  signer.calls.length = 0;
});

describe('kafkajs settings for each security mode', () => {
  it('PLAINTEXT: neither ssl nor sasl', async () => {
    expect(await config({ protocol: 'PLAINTEXT' })).toEqual({});
  });

  it('SSL: ssl true, or TLS options with the CA and the client certificate', async () => {
    expect(await config({ protocol: 'SSL', tls: {} })).toEqual({ ssl: true });
    expect(
      await config({ protocol: 'SSL', tls: { ca: PEM, certificate: PEM, key: 'KEY' } }),
    ).toEqual({ ssl: { ca: [PEM], cert: PEM, key: 'KEY' } });
  });

  it('SASL_SSL with SCRAM: ssl and the SCRAM mechanism with inline credentials', async () => {
    expect(
      await config({
        protocol: 'SASL_SSL',
        tls: {},
        sasl: {
          mechanism: 'SCRAM-SHA-512',
          credentials: { kind: 'inline', username: 'alice', password: 'pw' },
        },
      }),
    ).toEqual({
      ssl: true,
      sasl: { mechanism: 'scram-sha-512', username: 'alice', password: 'pw' },
    });
  });

  it('SASL_PLAINTEXT with PLAIN: sasl without ssl', async () => {
    expect(
      await config({
        protocol: 'SASL_PLAINTEXT',
        sasl: { mechanism: 'PLAIN', credentials: { kind: 'inline', username: 'u', password: 'p' } },
      }),
    ).toEqual({ sasl: { mechanism: 'plain', username: 'u', password: 'p' } });
  });

  it('SCRAM with a secret: the username and password the secret holds', async () => {
    const { credentials, fetched } = fakeCredentials();
    const settings = await kafkajsSecurityConfig(
      {
        protocol: 'SASL_SSL',
        tls: {},
        sasl: { mechanism: 'SCRAM-SHA-256', credentials: { kind: 'secret', secretArn: SECRET } },
      },
      credentials,
    );
    expect(settings.sasl).toEqual({
      mechanism: 'scram-sha-256',
      username: 'from-secret',
      password: 'secret-pw',
    });
    expect(fetched).toEqual([SECRET]);
  });

  it("AWS_MSK_IAM: OAUTHBEARER whose provider returns the signer's token, signed anew for each connection", async () => {
    const settings = await kafkajsSecurityConfig(
      { protocol: 'SASL_SSL', tls: {}, sasl: { mechanism: 'AWS_MSK_IAM', region: 'eu-west-1' } },
      awsKafkaCredentials,
    );
    expect(settings.ssl).toBe(true);
    const sasl = settings.sasl as {
      mechanism: string;
      oauthBearerProvider: () => Promise<{ value: string }>;
    };
    expect(sasl.mechanism).toBe('oauthbearer');
    expect(signer.calls).toEqual([]); // nothing signed before kafkajs authenticates
    expect(await sasl.oauthBearerProvider()).toEqual({ value: 'token-1' });
    signer.token = 'token-2';
    expect(await sasl.oauthBearerProvider()).toEqual({ value: 'token-2' });
    expect(signer.calls).toEqual([{ region: 'eu-west-1' }, { region: 'eu-west-1' }]);
  });

  it("AWS_MSK_IAM without a region signs for the environment's region, and fails naming the option without one", async () => {
    const settings = await kafkajsSecurityConfig(
      { protocol: 'SASL_SSL', tls: {}, sasl: { mechanism: 'AWS_MSK_IAM' } },
      awsKafkaCredentials,
    );
    const provider = (settings.sasl as { oauthBearerProvider: () => Promise<unknown> })
      .oauthBearerProvider;
    vi.stubEnv('AWS_REGION', 'us-east-2');
    try {
      await provider();
      expect(signer.calls).toEqual([{ region: 'us-east-2' }]);
      vi.stubEnv('AWS_REGION', undefined);
      vi.stubEnv('AWS_DEFAULT_REGION', undefined);
      await expect(provider()).rejects.toThrow('set option kafka.sasl.aws.region');
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
