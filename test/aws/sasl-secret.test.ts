/**
 * SASL credentials from Secrets Manager: parsing the secret, one fetch per secret per container, and
 * failures classified (unit tests with a fake GetSecretValue: there is no local Secrets Manager).
 */
import { describe, expect, it } from 'vitest';
import { SaslSecrets } from '../../core/aws/sasl-secret.js';
import { InvalidOptionError, SourceError } from '../../core/errors.js';

const ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:AmazonMSK_clicks-AbCdEf';

/** A fake GetSecretValue answering from `answers` in turn (an Error is thrown). */
function fetcher(...answers: (string | undefined | Error)[]) {
  const calls: string[] = [];
  const fetch = async (arn: string) => {
    calls.push(arn);
    const answer = answers[Math.min(calls.length, answers.length) - 1];
    if (answer instanceof Error) throw answer;
    return answer;
  };
  return { fetch, calls };
}

/** An error shaped as the SDK throws it. */
function sdkError(name: string, status: number): Error {
  return Object.assign(new Error(`${name} happened`), {
    name,
    $metadata: { httpStatusCode: status },
  });
}

describe('SASL credentials in a Secrets Manager secret', () => {
  it('are read from the JSON SecretString, once per secret, then from memory', async () => {
    const { fetch, calls } = fetcher('{"username":"alice","password":"pw"}');
    const secrets = new SaslSecrets(fetch);
    const [a, b] = await Promise.all([secrets.get(ARN), secrets.get(ARN)]);
    expect(a).toEqual({ username: 'alice', password: 'pw' });
    expect(b).toEqual(a);
    expect(await secrets.get(ARN)).toEqual(a);
    expect(calls).toEqual([ARN]);
  });

  it('are fetched again after forget (credentials the cluster refused after a rotation)', async () => {
    const { fetch, calls } = fetcher(
      '{"username":"alice","password":"old"}',
      '{"username":"alice","password":"new"}',
    );
    const secrets = new SaslSecrets(fetch);
    expect((await secrets.get(ARN)).password).toBe('old');
    secrets.forget(ARN);
    expect((await secrets.get(ARN)).password).toBe('new');
    expect(calls).toHaveLength(2);
  });

  it('refuse a secret that is not {"username","password"}, without showing its value', async () => {
    for (const [text, why] of [
      ['hunter2', 'is not JSON'],
      ['{"user":"alice","password":"hunter2"}', 'has no "username"'],
      ['{"username":"alice"}', 'has no "password"'],
      [undefined, 'holds binary data'],
    ] as const) {
      const failure = new SaslSecrets(fetcher(text).fetch).get(ARN);
      await expect(failure).rejects.toBeInstanceOf(InvalidOptionError);
      await expect(failure).rejects.toThrow(
        `The secret ${ARN} (option kafka.sasl.secretArn) ${why}`,
      );
      await expect(failure).rejects.not.toThrow('hunter2');
    }
  });

  it('classify failures: a missing secret or a denied call is configuration, throttling is retriable', async () => {
    const missing = new SaslSecrets(fetcher(sdkError('ResourceNotFoundException', 400)).fetch);
    await expect(missing.get(ARN)).rejects.toMatchObject({
      name: 'InvalidOptionError',
      retriable: false,
      message: expect.stringContaining('secretsmanager:GetSecretValue'),
    });
    const throttled = new SaslSecrets(fetcher(sdkError('ThrottlingException', 400)).fetch);
    const failure = throttled.get(ARN);
    await expect(failure).rejects.toBeInstanceOf(SourceError);
    await expect(failure).rejects.toMatchObject({ retriable: true });
  });

  it('forget a failed fetch, so the next connection asks again', async () => {
    const { fetch, calls } = fetcher(
      sdkError('InternalServiceError', 500),
      '{"username":"alice","password":"pw"}',
    );
    const secrets = new SaslSecrets(fetch);
    await expect(secrets.get(ARN)).rejects.toMatchObject({ retriable: true });
    expect(await secrets.get(ARN)).toEqual({ username: 'alice', password: 'pw' });
    expect(calls).toHaveLength(2);
  });
});
