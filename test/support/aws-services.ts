/**
 * The local AWS services of a test run (docs/architecture.md section 8): DynamoDB Local and s3rver,
 * started together on free loopback ports, checked to enforce what the tests rely on, and stopped
 * together. The global setup starts them once per run and hands their endpoints to tests through
 * Vitest's `provide`/`inject`, typed below.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startDynamoDbLocal } from './dynamodb-local.js';
import { localDynamoClient } from './local-aws-clients.js';
import { startS3Server } from './s3-server.js';
import { checkDynamoDbEnforcement } from './service-checks.js';

/** Where the local services answer. */
export interface AwsServiceEndpoints {
  /** DynamoDB Local, e.g. `http://127.0.0.1:41234`. */
  readonly dynamoDbEndpoint: string;
  /** s3rver (path-style), e.g. `http://127.0.0.1:41235`. */
  readonly s3Endpoint: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoDbEndpoint: AwsServiceEndpoints['dynamoDbEndpoint'];
    s3Endpoint: AwsServiceEndpoints['s3Endpoint'];
  }
}

/** Running local services. */
export interface AwsServices extends AwsServiceEndpoints {
  /** Stops both services and removes their files. */
  stop(): Promise<void>;
}

/** Starts DynamoDB Local and s3rver, verifies DynamoDB Local, and returns their endpoints. */
export async function startAwsServices(): Promise<AwsServices> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'sluice-aws-'));
  const started = await Promise.allSettled([
    startDynamoDbLocal(root),
    startS3Server(path.join(root, 's3')),
  ]);
  const running = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const stopAll = async (): Promise<void> => {
    await Promise.all(running.map((service) => service.stop()));
    rmSync(root, { recursive: true, force: true });
  };
  const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) {
    await stopAll();
    throw failed.reason;
  }
  const [dynamo, s3] = running;
  const client = localDynamoClient(dynamo.endpoint);
  try {
    await checkDynamoDbEnforcement(client, dynamo.endpoint);
  } catch (e) {
    await stopAll();
    throw e;
  } finally {
    client.destroy();
  }
  return { dynamoDbEndpoint: dynamo.endpoint, s3Endpoint: s3.endpoint, stop: stopAll };
}
