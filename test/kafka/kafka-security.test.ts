/**
 * The Kafka security options: what each combination means, and every half-configured combination
 * refused when the DataFrame is created, naming the option.
 */
import { describe, expect, it } from 'vitest';
import { InvalidOptionError } from '../../core/errors.js';
import { kafkaOptions } from '../../core/kafka/kafka-options.js';

const SECRET = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:AmazonMSK_clicks-AbCdEf';
const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const KEY = '-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----';

/** The security settings a stream over topic `t` gets from these options. */
function security(given: Record<string, string>) {
  const raw = new Map<string, string>([
    ['kafka.bootstrap.servers', 'b-1.msk:9096'],
    ['subscribe', 't'],
  ]);
  for (const [k, v] of Object.entries(given)) raw.set(k.toLowerCase(), v);
  return kafkaOptions(raw, 'stream').security;
}

function refused(given: Record<string, string>, message: string) {
  expect(() => security(given)).toThrow(InvalidOptionError);
  expect(() => security(given)).toThrow(message);
}

describe('Kafka security options', () => {
  it('default to PLAINTEXT: no TLS, no SASL', () => {
    expect(security({})).toEqual({ protocol: 'PLAINTEXT' });
  });

  it('give TLS with SSL, with an optional CA and client certificate', () => {
    expect(security({ 'kafka.security.protocol': 'ssl' })).toEqual({ protocol: 'SSL', tls: {} });
    expect(
      security({
        'kafka.security.protocol': 'SSL',
        'kafka.ssl.ca': PEM,
        'kafka.ssl.certificate': PEM,
        'kafka.ssl.key': KEY,
      }),
    ).toEqual({
      protocol: 'SSL',
      tls: { ca: PEM.trim(), certificate: PEM.trim(), key: KEY },
    });
  });

  it('give SCRAM and PLAIN with inline credentials, keeping the password exactly as written', () => {
    expect(
      security({
        'kafka.security.protocol': 'SASL_SSL',
        'kafka.sasl.mechanism': 'scram-sha-512',
        'kafka.sasl.username': 'alice',
        'kafka.sasl.password': ' s3cret ',
      }),
    ).toEqual({
      protocol: 'SASL_SSL',
      tls: {},
      sasl: {
        mechanism: 'SCRAM-SHA-512',
        credentials: { kind: 'inline', username: 'alice', password: ' s3cret ' },
      },
    });
    expect(
      security({
        'kafka.security.protocol': 'SASL_PLAINTEXT',
        'kafka.sasl.mechanism': 'PLAIN',
        'kafka.sasl.username': 'bob',
        'kafka.sasl.password': 'pw',
      }),
    ).toEqual({
      protocol: 'SASL_PLAINTEXT',
      sasl: {
        mechanism: 'PLAIN',
        credentials: { kind: 'inline', username: 'bob', password: 'pw' },
      },
    });
  });

  it('give SCRAM with credentials from a Secrets Manager secret', () => {
    expect(
      security({
        'kafka.security.protocol': 'SASL_SSL',
        'kafka.sasl.mechanism': 'SCRAM-SHA-256',
        'kafka.sasl.secretArn': SECRET,
      }).sasl,
    ).toEqual({ mechanism: 'SCRAM-SHA-256', credentials: { kind: 'secret', secretArn: SECRET } });
  });

  it('give MSK IAM, with or without a region', () => {
    expect(
      security({ 'kafka.security.protocol': 'SASL_SSL', 'kafka.sasl.mechanism': 'AWS_MSK_IAM' }),
    ).toEqual({ protocol: 'SASL_SSL', tls: {}, sasl: { mechanism: 'AWS_MSK_IAM' } });
    expect(
      security({
        'kafka.security.protocol': 'SASL_SSL',
        'kafka.sasl.mechanism': 'AWS_MSK_IAM',
        'kafka.sasl.aws.region': 'eu-west-1',
      }).sasl,
    ).toEqual({ mechanism: 'AWS_MSK_IAM', region: 'eu-west-1' });
  });

  it('refuse an unknown protocol or mechanism, and SASL without a mechanism', () => {
    refused({ 'kafka.security.protocol': 'TLS' }, "Invalid option kafka.security.protocol='TLS'");
    refused(
      { 'kafka.security.protocol': 'SASL_SSL' },
      'kafka.security.protocol SASL_SSL needs option kafka.sasl.mechanism',
    );
    refused(
      { 'kafka.security.protocol': 'SASL_SSL', 'kafka.sasl.mechanism': 'GSSAPI' },
      "Invalid option kafka.sasl.mechanism='GSSAPI'",
    );
  });

  it('refuse SASL options without a SASL protocol, and TLS material without TLS', () => {
    refused(
      { 'kafka.sasl.mechanism': 'PLAIN' },
      'Option kafka.sasl.mechanism needs kafka.security.protocol SASL_SSL (or SASL_PLAINTEXT), but it is PLAINTEXT',
    );
    refused(
      { 'kafka.security.protocol': 'SSL', 'kafka.sasl.secretArn': SECRET },
      'Option kafka.sasl.secretArn needs kafka.security.protocol SASL_SSL',
    );
    refused(
      { 'kafka.security.protocol': 'SASL_PLAINTEXT', 'kafka.ssl.ca': PEM },
      'Option kafka.ssl.ca needs kafka.security.protocol SSL or SASL_SSL, but it is SASL_PLAINTEXT',
    );
  });

  it('refuse a password mechanism without credentials, with half of them, or with two kinds', () => {
    const scram = {
      'kafka.security.protocol': 'SASL_SSL',
      'kafka.sasl.mechanism': 'SCRAM-SHA-512',
    };
    refused(
      scram,
      'kafka.sasl.mechanism SCRAM-SHA-512 needs credentials: options kafka.sasl.username and kafka.sasl.password, or kafka.sasl.secretArn',
    );
    refused({ ...scram, 'kafka.sasl.username': 'alice' }, 'needs option kafka.sasl.password too');
    refused({ ...scram, 'kafka.sasl.password': 'pw' }, 'needs option kafka.sasl.username too');
    refused(
      {
        ...scram,
        'kafka.sasl.username': 'alice',
        'kafka.sasl.password': 'pw',
        'kafka.sasl.secretArn': SECRET,
      },
      'Give either kafka.sasl.secretArn or kafka.sasl.username and kafka.sasl.password, not both',
    );
    refused(
      { ...scram, 'kafka.sasl.secretArn': 'AmazonMSK_clicks' },
      "Invalid option kafka.sasl.secretArn='AmazonMSK_clicks'",
    );
    refused(
      { ...scram, 'kafka.sasl.secretArn': SECRET, 'kafka.sasl.aws.region': 'eu-west-1' },
      'Option kafka.sasl.aws.region is for kafka.sasl.mechanism AWS_MSK_IAM, not SCRAM-SHA-512',
    );
  });

  it('refuse credentials with MSK IAM, MSK IAM without TLS, and a malformed region', () => {
    const iam = { 'kafka.security.protocol': 'SASL_SSL', 'kafka.sasl.mechanism': 'AWS_MSK_IAM' };
    refused(
      { ...iam, 'kafka.sasl.secretArn': SECRET },
      'Option kafka.sasl.secretArn does not apply to kafka.sasl.mechanism AWS_MSK_IAM',
    );
    refused(
      { ...iam, 'kafka.security.protocol': 'SASL_PLAINTEXT' },
      'AWS_MSK_IAM needs kafka.security.protocol SASL_SSL',
    );
    refused({ ...iam, 'kafka.sasl.aws.region': 'Ireland' }, "kafka.sasl.aws.region='Ireland'");
  });

  it('refuse TLS material that is not PEM, and a certificate without its key', () => {
    const ssl = { 'kafka.security.protocol': 'SSL' };
    refused(
      { ...ssl, 'kafka.ssl.ca': '/etc/ssl/ca.pem' },
      'Invalid option kafka.ssl.ca: expected PEM text',
    );
    refused(
      { ...ssl, 'kafka.ssl.certificate': PEM },
      'Option kafka.ssl.certificate needs kafka.ssl.key too',
    );
    refused(
      { ...ssl, 'kafka.ssl.key': KEY },
      'Option kafka.ssl.key needs kafka.ssl.certificate too',
    );
  });
});
