/**
 * An AWS SDK client whose every command passes the crash points of a CrashInjector: a middleware
 * around the whole command (its retries included), so a DynamoDB sink's PutItems each become points
 * a chaos run can crash at, before a request is sent and after its answer came back.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { CrashInjector } from '../../core/testing/index.js';

/** `client`, with a crash point on both sides of each command it sends; returns the same client. */
export function crashingAwsClient(client: DynamoDBClient, injector: CrashInjector): DynamoDBClient {
  client.middlewareStack.add(
    (next, context) => (args) =>
      injector.around(`dynamodb.${context.commandName}`, () => next(args)),
    { step: 'initialize', name: 'chaosCrashPoints' },
  );
  return client;
}
