import {
  ConditionalCheckFailedException,
  CreateTableCommand,
  DynamoDBServiceException,
  GetItemCommand,
  InternalServerError,
  ProvisionedThroughputExceededException,
  PutItemCommand,
  ResourceNotFoundException,
  TransactionCanceledException,
  TransactionConflictException,
  TransactWriteItemsCommand,
  type CancellationReason,
} from '@aws-sdk/client-dynamodb';
import { GetObjectCommand, NoSuchBucket, NoSuchKey, S3ServiceException } from '@aws-sdk/client-s3';
import { createServer, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  awsFailure,
  cancelledTransactionItems,
  classifyAwsError,
  isRetriableAwsError,
} from '../../core/aws/aws-error.js';
import { CheckpointError } from '../../core/errors.js';
import {
  createBucket,
  createCheckpointTable,
  dynamoClient,
  s3Client,
} from '../support/aws-clients.js';
import { localDynamoClient } from '../support/local-aws-clients.js';
import { uniqueName } from '../support/unique-name.js';

const $metadata = { httpStatusCode: 400 };

function cancelled(...codes: string[]): TransactionCanceledException {
  const CancellationReasons: CancellationReason[] = codes.map((Code) => ({ Code }));
  return new TransactionCanceledException({
    message: 'Transaction cancelled',
    $metadata,
    CancellationReasons,
  });
}

function s3Error(name: string, httpStatusCode: number): S3ServiceException {
  return new S3ServiceException({
    name,
    $fault: httpStatusCode >= 500 ? 'server' : 'client',
    $metadata: { httpStatusCode },
  });
}

/** A loopback port that was free a moment ago and that nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** What a request that failed with `error` would have thrown. */
async function thrownBy(request: Promise<unknown>): Promise<unknown> {
  try {
    await request;
  } catch (e) {
    return e;
  }
  throw new Error('expected the request to fail');
}

describe('classifyAwsError on SDK errors', () => {
  it('classifies DynamoDB condition failures, conflicts, throttling and server errors', () => {
    expect(
      classifyAwsError(new ConditionalCheckFailedException({ message: 'failed', $metadata })),
    ).toBe('condition-failed');
    expect(
      classifyAwsError(new TransactionConflictException({ message: 'conflict', $metadata })),
    ).toBe('transaction-conflict');
    expect(
      classifyAwsError(new ProvisionedThroughputExceededException({ message: 'slow', $metadata })),
    ).toBe('throttled');
    expect(
      classifyAwsError(
        new InternalServerError({ message: 'boom', $metadata: { httpStatusCode: 500 } }),
      ),
    ).toBe('unavailable');
    expect(
      classifyAwsError(new ResourceNotFoundException({ message: 'no table', $metadata })),
    ).toBe('missing-resource');
  });

  it('classifies a cancelled transaction by its reasons: a failed condition decides, then a conflict, then throttling', () => {
    expect(classifyAwsError(cancelled('None', 'ConditionalCheckFailed'))).toBe('condition-failed');
    expect(classifyAwsError(cancelled('TransactionConflict', 'ConditionalCheckFailed'))).toBe(
      'condition-failed',
    );
    expect(classifyAwsError(cancelled('TransactionConflict', 'None'))).toBe('transaction-conflict');
    expect(classifyAwsError(cancelled('None', 'ThrottlingError'))).toBe('throttled');
    expect(classifyAwsError(cancelled('ValidationError', 'None'))).toBe('other');
    expect(classifyAwsError(cancelled())).toBe('other');
  });

  it('tells, per transaction item in request order, what cancelled it', () => {
    expect(cancelledTransactionItems(cancelled('None', 'ConditionalCheckFailed'))).toEqual([
      'none',
      'condition-failed',
    ]);
    expect(
      cancelledTransactionItems(
        cancelled('ConditionalCheckFailed', 'TransactionConflict', 'Weird'),
      ),
    ).toEqual(['condition-failed', 'transaction-conflict', 'other']);
    expect(
      cancelledTransactionItems(
        new ConditionalCheckFailedException({ message: 'failed', $metadata }),
      ),
    ).toEqual([]);
    expect(cancelledTransactionItems('not an error')).toEqual([]);
  });

  it('classifies S3 missing objects and buckets, preconditions, conditional conflicts and slow-downs', () => {
    expect(
      classifyAwsError(new NoSuchKey({ message: 'no key', $metadata: { httpStatusCode: 404 } })),
    ).toBe('not-found');
    expect(classifyAwsError(s3Error('NotFound', 404))).toBe('not-found');
    expect(
      classifyAwsError(
        new NoSuchBucket({ message: 'no bucket', $metadata: { httpStatusCode: 404 } }),
      ),
    ).toBe('missing-resource');
    expect(classifyAwsError(s3Error('PreconditionFailed', 412))).toBe('precondition-failed');
    expect(classifyAwsError(s3Error('ConditionalRequestConflict', 409))).toBe(
      'transaction-conflict',
    );
    expect(classifyAwsError(s3Error('SlowDown', 503))).toBe('throttled');
    expect(classifyAwsError(s3Error('InternalError', 500))).toBe('unavailable');
    expect(classifyAwsError(s3Error('AccessDenied', 403))).toBe('other');
  });

  it('falls back on the HTTP status when the error name is unknown', () => {
    expect(classifyAwsError(s3Error('Unknown', 404))).toBe('not-found');
    expect(classifyAwsError(s3Error('Unknown', 412))).toBe('precondition-failed');
    expect(classifyAwsError(s3Error('Unknown', 429))).toBe('throttled');
    expect(classifyAwsError(s3Error('Unknown', 502))).toBe('unavailable');
    expect(classifyAwsError(s3Error('Unknown', 400))).toBe('other');
  });

  it('classifies network failures and timeouts as unavailable, and anything else as other', () => {
    expect(
      classifyAwsError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })),
    ).toBe('unavailable');
    expect(
      classifyAwsError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })),
    ).toBe('unavailable');
    expect(
      classifyAwsError(Object.assign(new Error('took too long'), { name: 'TimeoutError' })),
    ).toBe('unavailable');
    expect(classifyAwsError(new TypeError('a bug'))).toBe('other');
    expect(classifyAwsError(undefined)).toBe('other');
    expect(classifyAwsError('a string')).toBe('other');
  });

  it('calls conflicts, throttling and unavailability retriable, and nothing else', () => {
    expect(isRetriableAwsError('transaction-conflict')).toBe(true);
    expect(isRetriableAwsError('throttled')).toBe(true);
    expect(isRetriableAwsError('unavailable')).toBe(true);
    for (const kind of [
      'condition-failed',
      'precondition-failed',
      'not-found',
      'missing-resource',
      'other',
    ] as const) {
      expect(isRetriableAwsError(kind)).toBe(false);
    }
  });
});

