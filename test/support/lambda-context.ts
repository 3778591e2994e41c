/**
 * A Lambda context for calling a handler in process, with a clock like Lambda's: the remaining time
 * runs down from `remainingMs`. (The container worker, which runs as plain Node without a bundler,
 * builds its own.)
 */
import type { Context } from 'aws-lambda';

/** A context whose `getRemainingTimeInMillis` counts down from `remainingMs` from now. */
export function lambdaContext(remainingMs: number, requestId = 'request-1'): Context {
  const deadline = Date.now() + remainingMs;
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName: 'sluice-microbatch',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:sluice-microbatch',
    memoryLimitInMB: '1024',
    awsRequestId: requestId,
    logGroupName: '/aws/lambda/sluice-microbatch',
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => {},
    fail: () => {},
    succeed: () => {},
  };
}
