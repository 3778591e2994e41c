/**
 * The AWS checkpoint backend on the run's local services: one DynamoDB table and one bucket shared by
 * every query of a test file (as in production), each query under its own id and key prefix; and
 * the same backend as an invocation sees it whose lease renewals never get through.
 */
import { DynamoDbCheckpointStore } from '../../core/aws/dynamodb-checkpoint-store.js';
import { S3ObjectStore } from '../../core/aws/s3-object-store.js';
import type { CheckpointBackend, CheckpointStore } from '../../core/index.js';
import {
  createBucket,
  createCheckpointTable,
  dynamoClient,
  s3Client,
} from '../support/aws-clients.js';
import { uniqueName } from '../support/unique-name.js';

let resources: Promise<{ table: string; bucket: string }> | undefined;

/**
 * The DynamoDB + S3 backend of query `queryId`; every call builds new clients (a cold container).
 * `clock` is the checkpoint's (lease expiries), the system's unless given.
 */
export async function awsBackend(
  queryId: string,
  clock?: () => number,
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
    ...(clock ? { clock } : {}),
  });
  return { checkpoint, stateObjects, tableName: table };
}

/**
 * The backend of an invocation whose lease renewals never get through (its process stalled, its
 * network cut): once its short lease lapses, another invocation may take over while it still runs.
 */
export async function stalledAwsBackend(
  queryId: string,
): Promise<CheckpointBackend & { stateObjects: S3ObjectStore; tableName: string }> {
  const backend = await awsBackend(queryId);
  const checkpoint = Object.assign(Object.create(backend.checkpoint) as CheckpointStore, {
    renewLease: undefined,
  });
  return { ...backend, checkpoint };
}
