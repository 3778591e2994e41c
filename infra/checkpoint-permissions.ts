/**
 * The function's access to its own checkpoint, and to nobody else's: many queries may share one
 * table and one bucket, so the table grant holds only for items whose partition key is
 * `query#<queryId>` (the `dynamodb:LeadingKeys` condition), and the bucket grant only under
 * `<statePrefix>/<queryId>/`. A query that runs as shards also has one item collection per shard,
 * `query#<queryId>#<stage>#<shard>`, matched by `query#<queryId>#*`: a query id holds no '#', so the
 * pattern matches no other query's items. The L2 grants (`grantReadWriteData`, `grantReadWrite`) cannot express
 * either restriction, so the statements are written out.
 */
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import { grantS3Prefix } from './s3-prefix-access.js';

/**
 * What the checkpoint store does: GetItem (head, intents, commits), PutItem (the offsets intent),
 * UpdateItem (lease, release) and Query (a head without a commit looks for a commit log, which
 * means the head was lost); the commit's TransactWriteItems is authorized as its Put and Updates.
 */
export const CHECKPOINT_TABLE_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:PutItem',
  'dynamodb:Query',
  'dynamodb:UpdateItem',
] as const;

/** What the state store does: write-once state files, reads, listing, and garbage collection. */
export const STATE_OBJECT_ACTIONS = ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'] as const;

/** The partition key of a query's item collection in the checkpoint table. */
export function checkpointPartitionKey(queryId: string): string {
  return `query#${queryId}`;
}

/** Grants `role` the items of `queryId` (and of its shards, when `parallelism` exceeds 1) in the checkpoint table. */
export function grantCheckpointItems(
  role: iam.Role,
  table: dynamodb.ITable,
  queryId: string,
  parallelism = 1,
): void {
  const own = checkpointPartitionKey(queryId);
  role.addToPrincipalPolicy(
    new iam.PolicyStatement({
      actions: [...CHECKPOINT_TABLE_ACTIONS],
      resources: [table.tableArn],
      conditions:
        parallelism === 1
          ? { 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': [own] } }
          : { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [own, `${own}#*`] } },
    }),
  );
  table.encryptionKey?.grantEncryptDecrypt(role);
}

/** Grants `role` the state files of `queryId` under `statePrefix` in the bucket. */
export function grantStateObjects(
  role: iam.Role,
  bucket: s3.IBucket,
  statePrefix: string,
  queryId: string,
): void {
  grantS3Prefix(role, {
    bucketArn: bucket.bucketArn,
    prefix: `${statePrefix}/${queryId}/`,
    actions: STATE_OBJECT_ACTIONS,
    reason: `State files are write-once objects under attempt-unique keys below the query's own prefix; the grant covers that prefix only.`,
  });
  bucket.encryptionKey?.grantEncryptDecrypt(role);
}