describe('awsFailure', () => {
  it('wraps an SDK error as a CheckpointError naming the context, what the service said and what to do', () => {
    const cause = new ResourceNotFoundException({
      message: 'Requested resource not found',
      $metadata,
    });
    const error = awsFailure('Could not read head in dynamodb://checkpoints/query#q1', cause);
    expect(error).toBeInstanceOf(CheckpointError);
    expect(error.code).toBe('CHECKPOINT');
    expect(error.retriable).toBe(false);
    expect(error.cause).toBe(cause);
    expect(error.message).toBe(
      'Could not read head in dynamodb://checkpoints/query#q1: ResourceNotFoundException (HTTP 400): Requested resource not found. ' +
        'The table or bucket does not exist: create it (the MicroBatchQuery construct does) or fix the configured name, region and endpoint.',
    );
  });

  it('marks throttling retriable', () => {
    const error = awsFailure('Could not write s3://bucket/key', s3Error('SlowDown', 503));
    expect(error.retriable).toBe(true);
    expect(error.message).toMatch(
      /^Could not write s3:\/\/bucket\/key: SlowDown \(HTTP 503\): .*retry later/,
    );
  });

  it('wraps errors without SDK metadata', () => {
    const error = awsFailure(
      'Could not list s3://bucket/',
      Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
    );
    expect(error.retriable).toBe(true);
    expect(error.message).toMatch(
      /^Could not list s3:\/\/bucket\/: Error: connect ECONNREFUSED\. /,
    );
  });
});

describe('classifyAwsError on errors from the local services', () => {
  it("classifies DynamoDB Local's failed condition, cancelled transaction and missing table", async () => {
    const client = dynamoClient();
    const TableName = await createCheckpointTable(uniqueName('classify'));
    const put = new PutItemCommand({
      TableName,
      Item: { pk: { S: 'q' }, sk: { S: 'commit#1' } },
      ConditionExpression: 'attribute_not_exists(pk)',
    });
    await client.send(put);
    expect(classifyAwsError(await thrownBy(client.send(put)))).toBe('condition-failed');

    const transaction = await thrownBy(
      client.send(
        new TransactWriteItemsCommand({
          TransactItems: [
            {
              Put: {
                TableName,
                Item: { pk: { S: 'q' }, sk: { S: 'commit#2' } },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            {
              Put: {
                TableName,
                Item: { pk: { S: 'q' }, sk: { S: 'commit#1' } },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
          ],
        }),
      ),
    );
    expect(classifyAwsError(transaction)).toBe('condition-failed');
    expect(cancelledTransactionItems(transaction)).toEqual(['none', 'condition-failed']);

    const missing = await thrownBy(
      client.send(
        new GetItemCommand({
          TableName: uniqueName('no-such-table'),
          Key: { pk: { S: 'q' }, sk: { S: 'head' } },
        }),
      ),
    );
    expect(classifyAwsError(missing)).toBe('missing-resource');
    expect(missing).toBeInstanceOf(DynamoDBServiceException);
    client.destroy();
  });

  it("classifies s3rver's missing key and missing bucket", async () => {
    const client = s3Client();
    const Bucket = await createBucket(uniqueName('classify'));
    expect(
      classifyAwsError(await thrownBy(client.send(new GetObjectCommand({ Bucket, Key: 'nope' })))),
    ).toBe('not-found');
    expect(
      classifyAwsError(
        await thrownBy(
          client.send(new GetObjectCommand({ Bucket: uniqueName('no-such-bucket'), Key: 'k' })),
        ),
      ),
    ).toBe('missing-resource');
    client.destroy();
  });

  it('classifies a refused connection as unavailable', async () => {
    const client = localDynamoClient(`http://127.0.0.1:${await closedPort()}`);
    const refused = await thrownBy(
      client.send(
        new CreateTableCommand({
          TableName: 'unreachable',
          BillingMode: 'PAY_PER_REQUEST',
          AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
          KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
        }),
      ),
    );
    expect(classifyAwsError(refused)).toBe('unavailable');
    client.destroy();
  });
});
