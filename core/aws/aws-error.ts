/**
 * AWS SDK failures, classified once at the adapter edge. DynamoDB and S3 report outcomes as error
 * names, HTTP statuses and (for transactions) per-item cancellation reasons; adapters turn them into
 * a small union here, so the engine decides on `AwsErrorKind` values and `retriable` flags and never
 * parses SDK error names itself.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { CheckpointError } from '../errors.js';

/**
 * What an AWS call's failure means for the caller:
 * - `condition-failed`: a DynamoDB condition did not hold (ConditionalCheckFailedException, or a
 *   cancelled transaction in which an item's condition failed). Usually an expected outcome.
 * - `transaction-conflict`: a concurrent request on the same item or object interfered (DynamoDB
 *   TransactionConflict / TransactionInProgress, S3's 409 ConditionalRequestConflict); retry.
 * - `precondition-failed`: an S3 conditional request's precondition did not hold (412), e.g. a
 *   PutObject with If-None-Match: * on a key that exists.
 * - `not-found`: the object or item does not exist (NoSuchKey, 404).
 * - `missing-resource`: the bucket or table itself does not exist; a configuration problem.
 * - `throttled`: the service asked to slow down, and the SDK's own retries did not get through.
 * - `unavailable`: the service failed (5xx), timed out, or could not be reached.
 * - `other`: anything else (validation, permissions, bugs); retrying does not help.
 */
export type AwsErrorKind =
  | 'condition-failed'
  | 'transaction-conflict'
  | 'precondition-failed'
  | 'not-found'
  | 'missing-resource'
  | 'throttled'
  | 'unavailable'
  | 'other';

/** The fields of an SDK (or Node network) error this module reads. */
interface SdkErrorFields {
  readonly name?: unknown;
  readonly code?: unknown;
  readonly message?: unknown;
  readonly $metadata?: { readonly httpStatusCode?: unknown };
  readonly CancellationReasons?: unknown;
  readonly Item?: unknown;
}

const NAMES: Readonly<Record<string, AwsErrorKind>> = {
  ConditionalCheckFailedException: 'condition-failed',
  TransactionConflictException: 'transaction-conflict',
  // the same ClientRequestToken is still being processed: the earlier call may yet commit
  TransactionInProgressException: 'transaction-conflict',
  // the same ClientRequestToken was used with other parameters: a rival attempt of the same commit
  IdempotentParameterMismatchException: 'transaction-conflict',
  ConditionalRequestConflict: 'transaction-conflict',
  OperationAborted: 'transaction-conflict',
  PreconditionFailed: 'precondition-failed',
  NoSuchKey: 'not-found',
  NotFound: 'not-found',
  NoSuchBucket: 'missing-resource',
  ResourceNotFoundException: 'missing-resource',
  ProvisionedThroughputExceededException: 'throttled',
  RequestLimitExceeded: 'throttled',
  ThrottlingException: 'throttled',
  Throttling: 'throttled',
  TooManyRequestsException: 'throttled',
  SlowDown: 'throttled',
  InternalServerError: 'unavailable',
  InternalError: 'unavailable',
  ServiceUnavailable: 'unavailable',
  RequestTimeout: 'unavailable',
  RequestTimeoutException: 'unavailable',
  TimeoutError: 'unavailable',
};

/** Per-item reason codes of a cancelled DynamoDB transaction. */
const CANCELLATION_CODES: Readonly<Record<string, AwsErrorKind | 'none'>> = {
  None: 'none',
  ConditionalCheckFailed: 'condition-failed',
  TransactionConflict: 'transaction-conflict',
  ProvisionedThroughputExceeded: 'throttled',
  ThrottlingError: 'throttled',
  RequestLimitExceeded: 'throttled',
};

/** Socket-level failures: the request may never have reached the service. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'ENOTFOUND',
]);

const RETRIABLE: ReadonlySet<AwsErrorKind> = new Set([
  'transaction-conflict',
  'throttled',
  'unavailable',
]);

/** Classifies a failure thrown by an AWS SDK v3 client (or by the network under it). */
export function classifyAwsError(error: unknown): AwsErrorKind {
  const fields = asFields(error);
  if (fields.name === 'TransactionCanceledException') return classifyCancellation(error);
  const byName = typeof fields.name === 'string' ? NAMES[fields.name] : undefined;
  if (byName) return byName;
  if (typeof fields.code === 'string' && NETWORK_CODES.has(fields.code)) return 'unavailable';
  const status = fields.$metadata?.httpStatusCode;
  if (typeof status !== 'number') return 'other';
  if (status === 404) return 'not-found';
  if (status === 412) return 'precondition-failed';
  if (status === 429) return 'throttled';
  if (status >= 500) return 'unavailable';
  return 'other';
}

