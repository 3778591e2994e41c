import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { localDynamoClient } from '../support/local-aws-clients.js';
import { checkDynamoDbEnforcement } from '../support/service-checks.js';

type Answer = { status: number; body: object };

const ok = (body: object = {}): Answer => ({ status: 200, body });
const failure = (type: string, extra: object = {}): Answer => ({
  status: 400,
  body: { __type: `com.amazonaws.dynamodb.v20120810#${type}`, message: 'scripted', ...extra },
});

/**
 * A stand-in for a DynamoDB emulator that does not enforce what DynamoDB does: it answers each
 * operation (by its X-Amz-Target) from a script, so the setup check can be shown to refuse it.
 */
async function fakeDynamoDb(
  script: Partial<Record<string, Answer[]>>,
): Promise<{ endpoint: string; operations: string[]; server: Server }> {
  const operations: string[] = [];
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const operation = String(request.headers['x-amz-target']).split('.')[1];
      operations.push(operation);
      const answer = script[operation]?.shift() ?? ok();
      response
        .writeHead(answer.status, { 'content-type': 'application/x-amz-json-1.0' })
        .end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { endpoint: `http://127.0.0.1:${port}`, operations, server };
}

describe('checkDynamoDbEnforcement', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('refuses a service that accepts a second conditional create of an item, and cleans up', async () => {
    const fake = await fakeDynamoDb({});
    servers.push(fake.server);
    const client = localDynamoClient(fake.endpoint);
    await expect(checkDynamoDbEnforcement(client, fake.endpoint)).rejects.toThrow(
      `The DynamoDB at ${fake.endpoint} accepted a second PutItem with attribute_not_exists(pk)`,
    );
    expect(fake.operations).toEqual(['CreateTable', 'PutItem', 'PutItem', 'DeleteTable']);
    client.destroy();
  });

  it('refuses a service whose cancelled transaction still wrote its first item', async () => {
    const fake = await fakeDynamoDb({
      PutItem: [ok(), failure('ConditionalCheckFailedException')],
      TransactWriteItems: [
        failure('TransactionCanceledException', {
          CancellationReasons: [{ Code: 'None' }, { Code: 'ConditionalCheckFailed' }],
        }),
      ],
      GetItem: [ok({ Item: { pk: { S: 'check' }, sk: { S: 'written-first' } } })],
    });
    servers.push(fake.server);
    const client = localDynamoClient(fake.endpoint);
    await expect(checkDynamoDbEnforcement(client, fake.endpoint)).rejects.toThrow(
      /does not make TransactWriteItems atomic: .* ended with TransactionCanceledException and wrote its first item/,
    );
    expect(fake.operations.at(-1)).toBe('DeleteTable');
    client.destroy();
  });

  it('accepts a service that enforces both', async () => {
    const fake = await fakeDynamoDb({
      PutItem: [ok(), failure('ConditionalCheckFailedException')],
      TransactWriteItems: [failure('TransactionCanceledException')],
    });
    servers.push(fake.server);
    const client = localDynamoClient(fake.endpoint);
    await expect(checkDynamoDbEnforcement(client, fake.endpoint)).resolves.toBeUndefined();
    client.destroy();
  });
});
