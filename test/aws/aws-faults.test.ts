/**
 * The faults AWS really returns, injected by the HTTP relay in front of DynamoDB Local and s3rver in
 * the services' own error formats: which ones the SDK retries (its standard retry policy), and what
 * aws-error.ts makes of the failure the caller finally gets.
 */
import { PutItemCommand, TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterEach, describe, expect, it, inject } from 'vitest';
import {
  type AwsErrorKind,
  classifyAwsError,
  isRetriableAwsError,
} from '../../core/aws/aws-error.js';
import {
  AWS_FAULTS,
  DROP_AFTER_FORWARD,
  dynamoDbOperation,
  s3Request,
  slowAnswer,
  transactionCanceled,
} from '../support/aws-faults.js';
import { createBucket, createCheckpointTable } from '../support/aws-clients.js';
import {
  type FaultAction,
  type HttpRelay,
  type RelayFault,
  startHttpRelay,
} from '../support/http-relay.js';
import { localDynamoClient, localS3Client } from '../support/local-aws-clients.js';
import { uniqueName } from '../support/unique-name.js';

/** The SDK's attempts per call in these tests: one retry shows whether the policy retries a fault. */
const MAX_ATTEMPTS = 2;
/** How long a slow answer takes. */
const SLOW_MS = 400;

const relays: HttpRelay[] = [];
afterEach(async () => {
  await Promise.all(relays.splice(0).map((r) => r.stop()));
});

/** A relay in front of `target` that answers the first `times` matching requests with `action`. */
async function faultyRelay(
  target: string,
  matches: RelayFault['matches'],
  action: FaultAction,
  times: number,
) {
  const seen: string[] = [];
  const relay = await startHttpRelay({
    target,
    faults: [{ matches, action, times }],
    onRequest: (r) => {
      if (matches(r)) seen.push(r.method);
    },
  });
  relays.push(relay);
  return { relay, seen };
}

interface FaultCase {
  readonly fault: string;
  readonly action: FaultAction;
  /** Whether the SDK's standard policy sends the call again. */
  readonly retried: boolean;
  /** What aws-error.ts makes of the failure once the retries are spent. */
  readonly kind: AwsErrorKind;
}

const S3_CASES: readonly FaultCase[] = [
  { fault: '503 SlowDown', action: AWS_FAULTS.s3SlowDown, retried: true, kind: 'throttled' },
  {
    fault: '500 InternalError',
    action: AWS_FAULTS.s3InternalError,
    retried: true,
    kind: 'unavailable',
  },
  {
    fault: '409 ConditionalRequestConflict',
    action: AWS_FAULTS.s3ConditionalRequestConflict,
    retried: false,
    kind: 'transaction-conflict',
  },
  {
    fault: 'a dropped connection after the write',
    action: DROP_AFTER_FORWARD,
    retried: true,
    kind: 'unavailable',
  },
];

const DYNAMODB_CASES: readonly FaultCase[] = [
  {
    fault: 'ThrottlingException',
    action: AWS_FAULTS.dynamoDbThrottling,
    retried: true,
    kind: 'throttled',
  },
  {
    fault: 'ProvisionedThroughputExceededException',
    action: AWS_FAULTS.dynamoDbProvisionedThroughputExceeded,
    retried: true,
    kind: 'throttled',
  },
  {
    fault: '500 InternalServerError',
    action: AWS_FAULTS.dynamoDbInternalServerError,
    retried: true,
    kind: 'unavailable',
  },
  {
    fault: '503 ServiceUnavailable',
    action: AWS_FAULTS.dynamoDbServiceUnavailable,
    retried: true,
    kind: 'unavailable',
  },
  {
    fault: 'a dropped connection after the write',
    action: DROP_AFTER_FORWARD,
    retried: true,
    kind: 'unavailable',
  },
];

const CLIENT_OVERRIDES = { maxAttempts: MAX_ATTEMPTS };

describe('S3 faults through the relay', () => {
  it.each(S3_CASES)(
    '$fault on PutObject: retried by the SDK: $retried, classified $kind',
    async ({ action, retried, kind }) => {
      const bucket = await createBucket(uniqueName('faults'));
      const { relay, seen } = await faultyRelay(
        inject('s3Endpoint'),
        s3Request('PUT', /\/object$/),
        action,
        MAX_ATTEMPTS,
      );
      const client = localS3Client(relay.endpoint, CLIENT_OVERRIDES);
      const put = new PutObjectCommand({ Bucket: bucket, Key: 'object', Body: 'bytes' });
      const error = await client.send(put).catch((e: unknown) => e);
      expect(seen).toHaveLength(retried ? MAX_ATTEMPTS : 1);
      expect(classifyAwsError(error)).toBe(kind);
      expect(isRetriableAwsError(classifyAwsError(error))).toBe(true);
      // one fault fewer than the attempts: a retried fault is absorbed by the SDK
      const once = await faultyRelay(inject('s3Endpoint'), s3Request('PUT', /\/again$/), action, 1);
      const again = localS3Client(once.relay.endpoint, CLIENT_OVERRIDES).send(
        new PutObjectCommand({ Bucket: bucket, Key: 'again', Body: 'bytes' }),
      );
      if (retried) await expect(again).resolves.toBeDefined();
      else await expect(again).rejects.toThrow();
    },
  );

  it('a dropped connection after a PutObject leaves the object written: the write happened, the answer was lost', async () => {
    const bucket = await createBucket(uniqueName('faults'));
    const { relay } = await faultyRelay(
      inject('s3Endpoint'),
      s3Request('PUT', /\/lost$/),
      DROP_AFTER_FORWARD,
      MAX_ATTEMPTS,
    );
    const client = localS3Client(relay.endpoint, CLIENT_OVERRIDES);
    await expect(
      client.send(new PutObjectCommand({ Bucket: bucket, Key: 'lost', Body: 'written' })),
    ).rejects.toThrow();
    const read = await client.send(new GetObjectCommand({ Bucket: bucket, Key: 'lost' }));
    expect(await read.Body!.transformToString()).toBe('written');
  });
});

