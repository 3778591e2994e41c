/**
 * The checkpoint's two stores when the construct creates them (docs/architecture.md section 3):
 * - the table holds offsets intents, commits and the head of each query, keyed `pk`/`sk`; commits
 *   expire through TTL on `expiresAt`; on-demand, since a query writes a few items per batch;
 *   point-in-time recovery, since losing the head loses exactly-once;
 * - the bucket holds state files. They are written once under attempt-unique keys and deleted by the
 *   state garbage collector, so versioning only keeps deleted files for a while: noncurrent versions
 *   expire, and so do incomplete multipart uploads of killed invocations.
 */
import { Duration, type RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as s3 from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';

/** The TTL attribute of commit log items (written by the DynamoDB checkpoint store). */
export const COMMIT_TTL_ATTRIBUTE = 'expiresAt';

/** How long a deleted state file stays recoverable as a noncurrent version. */
export const NONCURRENT_STATE_RETENTION = Duration.days(7);

/** A new checkpoint table. */
export function createCheckpointTable(
  scope: Construct,
  id: string,
  removalPolicy: RemovalPolicy,
): dynamodb.Table {
  return new dynamodb.Table(scope, id, {
    partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING },
    sortKey: { name: 'sk', type: dynamodb.AttributeType.STRING },
    billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    timeToLiveAttribute: COMMIT_TTL_ATTRIBUTE,
    removalPolicy,
  });
}

/** A new state bucket: private, encrypted, TLS only, with lifecycle rules for garbage. */
export function createStateBucket(
  scope: Construct,
  id: string,
  removalPolicy: RemovalPolicy,
): s3.Bucket {
  const bucket = new s3.Bucket(scope, id, {
    encryption: s3.BucketEncryption.S3_MANAGED,
    enforceSSL: true,
    blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
    objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
    versioned: true,
    removalPolicy,
    lifecycleRules: [
      {
        id: 'garbage',
        abortIncompleteMultipartUploadAfter: Duration.days(1),
        noncurrentVersionExpiration: NONCURRENT_STATE_RETENTION,
        expiredObjectDeleteMarker: true,
      },
    ],
  });
  Validations.of(bucket).acknowledge({
    id: 'AwsSolutions-S1',
    reason:
      'The state bucket is private to one function role; its requests are audited with CloudTrail data events if required, and server access logs would need a second bucket per query.',
  });
  return bucket;
}
