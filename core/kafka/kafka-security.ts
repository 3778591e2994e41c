/**
 * How a Kafka client authenticates and encrypts, from the options Kafka itself names (with Spark's
 * `kafka.` prefix): `kafka.security.protocol`, `kafka.sasl.mechanism`, the credentials, and TLS
 * material. Checked when the DataFrame is created, so that a half-configured connection fails there,
 * naming the option, rather than as an authentication error in the first batch.
 *
 * Credentials are inline (`kafka.sasl.username`/`kafka.sasl.password`), in a Secrets Manager secret
 * (`kafka.sasl.secretArn`, JSON `{"username","password"}`, as Amazon MSK's SCRAM secrets hold them),
 * or the caller's AWS identity (`AWS_MSK_IAM`). Nothing here talks to a cluster or to AWS:
 * kafkajs-security.ts turns the result into a client configuration.
 */
import { InvalidOptionError } from '../errors.js';

/** Kafka's `security.protocol`: TLS or not, SASL or not. */
export type SecurityProtocol = 'PLAINTEXT' | 'SSL' | 'SASL_PLAINTEXT' | 'SASL_SSL';

/** SASL mechanisms authenticated with a username and a password. */
export type PasswordMechanism = 'PLAIN' | 'SCRAM-SHA-256' | 'SCRAM-SHA-512';

/** Where a username and password come from. */
export type SaslCredentials =
  | { readonly kind: 'inline'; readonly username: string; readonly password: string }
  /** A Secrets Manager secret whose SecretString is `{"username": ..., "password": ...}`. */
  | { readonly kind: 'secret'; readonly secretArn: string };

/** The SASL part of a connection. */
export type SaslSettings =
  | { readonly mechanism: PasswordMechanism; readonly credentials: SaslCredentials }
  /** Amazon MSK's IAM authentication; `region` undefined: the environment's (AWS_REGION). */
  | { readonly mechanism: 'AWS_MSK_IAM'; readonly region?: string };

/** TLS material, PEM-encoded; without a CA, the system's trusted CAs verify the brokers. */
export interface TlsSettings {
  readonly ca?: string;
  /** A client certificate (mutual TLS), with its `key`. */
  readonly certificate?: string;
  readonly key?: string;
}

/** A connection's checked security settings. */
export interface KafkaSecurity {
  readonly protocol: SecurityProtocol;
  /** Present exactly when the protocol is SSL or SASL_SSL. */
  readonly tls?: TlsSettings;
  /** Present exactly when the protocol is SASL_PLAINTEXT or SASL_SSL. */
  readonly sasl?: SaslSettings;
}

/** The security options, as Kafka spells them. */
export const SECURITY_OPTION_NAMES = [
  'kafka.security.protocol',
  'kafka.sasl.mechanism',
  'kafka.sasl.username',
  'kafka.sasl.password',
  'kafka.sasl.secretArn',
  'kafka.sasl.aws.region',
  'kafka.ssl.ca',
  'kafka.ssl.certificate',
  'kafka.ssl.key',
] as const;

const PROTOCOLS: readonly SecurityProtocol[] = ['PLAINTEXT', 'SSL', 'SASL_PLAINTEXT', 'SASL_SSL'];
const MECHANISMS = ['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512', 'AWS_MSK_IAM'] as const;
const SECRET_ARN = /^arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:.+$/;

/** A connection without TLS or SASL: Kafka's default. */
export const PLAINTEXT: KafkaSecurity = { protocol: 'PLAINTEXT' };

/**
 * Checks the security options; `option(name)` gives an option's value (as the user wrote it) or
 * undefined.
 */
export function kafkaSecurity(option: (name: string) => string | undefined): KafkaSecurity {
  const protocol = securityProtocol(option('kafka.security.protocol'));
  const usesSasl = protocol.startsWith('SASL_');
  const usesTls = protocol === 'SSL' || protocol === 'SASL_SSL';
  const saslGiven = SECURITY_OPTION_NAMES.filter(
    (n) => n.startsWith('kafka.sasl.') && option(n) !== undefined,
  );
  if (!usesSasl && saslGiven.length > 0) {
    throw new InvalidOptionError(
      `Option ${saslGiven[0]} needs kafka.security.protocol SASL_SSL (or SASL_PLAINTEXT), but it is ${protocol}. Set kafka.security.protocol, or remove the kafka.sasl.* options.`,
    );
  }
  const tlsGiven = ['kafka.ssl.ca', 'kafka.ssl.certificate', 'kafka.ssl.key'].filter(
    (n) => option(n) !== undefined,
  );
  if (!usesTls && tlsGiven.length > 0) {
    throw new InvalidOptionError(
      `Option ${tlsGiven[0]} needs kafka.security.protocol SSL or SASL_SSL, but it is ${protocol}.`,
    );
  }
  const sasl = usesSasl ? saslSettings(protocol, option) : undefined;
  const tls = usesTls ? tlsSettings(option) : undefined;
  return { protocol, ...(tls ? { tls } : {}), ...(sasl ? { sasl } : {}) };
}

function securityProtocol(value: string | undefined): SecurityProtocol {
  if (value === undefined) return 'PLAINTEXT';
  const upper = value.trim().toUpperCase();
  if ((PROTOCOLS as readonly string[]).includes(upper)) return upper as SecurityProtocol;
  throw new InvalidOptionError(
    `Invalid option kafka.security.protocol='${value}'; use ${PROTOCOLS.join(', ')}.`,
  );
}

