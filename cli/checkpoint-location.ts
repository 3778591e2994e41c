/**
 * Where a command finds a query's checkpoint: a local checkpoint directory (`--checkpoint DIR`), or
 * a deployed query's DynamoDB checkpoint (`--table T --query-id Q`, with `--bucket B` when the
 * command reads state). The AWS SDK is loaded only for the latter; its endpoint, region and
 * credentials come from the SDK's own settings (AWS_REGION, AWS_PROFILE, AWS_ENDPOINT_URL_DYNAMODB...).
 */
import type { Command } from 'commander';
import {
  type CheckpointBackend,
  type CheckpointStore,
  localCheckpointBackend,
  type ShardIdentity,
  UNSHARDED,
} from '../core/index.js';
import { CliUsageError } from './cli-usage-error.js';

/** The location options as commander parses them. */
export interface LocationOptions {
  readonly checkpoint?: string;
  readonly table?: string;
  readonly queryId?: string;
  readonly bucket?: string;
  readonly prefix?: string;
  readonly region?: string;
}

/** Adds the location options to `command`. */
export function withLocationOptions(command: Command): Command {
  return command
    .option('-c, --checkpoint <dir>', 'local checkpoint directory of the query')
    .option('--table <name>', "a deployed query's DynamoDB checkpoint table")
    .option('--query-id <id>', 'the deployed query id (with --table)')
    .option('--bucket <name>', "the deployed query's state bucket (with --table, to read state)")
    .option('--prefix <prefix>', 'key prefix of the state in the bucket', 'sluice')
    .option('--region <region>', 'AWS region (default: the SDK settings)');
}

/**
 * The checkpoint the options name, for commands that read only the checkpoint (status, history):
 * the query's, or one shard's of a query that runs as shards.
 */
export async function openCheckpointStore(
  options: LocationOptions,
  shard: ShardIdentity = UNSHARDED,
): Promise<CheckpointStore> {
  if (localDirectory(options) !== undefined || options.bucket !== undefined) {
    return (await openCheckpointBackend(options, shard)).checkpoint;
  }
  const { table, queryId } = deployedQuery(options);
  const [{ DynamoDbCheckpointStore }, { DynamoDBClient }] = await Promise.all([
    import('../core/aws/index.js'),
    import('@aws-sdk/client-dynamodb'),
  ]);
  return new DynamoDbCheckpointStore({
    client: new DynamoDBClient(options.region === undefined ? {} : { region: options.region }),
    tableName: table,
    queryId,
    shard,
  });
}

/** The checkpoint and state files the options name, for commands that read state (state, replay). */
export async function openCheckpointBackend(
  options: LocationOptions,
  shard: ShardIdentity = UNSHARDED,
): Promise<CheckpointBackend> {
  const directory = localDirectory(options);
  if (directory !== undefined) return localCheckpointBackend(directory, shard);
  const { table, queryId } = deployedQuery(options);
  if (options.bucket === undefined) {
    throw new CliUsageError("reading a deployed query's state needs its bucket: add --bucket B");
  }
  const { awsCheckpointBackend } = await import('../core/aws/index.js');
  return awsCheckpointBackend({
    tableName: table,
    queryId,
    bucket: options.bucket,
    prefix: options.prefix,
    shard,
    ...(options.region === undefined ? {} : { region: options.region }),
  });
}

/** The local checkpoint directory the options name, if they name one (and not also a table). */
function localDirectory(options: LocationOptions): string | undefined {
  if (options.checkpoint !== undefined && options.table !== undefined) {
    throw new CliUsageError('give either --checkpoint DIR or --table T --query-id Q, not both');
  }
  return options.checkpoint;
}

/** The table and query id of a deployed query, or the usage error that says what is missing. */
function deployedQuery(options: LocationOptions): { table: string; queryId: string } {
  if (options.table === undefined || options.queryId === undefined) {
    throw new CliUsageError(
      'say where the checkpoint is: --checkpoint DIR (local) or --table T --query-id Q (deployed)',
    );
  }
  return { table: options.table, queryId: options.queryId };
}
