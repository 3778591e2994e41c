/**
 * What the sink registry needs from the DynamoDB adapter: its settings, and a factory that makes the
 * sink from them. The registry (core/api) and the adapter (core/aws) both depend on this contract,
 * so neither imports the other and the registry loads no AWS SDK.
 */
import type { Sink } from './sink.js';

/** The DynamoDB sink's settings that `format('dynamodb')` takes (see DynamoDbSinkOptions). */
export interface DynamoDbSinkSettings {
  /** The table; it must exist when the query starts. */
  readonly tableName: string;
  /** The table's partition key attribute. @default the table's */
  readonly partitionKey?: string;
  /** The table's sort key attribute, when it has one. @default the table's */
  readonly sortKey?: string;
  /** The result columns that key an item. @default an aggregation's grouping keys */
  readonly keyColumns?: readonly string[];
}

/**
 * Makes DynamoDB sinks with one client, e.g. `dynamoDbSinks({ client })` from core/aws, given to the
 * session as `new SluiceSession({ dynamoDbSinks: ... })`.
 */
export type DynamoDbSinkFactory = (settings: DynamoDbSinkSettings) => Sink;
