/**
 * Vitest global setup: starts the local AWS services once for the whole run (in a child process, see
 * aws-services-launcher.ts), hands their endpoints to tests (`inject('dynamoDbEndpoint')`,
 * `inject('s3Endpoint')`), and stops them at teardown.
 */
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { launchAwsServices } from './aws-services-launcher.js';

/** Starts the services; the returned function is Vitest's teardown. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Set before the services and any test worker start, so all inherit them: the SDK must never ask
  // the EC2 instance metadata service, nor read a developer's ~/.aws files (these paths do not exist).
  const nowhere = path.join(path.sep, 'nonexistent', 'sluice-tests');
  process.env.AWS_EC2_METADATA_DISABLED = 'true';
  process.env.AWS_CONFIG_FILE = path.join(nowhere, 'config');
  process.env.AWS_SHARED_CREDENTIALS_FILE = path.join(nowhere, 'credentials');

  const services = await launchAwsServices();
  project.provide('dynamoDbEndpoint', services.dynamoDbEndpoint);
  project.provide('s3Endpoint', services.s3Endpoint);
  return services.stop;
}
