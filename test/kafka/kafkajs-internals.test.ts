/** How kafkajs's errors are read: what may be retried, and what says the credentials were refused. */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import {
  isRetriableKafkajsError,
  isSaslAuthenticationFailure,
} from '../../core/kafka/kafkajs-internals.js';

const errors = createRequire(import.meta.url)('kafkajs/src/errors.js') as Record<
  string,
  new (message: unknown, options?: Record<string, unknown>) => Error
>;

describe("kafkajs's errors", () => {
  it('are retriable when kafkajs says so, also when its own retries ran out', () => {
    const dropped = new errors.KafkaJSConnectionError('Connection error: ECONNRESET');
    expect(isRetriableKafkajsError(dropped)).toBe(true);
    const exhausted = new errors.KafkaJSNumberOfRetriesExceeded(dropped, {
      retryCount: 2,
      retryTime: 300,
    });
    expect(isRetriableKafkajsError(exhausted)).toBe(true);
    expect(isRetriableKafkajsError(new errors.KafkaJSNonRetriableError('bad request'))).toBe(false);
    expect(isRetriableKafkajsError(new Error('plain'))).toBe(false);
  });

  it('tell a refused SASL authentication, however deep kafkajs wrapped it', () => {
    const refused = new errors.KafkaJSSASLAuthenticationError(
      'SASL SCRAM SHA512 authentication failed',
    );
    expect(isSaslAuthenticationFailure(refused)).toBe(true);
    expect(
      isSaslAuthenticationFailure(new errors.KafkaJSNonRetriableError(refused, { cause: refused })),
    ).toBe(true);
    const protocol = Object.assign(new Error('Authentication failed'), {
      type: 'SASL_AUTHENTICATION_FAILED',
    });
    expect(isSaslAuthenticationFailure(protocol)).toBe(true);
    expect(isSaslAuthenticationFailure(new errors.KafkaJSConnectionError('timeout'))).toBe(false);
  });
});
