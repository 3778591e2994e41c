/**
 * The faults AWS really returns, as the HTTP relay (http-relay.ts) injects them: the status and the
 * error body in each service's own format (S3's XML `<Error><Code>`, DynamoDB's JSON `__type`), so
 * the SDK parses and classifies them, and retries them or not, exactly as it would on AWS; and
 * matchers for the requests of one DynamoDB operation or one kind of S3 request.
 */
import type { FaultAction, FaultResponse, RelayedRequest } from './http-relay.js';

const DYNAMODB_JSON = 'application/x-amz-json-1.0';
const DYNAMODB_NS = 'com.amazonaws.dynamodb.v20120810';

/** An S3 error answer: `status` with the XML body S3 sends. */
export function s3Error(status: number, code: string, message: string): FaultAction {
  const body =
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<Error><Code>${code}</Code><Message>${message}</Message>` +
    '<RequestId>4442587FB7D0A2F9</RequestId><HostId>relay</HostId></Error>';
  return respond({ status, headers: { 'content-type': 'application/xml' }, body });
}

/** A DynamoDB error answer: `status` with the JSON body DynamoDB sends, its `__type` namespaced. */
export function dynamoDbError(
  status: number,
  type: string,
  message: string,
  fields: Record<string, unknown> = {},
): FaultAction {
  const namespace = type === 'ThrottlingException' ? 'com.amazon.coral.availability' : DYNAMODB_NS;
  const body = JSON.stringify({ __type: `${namespace}#${type}`, message, ...fields });
  return respond({ status, headers: { 'content-type': DYNAMODB_JSON }, body });
}

/**
 * A cancelled TransactWriteItems whose items met `codes` (`None` for an item that was fine), with
 * the message DynamoDB writes for it.
 */
export function transactionCanceled(codes: readonly string[]): FaultAction {
  return dynamoDbError(
    400,
    'TransactionCanceledException',
    `Transaction cancelled, please refer cancellation reasons for specific reasons [${codes.join(', ')}]`,
    {
      CancellationReasons: codes.map((Code) =>
        Code === 'TransactionConflict'
          ? { Code, Message: 'Transaction is ongoing for the item' }
          : { Code },
      ),
    },
  );
}

/** The faults each service answers with, by the names the tests give them. */
export const AWS_FAULTS = {
  s3SlowDown: s3Error(503, 'SlowDown', 'Please reduce your request rate.'),
  s3InternalError: s3Error(
    500,
    'InternalError',
    'We encountered an internal error. Please try again.',
  ),
  s3ConditionalRequestConflict: s3Error(
    409,
    'ConditionalRequestConflict',
    'A conflicting conditional action is currently in progress against this resource. Try again.',
  ),
  dynamoDbThrottling: dynamoDbError(
    400,
    'ThrottlingException',
    'Rate of requests exceeds the allowed throughput.',
  ),
  dynamoDbProvisionedThroughputExceeded: dynamoDbError(
    400,
    'ProvisionedThroughputExceededException',
    'The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API.',
  ),
  dynamoDbInternalServerError: dynamoDbError(500, 'InternalServerError', 'Internal server error'),
  dynamoDbServiceUnavailable: dynamoDbError(503, 'ServiceUnavailable', 'Service unavailable'),
} as const satisfies Record<string, FaultAction>;

/** Forward after `ms`: a slow answer. */
export function slowAnswer(ms: number): FaultAction {
  return { kind: 'delay', ms };
}

/** Forward, let the service act, then drop the connection: the client never sees the answer. */
export const DROP_AFTER_FORWARD: FaultAction = { kind: 'drop-after-forward' };

/**
 * Requests of one DynamoDB operation (the `X-Amz-Target` header names it), and when `sortKeyPrefix`
 * is given, only those on an item whose sort key starts with it (e.g. `offsets#`: the intents).
 */
export function dynamoDbOperation(
  operation: string,
  sortKeyPrefix?: string,
): (request: RelayedRequest) => boolean {
  const onItem = sortKeyPrefix && `"sk":{"S":"${sortKeyPrefix}`;
  return (request) =>
    request.headers['x-amz-target'] === `DynamoDB_20120810.${operation}` &&
    (!onItem || request.body.toString('utf8').includes(onItem));
}

/** S3 requests of `method` whose object path matches `path`. */
export function s3Request(method: string, path: RegExp): (request: RelayedRequest) => boolean {
  return (request) => request.method === method && path.test(request.url.split('?')[0]);
}

function respond(response: FaultResponse): FaultAction {
  return { kind: 'respond', response };
}
