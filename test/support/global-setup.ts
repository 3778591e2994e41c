/**
 * Vitest global setup: starts the local AWS services once for the whole run (in a child process, see
 * aws-services-process.ts), hands their endpoints to tests (`inject('dynamoDbEndpoint')`,
 * `inject('s3Endpoint')`), and stops them at teardown.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import type { ServicesReport } from './aws-services-process.js';

const SERVICES_ENTRY = fileURLToPath(new URL('./aws-services-process.ts', import.meta.url));

/** Starts the services; the returned function is Vitest's teardown. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Set before the services and any test worker start, so all inherit them: the SDK must never ask
  // the EC2 instance metadata service, nor read a developer's ~/.aws files (these paths do not exist).
  const nowhere = path.join(path.sep, 'nonexistent', 'sluice-tests');
  process.env.AWS_EC2_METADATA_DISABLED = 'true';
  process.env.AWS_CONFIG_FILE = path.join(nowhere, 'config');
  process.env.AWS_SHARED_CREDENTIALS_FILE = path.join(nowhere, 'credentials');

  // s3rver encrypts ListObjectsV2 continuation tokens with DES, which Node 17+ only offers with
  // OpenSSL's legacy provider; without it every truncated listing fails with a 500.
  const node = ['--openssl-legacy-provider', '--import', 'tsx'];
  const child = spawn(process.execPath, [...node, SERVICES_ENTRY], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const report = await firstReport(child);
  if ('error' in report) {
    await exit(child);
    throw new Error(`The local AWS services for the tests did not start: ${report.error}`);
  }
  project.provide('dynamoDbEndpoint', report.dynamoDbEndpoint);
  project.provide('s3Endpoint', report.s3Endpoint);
  return async () => {
    // closing stdin is the stop signal
    child.stdin?.end();
    await exit(child);
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
