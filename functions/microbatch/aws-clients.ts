/**
 * The AWS clients of one function container: created at cold start and shared by every invocation
 * the container serves, so warm invocations reuse their connections. Region, credentials and
 * endpoints come from the SDK's own resolution (AWS_REGION and the role's credentials in Lambda;
 * AWS_ENDPOINT_URL_S3 and AWS_ENDPOINT_URL_DYNAMODB point them at other endpoints).
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import type { MicroBatchConfig } from './configuration.js';

/** The clients the function's checkpoint, state and sink use. */
export interface AwsClients {
  readonly s3: S3Client;
  readonly dynamodb: DynamoDBClient;
}

/**
 * Attempts per request, with the SDK's adaptive backoff for throttling and 5xx answers: the same
 * policy as `awsCheckpointBackend`'s own clients.
 */
const MAX_ATTEMPTS = 5;

/** New clients for `config`. */
export function createAwsClients(config: Pick<MicroBatchConfig, 's3ForcePathStyle'>): AwsClients {
  const retry = { maxAttempts: MAX_ATTEMPTS, retryMode: 'adaptive' as const };
  return {
    s3: new S3Client({ ...retry, forcePathStyle: config.s3ForcePathStyle }),
    dynamodb: new DynamoDBClient(retry),
  };
}
