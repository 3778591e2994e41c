/**
 * The AWS checkpoint backend on the run's local services: one DynamoDB table and one bucket shared by
 * every query of a test file (as in production), each query under its own id and key prefix.
 */
import { DynamoDbCheckpointStore } from '../../core/aws/dynamodb-checkpoint-store.js';
import { S3ObjectStore } from '../../core/aws/s3-object-store.js';
import type { CheckpointBackend } from '../../core/index.js';
import {
  createBucket,
  createCheckpointTable,
  dynamoClient,
  s3Client,
} from '../support/aws-clients.js';
import { uniqueName } from '../support/unique-name.js';

let resources: Promise<{ table: string; bucket: string }> | undefined;

/** The DynamoDB + S3 backend of query `queryId`; every call builds new clients (a cold container). */
export async function awsBackend(
  queryId: string,
): Promise<CheckpointBackend & { stateObjects: S3ObjectStore; tableName: string }> {
  resources ??= Promise.all([
    createCheckpointTable(uniqueName('checkpoints')),
    createBucket(uniqueName('state')),
  ]).then(([table, bucket]) => ({ table, bucket }));
  const { table, bucket } = await resources;
  const stateObjects = new S3ObjectStore({
    client: s3Client(),
    bucket,
    prefix: `queries/${queryId}`,
  });
  const checkpoint = new DynamoDbCheckpointStore({
    client: dynamoClient(),
    tableName: table,
    queryId,
    largeRecords: stateObjects,
  });
  return { checkpoint, stateObjects, tableName: table };
}
