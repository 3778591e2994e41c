/**
 * SASL credentials kept in AWS Secrets Manager, as Amazon MSK's SCRAM secrets hold them: a
 * SecretString of JSON `{"username": ..., "password": ...}`. Each secret is fetched once per process
 * (a warm Lambda container reuses it) and kept; a fetch that failed is forgotten, so the next
 * connection attempt asks again, and `forget` drops a secret whose credentials the cluster refused
 * (after a rotation).
 *
 * The SDK is loaded on the first fetch only: queries that use no secret do not pay for it.
 */
import { InvalidOptionError, SourceError } from '../errors.js';
import type { SaslUserPassword } from '../kafka/kafka-credentials.js';
import { classifyAwsError, isRetriableAwsError } from './aws-error.js';

/** Reads a secret's SecretString (undefined when the secret holds binary data). */
export type SecretStringFetcher = (secretArn: string) => Promise<string | undefined>;

/** Secrets fetched so far, by ARN. */
export class SaslSecrets {
  private readonly cache = new Map<string, Promise<SaslUserPassword>>();

  constructor(private readonly fetchSecretString: SecretStringFetcher = secretsManagerString) {}

  /** The secret's credentials: from memory after the first successful fetch. */
  get(secretArn: string): Promise<SaslUserPassword> {
    const cached = this.cache.get(secretArn);
    if (cached) return cached;
    const loading = this.load(secretArn);
    this.cache.set(secretArn, loading);
    loading.catch(() => {
      if (this.cache.get(secretArn) === loading) this.cache.delete(secretArn);
    });
    return loading;
  }

  /** Drops a secret, so the next `get` fetches it again. */
  forget(secretArn: string): void {
    this.cache.delete(secretArn);
  }

  private async load(secretArn: string): Promise<SaslUserPassword> {
    let text: string | undefined;
    try {
      text = await this.fetchSecretString(secretArn);
    } catch (e) {
      throw fetchFailure(secretArn, e);
    }
    return parseSecret(secretArn, text);
  }
}

/** The secret's `{"username","password"}`, or an error saying what is wrong with it (never its value). */
function parseSecret(secretArn: string, text: string | undefined): SaslUserPassword {
  const invalid = (why: string) =>
    new InvalidOptionError(
      `The secret ${secretArn} (option kafka.sasl.secretArn) ${why}; its SecretString must be JSON {"username": "...", "password": "..."}.`,
    );
  if (text === undefined) throw invalid('holds binary data, not a SecretString');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalid('is not JSON');
  }
  const { username, password } = (value ?? {}) as Record<string, unknown>;
  if (typeof username !== 'string' || username === '') throw invalid('has no "username"');
  if (typeof password !== 'string' || password === '') throw invalid('has no "password"');
  return { username, password };
}

/** Missing secrets and permissions are configuration problems; throttling and outages are retriable. */
function fetchFailure(secretArn: string, error: unknown): Error {
  const kind = classifyAwsError(error);
  const said = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  if (isRetriableAwsError(kind)) {
    return new SourceError(
      `Could not read the secret ${secretArn} (option kafka.sasl.secretArn): ${said}. Retrying can succeed.`,
      { cause: error, retriable: true },
    );
  }
  return new InvalidOptionError(
    `Could not read the secret ${secretArn} (option kafka.sasl.secretArn): ${said}. Check that the secret exists in that account and region, and that the caller's IAM role may call secretsmanager:GetSecretValue on it (and kms:Decrypt on its key).`,
    { cause: error },
  );
}

const clients = new Map<string, Promise<(secretArn: string) => Promise<string | undefined>>>();

/** GetSecretValue with a client for the secret's own region (an ARN names it). */
async function secretsManagerString(secretArn: string): Promise<string | undefined> {
  const region = secretArn.split(':')[3];
  let client = clients.get(region);
  if (!client) {
    client = (async () => {
      const sdk = await import('@aws-sdk/client-secrets-manager');
      const manager = new sdk.SecretsManagerClient({ region });
      return async (arn: string) =>
        (await manager.send(new sdk.GetSecretValueCommand({ SecretId: arn }))).SecretString;
    })();
    clients.set(region, client);
  }
  return (await client)(secretArn);
}

/** The process's secrets: one fetch per secret per container. */
export const saslSecrets = new SaslSecrets();
