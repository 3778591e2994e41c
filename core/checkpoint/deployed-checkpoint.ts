/**
 * A deployed query's checkpoint, named by where it lives rather than by a directory: the DynamoDB
 * table that holds its offsets and commits, its query id, and the bucket and key prefix of its state
 * files. Readers of a checkpoint from outside its query (the state data source) name it so, and a
 * factory given to the session turns it into a backend. The engine and the DataFrame API depend on
 * this contract and the AWS adapter implements it (`awsCheckpointBackends` in core/aws), so neither
 * imports the other and reading a local checkpoint loads no AWS SDK.
 */
import type { CheckpointBackend } from './checkpoint-store.js';

/** Where a deployed query's checkpoint is, as the micro-batch function is configured with it. */
export interface DeployedCheckpointLocation {
  /** The checkpoint table (the function's SLUICE_CHECKPOINT_TABLE). */
  readonly tableName: string;
  /** The query id (SLUICE_QUERY_ID): its item collection in the table and its key prefix in the bucket. */
  readonly queryId: string;
  /** The state bucket (SLUICE_STATE_BUCKET). */
  readonly bucket: string;
  /** The key prefix before the query id (SLUICE_STATE_PREFIX). */
  readonly prefix: string;
}

/** Opens the checkpoint of a deployed query, e.g. `awsCheckpointBackends({ clients })` from core/aws. */
export type CheckpointBackendFactory = (location: DeployedCheckpointLocation) => CheckpointBackend;
