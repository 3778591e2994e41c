/**
 * The options by which a reader names a deployed query's checkpoint instead of a local directory:
 * `checkpointTable` (the DynamoDB table), `queryId`, and `stateLocation`, the state bucket and key
 * prefix as `s3://bucket/prefix` (the prefix before the query id, `sluice` when the URL has none),
 * the same settings the micro-batch function is deployed with. The session's `checkpointBackends`
 * opens it; without one, the AWS adapter is loaded here with the SDK's default resolution.
 */
import type { CheckpointBackend } from '../checkpoint/checkpoint-store.js';
import { validateKeyPrefix, validateQueryId } from '../checkpoint/checkpoint-identifiers.js';
import type {
  CheckpointBackendFactory,
  DeployedCheckpointLocation,
} from '../checkpoint/deployed-checkpoint.js';
import { InvalidOptionError } from '../errors.js';
import type { OptionValue } from './reader-options.js';
import { importAwsAdapter } from './lazy-aws-adapter.js';
import type { SluiceSession } from './session.js';

/** The options that name a deployed checkpoint, as a user spells them. */
export const DEPLOYED_CHECKPOINT_OPTIONS = ['checkpointTable', 'queryId', 'stateLocation'] as const;

const STATE_LOCATION = /^s3:\/\/([^/]+)(?:\/(.*))?$/i;
const DEFAULT_PREFIX = 'sluice';

/**
 * The deployed checkpoint `options` name (keys in lower case, as readers keep them), or undefined
 * when they name none. `format` names the reader in messages.
 */
export function deployedCheckpointLocation(
  format: string,
  options: ReadonlyMap<string, OptionValue>,
): DeployedCheckpointLocation | undefined {
  const [table, queryId, stateLocation] = DEPLOYED_CHECKPOINT_OPTIONS.map((name) => {
    const value = options.get(name.toLowerCase());
    return value === undefined ? undefined : String(value).trim();
  });
  if (table === undefined && queryId === undefined && stateLocation === undefined) return undefined;
  if (!table || !queryId || !stateLocation) {
    throw new InvalidOptionError(
      `format('${format}') on a deployed query needs all of checkpointTable (its DynamoDB table), queryId and stateLocation (s3://bucket/prefix of its state), the function's SLUICE_CHECKPOINT_TABLE, SLUICE_QUERY_ID, SLUICE_STATE_BUCKET and SLUICE_STATE_PREFIX.`,
    );
  }
  const match = STATE_LOCATION.exec(stateLocation);
  if (!match) {
    throw new InvalidOptionError(
      `format('${format}') option stateLocation must be the state bucket and prefix as s3://bucket/prefix, got '${stateLocation}'.`,
    );
  }
  const prefix = (match[2] ?? '').replace(/\/$/, '') || DEFAULT_PREFIX;
  return {
    tableName: table,
    queryId: validateQueryId(queryId, 'queryId'),
    bucket: match[1],
    prefix: validateKeyPrefix(prefix, 'the prefix of stateLocation'),
  };
}

/** The backend of `location`, from the session's factory or else the AWS adapter's default one. */
export async function openDeployedCheckpoint(
  session: SluiceSession,
  location: DeployedCheckpointLocation,
): Promise<CheckpointBackend> {
  const factory = session.checkpointBackends ?? (await defaultCheckpointBackends());
  return factory(location);
}

/** The AWS adapter's module, a variable so that bundlers leave it out (lazy-aws-adapter.ts). */
const AWS_CHECKPOINT_BACKENDS_MODULE = '../aws/aws-checkpoint-backends.js';

async function defaultCheckpointBackends(): Promise<CheckpointBackendFactory> {
  const adapter = await importAwsAdapter<typeof import('../aws/aws-checkpoint-backends.js')>(
    AWS_CHECKPOINT_BACKENDS_MODULE,
    'Reading a deployed checkpoint',
    'new SluiceSession({ checkpointBackends: awsCheckpointBackends({ clients }) })',
  );
  return adapter.awsCheckpointBackends();
}
