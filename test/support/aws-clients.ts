/**
 * Clients and resources on the run's local AWS services, for tests: the endpoints come from the
 * global setup through `inject`. Give every table and bucket a unique name (`uniqueName`), since
 * test files share the services.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { S3Client } from '@aws-sdk/client-s3';
import { inject } from 'vitest';
import {
  createLocalBucket,
  createLocalCheckpointTable,
  localDynamoClient,
  localS3Client,
} from './local-aws-clients.js';

/** A DynamoDB client for the run's DynamoDB Local. */
export function dynamoClient(): DynamoDBClient {
  return localDynamoClient(inject('dynamoDbEndpoint'));
}

/** An S3 client for the run's s3rver. */
export function s3Client(): S3Client {
  return localS3Client(inject('s3Endpoint'));
}

/**
 * Creates a checkpoint table as the deployment does (see `createLocalCheckpointTable`); resolves
 * with `name` once the table is active.
 */
export function createCheckpointTable(name: string): Promise<string> {
  return createLocalCheckpointTable(inject('dynamoDbEndpoint'), name);
}

/** Creates a bucket; resolves with `name`. */
export function createBucket(name: string): Promise<string> {
  return createLocalBucket(inject('s3Endpoint'), name);
}
