/**
 * The process side of a LambdaContainer (lambda-container.ts): what the Lambda Node.js runtime does
 * with a function bundle, in plain Node without any loader. It imports the bundle once (the cold
 * start; its errors are the function's init errors), then calls the bundle's exported `handler`
 * once per invocation the parent sends, with a Lambda context whose getRemainingTimeInMillis runs
 * down from the invocation's time budget, and sends back the result or the error.
 *
 * Like Lambda, it writes `START RequestId: ...` and `END RequestId: ...` lines around each invocation.
 * argv[2] is the bundle's path. Messages: in `{ requestId, event, remainingMs }`; out
 * `{ kind: 'ready', initMs }` or `{ kind: 'init-error', ... }` once, then per invocation
 * `{ kind: 'result', requestId, value }` or `{ kind: 'error', requestId, errorType, errorMessage }`.
 */
import { pathToFileURL } from 'node:url';
import type { Context } from 'aws-lambda';

/** An invocation request from the parent. */
export interface InvokeMessage {
  readonly requestId: string;
  readonly event: unknown;
  /** What getRemainingTimeInMillis starts from. */
  readonly remainingMs: number;
}

/** What the worker reports. */
export type WorkerMessage =
  | { readonly kind: 'ready'; readonly initMs: number }
  | { readonly kind: 'init-error'; readonly errorType: string; readonly errorMessage: string }
  | { readonly kind: 'result'; readonly requestId: string; readonly value: unknown }
  | {
      readonly kind: 'error';
      readonly requestId: string;
      readonly errorType: string;
      readonly errorMessage: string;
    };

type Handler = (event: unknown, context: Context) => Promise<unknown>;

const FUNCTION_NAME = process.env.AWS_LAMBDA_FUNCTION_NAME ?? 'sluice-function';
const MEMORY_MB = process.env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE ?? '1024';

function send(message: WorkerMessage): void {
  process.send!(message);
}

function describe(error: unknown): { errorType: string; errorMessage: string } {
  return error instanceof Error
    ? { errorType: error.name, errorMessage: error.message }
    : { errorType: 'Error', errorMessage: String(error) };
}

function lambdaContext(requestId: string, remainingMs: number): Context {
  const deadline = Date.now() + remainingMs;
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName: FUNCTION_NAME,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:123456789012:function:${FUNCTION_NAME}`,
    memoryLimitInMB: MEMORY_MB,
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${FUNCTION_NAME}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => {},
    fail: () => {},
    succeed: () => {},
  };
}

// Lambda writes stdout and stderr to one log stream; here both go down stdout, in order, so the
// parent sees the function's warnings and errors among its other lines.
process.stderr.write = process.stdout.write.bind(process.stdout) as typeof process.stderr.write;

const started = performance.now();
let handler: Handler;
try {
  const module = (await import(pathToFileURL(process.argv[2]).href)) as { handler: Handler };
  handler = module.handler;
  send({ kind: 'ready', initMs: performance.now() - started });
} catch (error) {
  send({ kind: 'init-error', ...describe(error) });
  process.disconnect();
}

process.on('message', (message: InvokeMessage) => {
  const { requestId } = message;
  // Lambda's own log lines around an invocation; END also tells the parent that every line the
  // invocation wrote has gone down the pipe before it.
  console.log(`START RequestId: ${requestId} Version: $LATEST`);
  const end = (reply: WorkerMessage) => {
    process.stdout.write(`END RequestId: ${requestId}\n`, () => send(reply));
  };
  handler(message.event, lambdaContext(requestId, message.remainingMs)).then(
    (value) => end({ kind: 'result', requestId, value }),
    (error: unknown) => end({ kind: 'error', requestId, ...describe(error) }),
  );
});
