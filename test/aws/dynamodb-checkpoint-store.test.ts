import { UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { DynamoDbCheckpointStore } from '../../core/aws/dynamodb-checkpoint-store.js';
import { S3ObjectStore } from '../../core/aws/s3-object-store.js';
import { CHECKPOINT_FORMAT_VERSION } from '../../core/checkpoint/checkpoint-store.js';
import { type OffsetIntent, UnsafePathError } from '../../core/index.js';
import {
  createBucket,
  createCheckpointTable,
  dynamoClient,
  s3Client,
} from '../support/aws-clients.js';
import { uniqueName } from '../support/unique-name.js';

const intent: OffsetIntent = {
  formatVersion: CHECKPOINT_FORMAT_VERSION,
  batchId: 0,
  start: [null],
  end: [{ files: ['a'.repeat(200)] }],
  batchTimestampMs: 1,
  watermarkMicros: null,
};

describe('a DynamoDB checkpoint store', () => {
  it.each(['.', '..', 'a/b', ''])('refuses the query id %j, naming the option', (queryId) => {
    expect(
      () => new DynamoDbCheckpointStore({ client: dynamoClient(), tableName: 't', queryId }),
    ).toThrow(`DynamoDbCheckpointStore option 'queryId'='${queryId}' is invalid`);
  });
});

describe('an intent spilled to the object store', () => {
  it('is refused when its item references a key outside the store, such as another query’s', async () => {
    const [tableName, bucket] = await Promise.all([
      createCheckpointTable(uniqueName('t')),
      createBucket(uniqueName('b')),
    ]);
    const objects = (queryId: string) =>
      new S3ObjectStore({ client: s3Client(), bucket, prefix: `sluice/${queryId}` });
    const store = new DynamoDbCheckpointStore({
      client: dynamoClient(),
      tableName,
      queryId: 'q1',
      largeRecords: objects('q1'),
      maxItemRecordBytes: 10,
    });
    expect(await store.putIntent(intent)).toBe('created');
    expect(await store.getIntent(0)).toEqual(intent);

    // another query's object, and an item that points at it
    const foreign = '../q2/checkpoint/q2/offsets/0.json';
    await objects('q2').put('checkpoint/q2/offsets/0.json', Buffer.from(JSON.stringify(intent)));
    await dynamoClient().send(
      new UpdateItemCommand({
        TableName: tableName,
        Key: { pk: { S: 'query#q1' }, sk: { S: `offsets#${'0'.padStart(20, '0')}` } },
        UpdateExpression: 'SET recordKey = :k',
        ConditionExpression: 'attribute_exists(recordKey)',
        ExpressionAttributeValues: { ':k': { S: foreign } },
      }),
    );
    const read = store.getIntent(0);
    await expect(read).rejects.toBeInstanceOf(UnsafePathError);
    await expect(read).rejects.toThrow(
      `${store.location} item offsets#${'0'.padStart(20, '0')} holds the path "${foreign}", which climbs out`,
    );
  });
});
