/**
 * Sluice on AWS: the adapters that use the AWS SDK, apart from the root entry (core/index.ts) so
 * that a query which needs none of them loads no SDK. A checkpoint in DynamoDB with state in S3
 * (`awsCheckpointBackend`; `awsCheckpointBackends` to read a deployed one's state), S3 locations
 * for readers and writers (`s3ObjectStores`), the DynamoDB sink, and Kafka credentials from
 * Secrets Manager and MSK IAM (`awsKafkaCredentials`, installed with `useKafkaCredentials`).
 *
 * ```ts
 * import { SluiceSession } from './core/index.js';
 * import { awsCheckpointBackend, awsKafkaCredentials, useKafkaCredentials } from './core/aws/index.js';
 * useKafkaCredentials(awsKafkaCredentials);
 * ```
 */
export { awsCheckpointBackend, type AwsCheckpointConfig } from './aws-checkpoint-backend.js';
export {
  awsCheckpointBackends,
  type AwsCheckpointBackendsOptions,
} from './aws-checkpoint-backends.js';
export { awsKafkaCredentials } from './aws-kafka-credentials.js';
export { useKafkaCredentials } from '../kafka/installed-kafka-credentials.js';
export {
  DynamoDbCheckpointStore,
  type DynamoDbCheckpointOptions,
} from './dynamodb-checkpoint-store.js';
export { S3ObjectStore, type S3ObjectStoreOptions } from './s3-object-store.js';
export {
  DEFAULT_MAX_CONCURRENT_WRITES,
  DynamoDbSink,
  type DynamoDbKeyAttribute,
  type DynamoDbSinkOptions,
} from './dynamodb-sink.js';
export type { DynamoDbTimestampFormat } from './dynamodb-item-codec.js';
export type { DynamoDbWriteMethod } from './dynamodb-item-writes.js';
export { s3ObjectStores, type S3ObjectStoresOptions } from './s3-object-stores.js';
export { dynamoDbSinks, type DynamoDbSinksOptions } from './dynamodb-sinks.js';
