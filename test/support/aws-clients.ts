/**
 * Clients and resources on the run's local AWS services, for tests: the endpoints come from the
 * global setup through `inject`. Give every table and bucket a unique name (`uniqueName`), since
 * test files share the services.
 */
import { CreateTableCommand, DynamoDBClient, waitUntilTableExists } from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { inject } from 'vitest';
import { localDynamoClient, localS3Client } from './local-aws-clients.js';

/** A DynamoDB client for the run's DynamoDB Local. */
export function dynamoClient(): DynamoDBClient {
  return localDynamoClient(inject('dynamoDbEndpoint'));
}

/** An S3 client for the run's s3rver. */
export function s3Client(): S3Client {
  return localS3Client(inject('s3Endpoint'));
}

/**
 * Creates a checkpoint table as the deployment does: string keys `pk` (partition) and `sk` (sort),
 * on-demand capacity. Resolves with `name` once the table is active.
 */
export async function createCheckpointTable(name: string): Promise<string> {
  const client = dynamoClient();
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

/** Creates a bucket; resolves with `name`. */
export async function createBucket(name: string): Promise<string> {
  const client = s3Client();
  try {
    await client.send(new CreateBucketCommand({ Bucket: name }));
    return name;
  } finally {
    client.destroy();
  }
}