describe('slow answers through the relay', () => {
  it('are waited for, not sent again: S3 and DynamoDB calls succeed in one request each', async () => {
    const bucket = await createBucket(uniqueName('faults'));
    const table = await createCheckpointTable(uniqueName('faults'));
    const s3 = await faultyRelay(
      inject('s3Endpoint'),
      s3Request('PUT', /\/slow$/),
      slowAnswer(SLOW_MS),
      1,
    );
    const dynamoDb = await faultyRelay(
      inject('dynamoDbEndpoint'),
      dynamoDbOperation('PutItem'),
      slowAnswer(SLOW_MS),
      1,
    );
    const started = Date.now();
    await Promise.all([
      localS3Client(s3.relay.endpoint, CLIENT_OVERRIDES).send(
        new PutObjectCommand({ Bucket: bucket, Key: 'slow', Body: 'bytes' }),
      ),
      localDynamoClient(dynamoDb.relay.endpoint, CLIENT_OVERRIDES).send(
        new PutItemCommand({ TableName: table, Item: { pk: { S: 'q' }, sk: { S: 'slow' } } }),
      ),
    ]);
    // the relay held both (a lower bound, not a timing assertion on the code under test)
    expect(Date.now() - started).toBeGreaterThanOrEqual(SLOW_MS);
    expect([s3.seen, dynamoDb.seen]).toEqual([['PUT'], ['POST']]);
    expect([s3.relay.faultsInjected, dynamoDb.relay.faultsInjected]).toEqual([[1], [1]]);
  });
});

describe('DynamoDB faults through the relay', () => {
  it.each(DYNAMODB_CASES)(
    '$fault on PutItem: retried by the SDK: $retried, classified $kind',
    async ({ action, retried, kind }) => {
      const table = await createCheckpointTable(uniqueName('faults'));
      const { relay, seen } = await faultyRelay(
        inject('dynamoDbEndpoint'),
        dynamoDbOperation('PutItem'),
        action,
        MAX_ATTEMPTS,
      );
      const client = localDynamoClient(relay.endpoint, CLIENT_OVERRIDES);
      const put = (sk: string) =>
        new PutItemCommand({ TableName: table, Item: { pk: { S: 'q' }, sk: { S: sk } } });
      const error = await client.send(put('first')).catch((e: unknown) => e);
      expect(seen).toHaveLength(retried ? MAX_ATTEMPTS : 1);
      expect(classifyAwsError(error)).toBe(kind);
      expect(isRetriableAwsError(kind)).toBe(true);
      const once = await faultyRelay(
        inject('dynamoDbEndpoint'),
        dynamoDbOperation('PutItem'),
        action,
        1,
      );
      await expect(
        localDynamoClient(once.relay.endpoint, CLIENT_OVERRIDES).send(put('second')),
      ).resolves.toBeDefined();
    },
  );

  it('a TransactionConflict cancels TransactWriteItems without an SDK retry, classified transaction-conflict', async () => {
    const table = await createCheckpointTable(uniqueName('faults'));
    const { relay, seen } = await faultyRelay(
      inject('dynamoDbEndpoint'),
      dynamoDbOperation('TransactWriteItems'),
      transactionCanceled(['None', 'TransactionConflict']),
      MAX_ATTEMPTS,
    );
    const client = localDynamoClient(relay.endpoint, CLIENT_OVERRIDES);
    const error = await client
      .send(
        new TransactWriteItemsCommand({
          TransactItems: ['a', 'b'].map((sk) => ({
            Put: { TableName: table, Item: { pk: { S: 'q' }, sk: { S: sk } } },
          })),
        }),
      )
      .catch((e: unknown) => e);
    expect(seen).toHaveLength(1);
    expect((error as Error).name).toBe('TransactionCanceledException');
    expect(classifyAwsError(error)).toBe('transaction-conflict');
    expect(isRetriableAwsError('transaction-conflict')).toBe(true);
  });
});
