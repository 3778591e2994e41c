/**
 * The AWS checkpoint backend from configuration: offsets, commits and the lease in a DynamoDB table,
 * state files in an S3 bucket, both shared by many queries (each under its query id and key prefix).
 * Clients retry throttling and 5xx answers with the SDK's adaptive backoff.
 *
 * A shard of a query with parallelism above 1 has its own item collection (`query#<id>#<stage>#<shard>`)
 * and state prefix (`<prefix>/<id>/stages/<stage>/shards/<shard>`); the query's own item collection
 * keeps the metadata that records the parallelism. The unsharded query keeps the layout it always had.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { validateKeyPrefix, validateQueryId } from '../checkpoint/checkpoint-identifiers.js';
import type { CheckpointBackend } from '../checkpoint/checkpoint-store.js';
import {
  isUnsharded,
  type ShardIdentity,
  shardStatePath,
  UNSHARDED,
  validateShardIdentity,
} from '../checkpoint/shard-identity.js';
import { InvalidOptionError } from '../errors.js';
import { DynamoDbCheckpointStore } from './dynamodb-checkpoint-store.js';
import { S3ObjectStore } from './s3-object-store.js';

/** Where a query's checkpoint lives on AWS. */
export interface AwsCheckpointConfig {
  /** The checkpoint table (string keys `pk` and `sk`). */
  readonly tableName: string;
  /** The bucket for state files. */
  readonly bucket: string;
  /** Stable id of the query: its item collection and its key prefix (see checkpoint-identifiers.ts). */
  readonly queryId: string;
  /** Key prefix in the bucket, before the query id, without '/' at either end. @default 'sluice' */
  readonly prefix?: string;
  /** @default the SDK's region resolution (AWS_REGION in Lambda) */
  readonly region?: string;
  /** Attempts per request, with adaptive backoff for throttling and 5xx. @default 5 */
  readonly maxAttempts?: number;
  /** The shard of the query this backend is for. @default the unsharded query */
  readonly shard?: ShardIdentity;
  /** Clients to use instead of new ones (tests pass clients for local endpoints). */
  readonly clients?: { readonly dynamodb?: DynamoDBClient; readonly s3?: S3Client };
}

/** Builds the DynamoDB + S3 backend of one query, checking the configuration first. */
export function awsCheckpointBackend(config: AwsCheckpointConfig): CheckpointBackend {
  requireSetting('tableName', config.tableName);
  requireSetting('bucket', config.bucket);
  validateQueryId(config.queryId, 'queryId');
  validateKeyPrefix(config.prefix ?? 'sluice', 'prefix');
  const { s3, dynamodb } = checkpointClients(config);
  const shard = validateShardIdentity(config.shard ?? UNSHARDED, 'shard');
  const queryPrefix = `${config.prefix ?? 'sluice'}/${config.queryId}`;
  const checkpointOf = (identity: ShardIdentity) => {
    const below = shardStatePath(identity);
    const prefix = below === '' ? queryPrefix : `${queryPrefix}/${below}`;
    const stateObjects = new S3ObjectStore({ client: s3, bucket: config.bucket, prefix });
    const checkpoint = new DynamoDbCheckpointStore({
      client: dynamodb,
      tableName: config.tableName,
      queryId: config.queryId,
      shard: identity,
      largeRecords: stateObjects,
    });
    return { checkpoint, stateObjects };
  };
  const own = checkpointOf(shard);
  if (isUnsharded(shard)) return own;
  return { ...own, shard, queryCheckpoint: checkpointOf(UNSHARDED).checkpoint };
}

/** The given clients, or new ones with the config's region and adaptive retries. */
export function checkpointClients(
  config: Pick<AwsCheckpointConfig, 'region' | 'maxAttempts' | 'clients'>,
): { dynamodb: DynamoDBClient; s3: S3Client } {
  const retry = {
    region: config.region,
    maxAttempts: config.maxAttempts ?? 5,
    retryMode: 'adaptive' as const,
  };
  return {
    dynamodb: config.clients?.dynamodb ?? new DynamoDBClient(retry),
    s3: config.clients?.s3 ?? new S3Client(retry),
  };
}

function requireSetting(name: string, value: string | undefined): void {
  if (!value || value.trim() === '') {
    throw new InvalidOptionError(
      `The AWS checkpoint needs '${name}'; set it to the name of an existing ${name === 'bucket' ? 'S3 bucket' : 'DynamoDB table'}.`,
    );
  }
}
