import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { HeadBucketCommand } from '@aws-sdk/client-s3';
import { describe, expect, inject, it } from 'vitest';
import {
  createBucket,
  createCheckpointTable,
  dynamoClient,
  s3Client,
} from '../support/aws-clients.js';
import { uniqueName } from '../support/unique-name.js';

describe('local AWS services of the test run', () => {
  it('answer on the loopback interface only', () => {
    expect(inject('dynamoDbEndpoint')).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(inject('s3Endpoint')).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it("keep the SDK away from instance metadata and the developer's ~/.aws", () => {
    expect(process.env.AWS_EC2_METADATA_DISABLED).toBe('true');
    expect(process.env.AWS_CONFIG_FILE).toMatch(/^\/nonexistent\//);
    expect(process.env.AWS_SHARED_CREDENTIALS_FILE).toMatch(/^\/nonexistent\//);
  });

  it('create a checkpoint table with pk/sk string keys and on-demand capacity', async () => {
    const name = await createCheckpointTable(uniqueName('checkpoint'));
    const client = dynamoClient();
    const { Table } = await client.send(new DescribeTableCommand({ TableName: name }));
    client.destroy();
    expect(Table?.TableStatus).toBe('ACTIVE');
    expect(Table?.KeySchema).toEqual([
      { AttributeName: 'pk', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ]);
    expect(Table?.BillingModeSummary?.BillingMode).toBe('PAY_PER_REQUEST');
  });

  it('create a bucket', async () => {
    const name = await createBucket(uniqueName('bucket'));
    const client = s3Client();
    const head = await client.send(new HeadBucketCommand({ Bucket: name }));
    client.destroy();
    expect(head.$metadata.httpStatusCode).toBe(200);
  });
});
