/**
 * The factory of the deployed checkpoints the state data source reads, registered once on the
 * session, as `s3ObjectStores` is for `s3://` locations:
 *
 * ```ts
 * const session = new SluiceSession({ checkpointBackends: awsCheckpointBackends({ region }) });
 * session.read.format('statestore').option('checkpointTable', 't').option('queryId', 'q')
 *   .option('stateLocation', 's3://bucket/sluice').load();
 * ```
 *
 * Every checkpoint it opens shares its clients. A session without one gets
 * `awsCheckpointBackends()` when it first reads a deployed checkpoint.
 */
import type { CheckpointBackendFactory } from '../checkpoint/deployed-checkpoint.js';
import {
  type AwsCheckpointConfig,
  awsCheckpointBackend,
  checkpointClients,
} from './aws-checkpoint-backend.js';

/** How deployed checkpoints are reached: region, retries, or the clients themselves. */
export type AwsCheckpointBackendsOptions = Pick<
  AwsCheckpointConfig,
  'region' | 'maxAttempts' | 'clients'
>;

/** A factory of DynamoDB + S3 checkpoint backends (awsCheckpointBackend); clients are made at first use. */
export function awsCheckpointBackends(
  options: AwsCheckpointBackendsOptions = {},
): CheckpointBackendFactory {
  let clients: ReturnType<typeof checkpointClients> | undefined;
  return (location) => {
    clients ??= checkpointClients(options);
    return awsCheckpointBackend({ ...location, clients });
  };
}
