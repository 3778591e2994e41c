/**
 * Starts the local AWS services (DynamoDB Local and s3rver) in a child process of their own, the
 * process of aws-services-process.ts, and stops them. The test run's global setup and the checkpoint
 * benchmark use it: s3rver then runs on Node's OpenSSL legacy provider without the caller needing it,
 * and its request handling does not share the caller's event loop (so the caller's timings are its own).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { AwsServices } from './aws-services.js';
import type { ServicesReport } from './aws-services-process.js';

const SERVICES_ENTRY = fileURLToPath(new URL('./aws-services-process.ts', import.meta.url));

/**
 * Starts the services process and resolves once both services answer and passed their checks; the
 * child inherits this process's environment. Rejects with the child's reason when they did not start.
 */
export async function launchAwsServices(): Promise<AwsServices> {
  // s3rver encrypts ListObjectsV2 continuation tokens with DES, which Node 17+ only offers with
  // OpenSSL's legacy provider; without it every truncated listing fails with a 500.
  const node = ['--openssl-legacy-provider', '--import', 'tsx'];
  const child = spawn(process.execPath, [...node, SERVICES_ENTRY], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const report = await firstReport(child);
  if ('error' in report) {
    await exit(child);
    throw new Error(`The local AWS services did not start: ${report.error}`);
  }
  return {
    dynamoDbEndpoint: report.dynamoDbEndpoint,
    s3Endpoint: report.s3Endpoint,
    stop: async () => {
      // closing stdin is the stop signal
      child.stdin?.end();
      await exit(child);
    },
  };
}

/** The services process's one report, or an error report when it ends without one. */
function firstReport(child: ChildProcess): Promise<ServicesReport> {
  return new Promise((resolve) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => {
      lines.close();
      resolve(JSON.parse(line) as ServicesReport);
    });
    child.once('error', (e) => resolve({ error: e.message }));
    child.once('exit', (code, signal) =>
      resolve({ error: `its process exited (${signal ?? `code ${code}`}) before reporting` }),
    );
  });
}

function exit(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}