function saslSettings(
  protocol: SecurityProtocol,
  option: (name: string) => string | undefined,
): SaslSettings {
  const given = option('kafka.sasl.mechanism');
  const mechanism = given?.trim().toUpperCase();
  if (!mechanism || !(MECHANISMS as readonly string[]).includes(mechanism)) {
    throw new InvalidOptionError(
      given === undefined
        ? `kafka.security.protocol ${protocol} needs option kafka.sasl.mechanism: ${MECHANISMS.join(', ')}.`
        : `Invalid option kafka.sasl.mechanism='${given}'; use ${MECHANISMS.join(', ')}.`,
    );
  }
  if (mechanism === 'AWS_MSK_IAM') return mskIamSettings(protocol, option);
  const region = option('kafka.sasl.aws.region');
  if (region !== undefined) {
    throw new InvalidOptionError(
      `Option kafka.sasl.aws.region is for kafka.sasl.mechanism AWS_MSK_IAM, not ${mechanism}; remove it.`,
    );
  }
  return {
    mechanism: mechanism as PasswordMechanism,
    credentials: passwordCredentials(mechanism, option),
  };
}

/** MSK IAM signs with the caller's AWS identity, and MSK offers it over TLS only. */
function mskIamSettings(
  protocol: SecurityProtocol,
  option: (name: string) => string | undefined,
): SaslSettings {
  const credentials = ['kafka.sasl.username', 'kafka.sasl.password', 'kafka.sasl.secretArn'].find(
    (n) => option(n) !== undefined,
  );
  if (credentials) {
    throw new InvalidOptionError(
      `Option ${credentials} does not apply to kafka.sasl.mechanism AWS_MSK_IAM, which signs with the caller's AWS credentials (the function's IAM role); remove it.`,
    );
  }
  if (protocol !== 'SASL_SSL') {
    throw new InvalidOptionError(
      `kafka.sasl.mechanism AWS_MSK_IAM needs kafka.security.protocol SASL_SSL (Amazon MSK offers IAM authentication over TLS only), not ${protocol}.`,
    );
  }
  const region = option('kafka.sasl.aws.region')?.trim();
  if (region !== undefined && !/^[a-z]{2}(-[a-z]+)+-\d+$/.test(region)) {
    throw new InvalidOptionError(
      `Invalid option kafka.sasl.aws.region='${region}'; use an AWS region such as eu-west-1.`,
    );
  }
  return { mechanism: 'AWS_MSK_IAM', ...(region ? { region } : {}) };
}

/** Exactly one of: a username with its password, or a secret holding both. */
function passwordCredentials(
  mechanism: string,
  option: (name: string) => string | undefined,
): SaslCredentials {
  const username = option('kafka.sasl.username');
  const password = option('kafka.sasl.password');
  const secretArn = option('kafka.sasl.secretArn')?.trim();
  if (secretArn !== undefined) {
    if (username !== undefined || password !== undefined) {
      throw new InvalidOptionError(
        `Give either kafka.sasl.secretArn or kafka.sasl.username and kafka.sasl.password, not both: the secret holds the username and password.`,
      );
    }
    if (!SECRET_ARN.test(secretArn)) {
      throw new InvalidOptionError(
        `Invalid option kafka.sasl.secretArn='${secretArn}'; use a Secrets Manager secret ARN such as arn:aws:secretsmanager:eu-west-1:123456789012:secret:AmazonMSK_clicks-AbCdEf.`,
      );
    }
    return { kind: 'secret', secretArn };
  }
  if (username === undefined && password === undefined) {
    throw new InvalidOptionError(
      `kafka.sasl.mechanism ${mechanism} needs credentials: options kafka.sasl.username and kafka.sasl.password, or kafka.sasl.secretArn (a Secrets Manager secret holding {"username","password"}).`,
    );
  }
  if (!username || password === undefined || password === '') {
    const missing = !username ? 'kafka.sasl.username' : 'kafka.sasl.password';
    throw new InvalidOptionError(
      `kafka.sasl.mechanism ${mechanism} needs option ${missing} too (a non-empty value).`,
    );
  }
  return { kind: 'inline', username, password };
}

function tlsSettings(option: (name: string) => string | undefined): TlsSettings {
  const ca = pem('kafka.ssl.ca', option('kafka.ssl.ca'));
  const certificate = pem('kafka.ssl.certificate', option('kafka.ssl.certificate'));
  const key = pem('kafka.ssl.key', option('kafka.ssl.key'));
  if ((certificate === undefined) !== (key === undefined)) {
    throw new InvalidOptionError(
      `Option ${certificate === undefined ? 'kafka.ssl.key' : 'kafka.ssl.certificate'} needs ${certificate === undefined ? 'kafka.ssl.certificate' : 'kafka.ssl.key'} too: a client certificate and its private key go together.`,
    );
  }
  return {
    ...(ca ? { ca } : {}),
    ...(certificate ? { certificate } : {}),
    ...(key ? { key } : {}),
  };
}

/** PEM text; a path (a common mistake) is refused with a hint. */
function pem(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!value.includes('-----BEGIN ')) {
    throw new InvalidOptionError(
      `Invalid option ${name}: expected PEM text (-----BEGIN ...-----); to use a file, pass its contents (e.g. readFileSync(path, 'utf8')).`,
    );
  }
  return value.trim();
}
