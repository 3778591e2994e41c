/**
 * The local AWS services in a process of their own, started by aws-services-launcher.ts (for the
 * global setup and the checkpoint benchmark) with `node --import tsx`. Two reasons: Vitest's module
 * runner transforms the AWS SDK's and s3rver's module trees file by file (seconds), where plain Node
 * loads them natively; and when the test runner dies without its teardown, this process sees its
 * stdin close and still stops the JVM.
 *
 * Protocol: one JSON line on stdout, `{"dynamoDbEndpoint":...,"s3Endpoint":...}` once the services
 * answer and passed their checks, or `{"error":"..."}` when they could not start; then the services
 * run until stdin closes (or a termination signal), and the process exits after stopping them.
 */
import { startAwsServices, type AwsServices } from './aws-services.js';

/** What the process prints once. */
export type ServicesReport =
  { readonly dynamoDbEndpoint: string; readonly s3Endpoint: string } | { readonly error: string };

/** The services once up; whether a stop was asked for (maybe before they were up); whether stopping. */
const run: { services?: AwsServices; stopRequested: boolean; stopping: boolean } = {
  stopRequested: false,
  stopping: false,
};
/** Stops the services and exits; before they are up, only notes the request. */
const stopAndExit = (): void => {
  run.stopRequested = true;
  if (!run.services || run.stopping) return;
  run.stopping = true;
  run.services.stop().then(
    () => process.exit(0),
    (e: unknown) => {
      console.error('Stopping the local AWS services failed:', e);
      process.exit(1);
    },
  );
};
// Listening from the start: the parent can die while the JVM is still starting.
process.stdin.on('end', stopAndExit);
process.stdin.on('close', stopAndExit);
process.stdin.resume();
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, stopAndExit);
// A parent that is gone cannot read the report; that must not crash this process before cleanup.
process.stdout.on('error', () => {});

run.services = await startAwsServices().catch((e: unknown) => {
  report({ error: e instanceof Error ? e.message : String(e) });
  // stdin no longer keeps the process alive: it exits with this code once the report is written
  process.stdin.destroy();
  process.exitCode = 1;
  return undefined;
});
if (run.services) {
  const { dynamoDbEndpoint, s3Endpoint } = run.services;
  report({ dynamoDbEndpoint, s3Endpoint });
  if (run.stopRequested) stopAndExit();
}

function report(message: ServicesReport): void {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}
