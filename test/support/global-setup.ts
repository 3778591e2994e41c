/**
 * Vitest global setup: starts the local AWS services (in a child process, see
 * aws-services-launcher.ts) and the Kafka mock cluster (kafka-mock-cluster.ts) once for the whole
 * run, hands their endpoints to tests (`inject('dynamoDbEndpoint')`, `inject('s3Endpoint')`,
 * `inject('kafkaBootstrapServers')`), and stops them at teardown.
 */
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { launchAwsServices } from './aws-services-launcher.js';
import { startKafkaMockCluster } from './kafka-mock-cluster.js';

/** Starts the services; the returned function is Vitest's teardown. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Set before the services and any test worker start, so all inherit them: the SDK must never ask
  // the EC2 instance metadata service, nor read a developer's ~/.aws files (these paths do not exist).
  const nowhere = path.join(path.sep, 'nonexistent', 'sluice-tests');
  process.env.AWS_EC2_METADATA_DISABLED = 'true';
  process.env.AWS_CONFIG_FILE = path.join(nowhere, 'config');
  process.env.AWS_SHARED_CREDENTIALS_FILE = path.join(nowhere, 'credentials');

  const [aws, kafka] = await Promise.allSettled([launchAwsServices(), startKafkaMockCluster()]);
  const running = [aws, kafka].flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const stopAll = async (): Promise<void> => {
    await Promise.all(running.map((service) => service.stop()));
  };
  if (aws.status === 'rejected' || kafka.status === 'rejected') {
    await stopAll();
    throw aws.status === 'rejected' ? aws.reason : (kafka as PromiseRejectedResult).reason;
  }
  project.provide('dynamoDbEndpoint', aws.value.dynamoDbEndpoint);
  project.provide('s3Endpoint', aws.value.s3Endpoint);
  project.provide('kafkaBootstrapServers', kafka.value.bootstrapServers);
  return stopAll;
}
