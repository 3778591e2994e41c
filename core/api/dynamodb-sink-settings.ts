/**
 * `writeStream.format('dynamodb').option('tableName', name)`: the DynamoDB sink from the writer's
 * string-valued options. The options are checked here, without the AWS SDK; the sink itself comes
 * from a {@link DynamoDbSinkFactory} of the AWS adapter (`dynamoDbSinks` in core/aws): the one the
 * session was created with, or else one whose client finds its region, credentials and endpoint as
 * the SDK does (AWS_REGION, AWS_ENDPOINT_URL_DYNAMODB), loaded only when such a query starts.
 */
import { InvalidOptionError } from '../errors.js';
import type { DynamoDbSinkFactory, DynamoDbSinkSettings } from '../sinks/dynamodb-sink-factory.js';
import { missingOptions, refuseUnknownOptions } from './option-refusal.js';
import type { OptionValue } from './reader-options.js';
import type { SinkCreator, SinkRequest } from './sink-formats.js';
import { isStreamingQueryOption } from './streaming-query-option-names.js';
import { importAwsAdapter } from './lazy-aws-adapter.js';

/** The options of `format('dynamodb')`, spelt as documented. */
export const DYNAMODB_SINK_OPTIONS: readonly string[] = [
  'tableName',
  'partitionKey',
  'sortKey',
  'keyColumns',
];
const ACCEPTED = new Set(DYNAMODB_SINK_OPTIONS.map((name) => name.toLowerCase()));

/** The DynamoDbSink options a string cannot carry, or that belong on the sink object. */
export const MISSING_DYNAMODB_SINK_OPTIONS = missingOptions(
  [
    'timestampFormat',
    'writeMethod',
    'maxConcurrentWrites',
    'batchIdAttribute',
    'queryIdAttribute',
  ].map((name) => [
    name,
    "is an option of the DynamoDbSink object, not of format('dynamodb'): write with writeStream.sink(new DynamoDbSink({ client, tableName, ... }))",
  ]),
);

/** The sink of `format('dynamodb')`: its options checked now, the sink made when the query starts. */
export function dynamoDbSink(request: SinkRequest): SinkCreator {
  const settings = dynamoDbSinkSettings(request.options);
  const sessionSinks = request.df.session.dynamoDbSinks;
  return async () => (sessionSinks ?? (await defaultDynamoDbSinks()))(settings);
}

/** Checks the options (keys lower-cased) of `format('dynamodb')`, naming a bad one. */
export function dynamoDbSinkSettings(
  options: ReadonlyMap<string, OptionValue>,
): DynamoDbSinkSettings {
  refuseUnknownOptions(new Map([...options].filter(([key]) => !isStreamingQueryOption(key))), {
    call: "writeStream.format('dynamodb')",
    subject: 'the DynamoDB sink',
    accepts: (key) => ACCEPTED.has(key),
    supported: DYNAMODB_SINK_OPTIONS.join(', '),
    missing: MISSING_DYNAMODB_SINK_OPTIONS,
  });
  const tableName = nameOption('tableName', options);
  if (tableName === undefined) {
    throw new InvalidOptionError(
      "The dynamodb sink needs its table: option('tableName', name) (the table must exist when the query starts).",
    );
  }
  const partitionKey = nameOption('partitionKey', options);
  const sortKey = nameOption('sortKey', options);
  const keyColumns = columnsOption('keyColumns', options);
  return {
    tableName,
    ...(partitionKey === undefined ? {} : { partitionKey }),
    ...(sortKey === undefined ? {} : { sortKey }),
    ...(keyColumns === undefined ? {} : { keyColumns }),
  };
}

/** A name-valued option: trimmed, and refused when blank. */
function nameOption(name: string, options: ReadonlyMap<string, OptionValue>): string | undefined {
  const value = options.get(name.toLowerCase());
  if (value === undefined) return undefined;
  const text = String(value).trim();
  if (text === '') {
    throw new InvalidOptionError(
      `Invalid option ${name}='${value}' of the dynamodb sink; give a name, or leave the option out.`,
    );
  }
  return text;
}

/** Column names separated by commas, each non-blank. */
function columnsOption(
  name: string,
  options: ReadonlyMap<string, OptionValue>,
): string[] | undefined {
  const text = nameOption(name, options);
  if (text === undefined) return undefined;
  const columns = text.split(',').map((c) => c.trim());
  if (columns.some((c) => c === '')) {
    throw new InvalidOptionError(
      `Invalid option ${name}='${text}' of the dynamodb sink; use column names separated by commas, e.g. 'window,category'.`,
    );
  }
  return columns;
}

/** The AWS adapter's module, a variable so that bundlers leave it out (lazy-aws-adapter.ts). */
const DYNAMODB_SINKS_MODULE = '../aws/dynamodb-sinks.js';

/** A factory with a client of the SDK's default resolution; the AWS SDK is loaded here. */
async function defaultDynamoDbSinks(): Promise<DynamoDbSinkFactory> {
  const adapter = await importAwsAdapter<typeof import('../aws/dynamodb-sinks.js')>(
    DYNAMODB_SINKS_MODULE,
    "format('dynamodb')",
    'new SluiceSession({ dynamoDbSinks: dynamoDbSinks({ client }) })',
  );
  return adapter.dynamoDbSinks();
}
