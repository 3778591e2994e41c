/**
 * Checks, before any test runs, that the local DynamoDB enforces what the checkpoint tests rely on:
 * a conditional create of an existing item fails, and a transaction with one failed condition writes
 * nothing. A service that quietly accepted either would make the exactly-once tests pass for the
 * wrong reason, so the run aborts instead.
 */
import {
  CreateTableCommand,
  DeleteTableCommand,
  GetItemCommand,
  PutItemCommand,
  TransactWriteItemsCommand,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';

/** Throws an Error saying what the service at `endpoint` failed to enforce. */
export async function checkDynamoDbEnforcement(
  client: DynamoDBClient,
  endpoint: string,
): Promise<void> {
  const TableName = 'sluice-service-check';
  await client.send(
    new CreateTableCommand({
      TableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'sk', AttributeType: 'S' },
      ],
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
    }),
  );
  try {
    const create = new PutItemCommand({
      TableName,
      Item: { pk: { S: 'check' }, sk: { S: 'existing' } },
      ConditionExpression: 'attribute_not_exists(pk)',
    });
    await client.send(create);
    const second = await failureName(client.send(create));
    if (second !== 'ConditionalCheckFailedException') {
      throw new Error(
        `The DynamoDB at ${endpoint} ${second ? `answered ${second} to` : 'accepted'} a second PutItem with attribute_not_exists(pk) ` +
          'of an existing item, where DynamoDB fails with ConditionalCheckFailedException. The checkpoint tests rely on ' +
          "conditions being enforced: run Amazon's DynamoDB Local (the jar in amplify-dynamodb-simulator).",
      );
    }

    const transaction = client.send(
      new TransactWriteItemsCommand({
        TransactItems: [
          { Put: { TableName, Item: { pk: { S: 'check' }, sk: { S: 'written-first' } } } },
          {
            Put: {
              TableName,
              Item: { pk: { S: 'check' }, sk: { S: 'existing' } },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
        ],
      }),
    );
    const cancelled = await failureName(transaction);
    const leftover = await client.send(
      new GetItemCommand({
        TableName,
        Key: { pk: { S: 'check' }, sk: { S: 'written-first' } },
        ConsistentRead: true,
      }),
    );
    if (cancelled !== 'TransactionCanceledException' || leftover.Item !== undefined) {
      throw new Error(
        `The DynamoDB at ${endpoint} does not make TransactWriteItems atomic: a transaction whose second item's condition ` +
          `failed ${cancelled ? `ended with ${cancelled}` : 'succeeded'} and ${leftover.Item ? 'wrote' : 'did not write'} its first item, ` +
          "where DynamoDB cancels the transaction and writes nothing. The commit protocol's tests rely on that: run " +
          "Amazon's DynamoDB Local (the jar in amplify-dynamodb-simulator).",
      );
    }
  } finally {
    await client.send(new DeleteTableCommand({ TableName }));
  }
}

/** The name of the error a request failed with, or undefined when it succeeded. */
async function failureName(request: Promise<unknown>): Promise<string | undefined> {
  try {
    await request;
    return undefined;
  } catch (e) {
    return (e as Error).name;
  }
}
