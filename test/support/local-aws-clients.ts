/**
 * AWS SDK clients for the local test services, and the checkpoint tables and buckets the tests and
 * the checkpoint benchmark create on them. Everything a client would otherwise look up is given
 * explicitly (region, static dummy credentials, endpoint), so no client asks the instance metadata
 * service for credentials or region and all traffic goes to 127.0.0.1; the global setup also points
 * the SDK's shared config files away from ~/.aws.
 */
import {
  CreateTableCommand,
  DynamoDBClient,
  type DynamoDBClientConfig,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';

const REGION = 'us-east-1';

/**
 * Two attempts: one retry absorbs a transient local hiccup, and a test that provokes failures does
 * not wait through the SDK's default backoff.
 */
const MAX_ATTEMPTS = 2;

/** Fail fast instead of hanging until the test's timeout when a local service is gone. */
const REQUEST_HANDLER = { connectionTimeout: 2_000, requestTimeout: 15_000 };

/**
 * A DynamoDB client for DynamoDB Local at `endpoint` (any alphanumeric credentials work there);
 * `overrides` change its retries or timeouts.
 */
export function localDynamoClient(
  endpoint: string,
  overrides: DynamoDBClientConfig = {},
): DynamoDBClient {
  return new DynamoDBClient({
    region: REGION,
    endpoint,
    credentials: { accessKeyId: 'sluicetest', secretAccessKey: 'sluicetest' },
    maxAttempts: MAX_ATTEMPTS,
    requestHandler: REQUEST_HANDLER,
    ...overrides,
  });
}

/** An S3 client for s3rver at `endpoint`; `overrides` change its retries or timeouts. */
export function localS3Client(endpoint: string, overrides: S3ClientConfig = {}): S3Client {
  return new S3Client({
    region: REGION,
    endpoint,
    // s3rver serves buckets by path, not by virtual host
    forcePathStyle: true,
    // s3rver checks signatures against its one built-in key pair
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    // By default the SDK sends streamed uploads aws-chunked with a trailing checksum; s3rver would
    // store that framing as the object's content. Checksums only when an operation requires one.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: MAX_ATTEMPTS,
    requestHandler: REQUEST_HANDLER,
    ...overrides,
  });
}

/**
 * Creates a checkpoint table on DynamoDB Local at `endpoint` as the deployment does: string keys
 * `pk` (partition) and `sk` (sort), on-demand capacity. Resolves with `name` once the table is active.
 */
export async function createLocalCheckpointTable(endpoint: string, name: string): Promise<string> {
  const client = localDynamoClient(endpoint);
  try {
    await client.send(
      new CreateTableCommand({
        TableName: name,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [
          { AttributeName: 'pk', AttributeType: 'S' },
          { AttributeName: 'sk', AttributeType: 'S' },
        ],
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
      }),
    );
    // DynamoDB Local creates tables active at once; the waiter's first check returns immediately
    await waitUntilTableExists({ client, maxWaitTime: 30, minDelay: 1 }, { TableName: name });
    return name;
  } finally {
    client.destroy();
  }
}

/** Creates a bucket on s3rver at `endpoint`; resolves with `name`. */
export async function createLocalBucket(endpoint: string, name: string): Promise<string> {
  const client = localS3Client(endpoint);
  try {
    await client.send(new CreateBucketCommand({ Bucket: name }));
    return name;
  } finally {
    client.destroy();
  }
}