/**
 * Per item of a cancelled TransactWriteItems, in request order, what stopped it (`none` for items
 * that were fine), so a caller can tell which of its conditions failed. Empty when `error` is not a
 * cancelled transaction or the service gave no reasons.
 */
export function cancelledTransactionItems(error: unknown): Array<AwsErrorKind | 'none'> {
  const fields = asFields(error);
  if (
    fields.name !== 'TransactionCanceledException' ||
    !Array.isArray(fields.CancellationReasons)
  ) {
    return [];
  }
  return fields.CancellationReasons.map((reason: { Code?: unknown } | undefined) => {
    const code = reason?.Code;
    return (typeof code === 'string' ? CANCELLATION_CODES[code] : undefined) ?? 'other';
  });
}

/**
 * The item a failed condition was evaluated on, as DynamoDB returns it to a request made with
 * `ReturnValuesOnConditionCheckFailure: 'ALL_OLD'` (raw attribute values: the document client does
 * not convert an error's item). Undefined when `error` is no failed condition or the item was absent.
 */
export function conditionFailedItem(error: unknown): Record<string, AttributeValue> | undefined {
  const fields = asFields(error);
  if (fields.name !== 'ConditionalCheckFailedException') return undefined;
  const item = fields.Item;
  return typeof item === 'object' && item !== null
    ? (item as Record<string, AttributeValue>)
    : undefined;
}

/** True for the kinds a later attempt of the same call can get past. */
export function isRetriableAwsError(kind: AwsErrorKind): boolean {
  return RETRIABLE.has(kind);
}

/**
 * Wraps an unexpected AWS failure as a CheckpointError: `context` says what was being done to which
 * table item or object; the message adds what the service said and what to do, `retriable` follows
 * the classification, and the SDK error is the `cause`.
 */
export function awsFailure(context: string, error: unknown): CheckpointError {
  const kind = classifyAwsError(error);
  const fields = asFields(error);
  const name = typeof fields.name === 'string' ? fields.name : 'Error';
  const status = fields.$metadata?.httpStatusCode;
  // the service's own sentence, without its final period: the advice follows it
  const message = String(fields.message ?? error).replace(/\.$/, '');
  const said = `${name}${typeof status === 'number' ? ` (HTTP ${status})` : ''}: ${message}`;
  return new CheckpointError(`${context}: ${said}. ${ADVICE[kind]}`, {
    cause: error,
    retriable: isRetriableAwsError(kind),
  });
}

const ADVICE: Readonly<Record<AwsErrorKind, string>> = {
  'condition-failed':
    'A condition of the request did not hold; another writer changed the item first.',
  'transaction-conflict':
    'A concurrent request on the same item or object interfered; retrying can succeed.',
  'precondition-failed':
    'A precondition of the request did not hold; another writer created or changed the object first.',
  'not-found': 'The object or item does not exist.',
  'missing-resource':
    'The table or bucket does not exist: create it (the MicroBatchQuery construct does) or fix the configured name, region and endpoint.',
  throttled:
    "The service is throttling requests beyond the SDK's retries; retry later, and raise capacity if it persists.",
  unavailable: 'The service failed or could not be reached; retrying can succeed.',
  other: "Check the configured names, region and endpoint, and the caller's IAM permissions.",
};

/**
 * Which kind a cancelled transaction is: a failed condition decides (the transaction cannot succeed
 * as written), then a conflict or throttling (it can succeed when retried).
 */
function classifyCancellation(error: unknown): AwsErrorKind {
  const items = cancelledTransactionItems(error);
  for (const kind of ['condition-failed', 'transaction-conflict', 'throttled'] as const) {
    if (items.includes(kind)) return kind;
  }
  return 'other';
}

function asFields(error: unknown): SdkErrorFields {
  return typeof error === 'object' && error !== null ? (error as SdkErrorFields) : {};
}
