/**
 * The factory of the DynamoDB sinks `writeStream.format('dynamodb')` names, registered once on the
 * session, as `s3ObjectStores` is for `s3://` locations:
 *
 * ```ts
 * const session = new SluiceSession({ dynamoDbSinks: dynamoDbSinks({ client }) });
 * df.writeStream.format('dynamodb').option('tableName', 'counts').outputMode('update')...
 * ```
 *
 * Every sink shares one client, so its connection pool and credentials serve them all. A session
 * without one gets `dynamoDbSinks()` when a query first writes to DynamoDB.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDbSinkFactory } from '../sinks/dynamodb-sink-factory.js';
import { InvalidOptionError } from '../errors.js';
import { DynamoDbSink } from './dynamodb-sink.js';

/** How DynamoDB sinks reach DynamoDB. */
export interface DynamoDbSinksOptions {
  /** The client to use (tests pass one for a local endpoint). @default a new client with `region` and adaptive retries, its endpoint from AWS_ENDPOINT_URL_DYNAMODB when set */
  readonly client?: DynamoDBClient;
  /** @default the SDK's region resolution (AWS_REGION in Lambda) */
  readonly region?: string;
  /** Attempts per request, with adaptive backoff for throttling and 5xx. @default 5 */
  readonly maxAttempts?: number;
}

/** A factory of DynamoDbSinks sharing one client; the options are checked now. */
export function dynamoDbSinks(options: DynamoDbSinksOptions = {}): DynamoDbSinkFactory {
  if (options.client && (options.region !== undefined || options.maxAttempts !== undefined)) {
    throw new InvalidOptionError(
      'dynamoDbSinks: give either a client or region/maxAttempts for a new one, not both: the client already has its region and retry settings.',
    );
  }
  const maxAttempts = options.maxAttempts ?? 5;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) {
    throw new InvalidOptionError(
      `dynamoDbSinks option 'maxAttempts' must be a positive integer, got ${maxAttempts}.`,
    );
  }
  const client =
    options.client ??
    new DynamoDBClient({ region: options.region, maxAttempts, retryMode: 'adaptive' });
  return (settings) => new DynamoDbSink({ client, ...settings });
}
