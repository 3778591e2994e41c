/**
 * The function role for each kind of source and sink: it can read the one source and write the one
 * sink its configuration names, with the narrowest resource the service allows.
 */
import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { ENV } from '../../functions/microbatch/configuration.js';
import {
  actions,
  existingTableAndBucket,
  functionStatements,
  type QueryStack,
  resources,
  s3FilesIntoDynamoDb,
  SECRET_ARN,
  scramSecret,
  type Statement,
  statementWith,
} from './query-stack.js';

const partitionArn = (rest: string) => ({
  'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, rest]],
});

/** An ARN in the stack's own region and account, as CDK renders it. */
const regionalArn = (service: string, resource: string) => ({
  'Fn::Join': [
    '',
    [
      'arn:',
      { Ref: 'AWS::Partition' },
      service,
      { Ref: 'AWS::Region' },
      ':',
      { Ref: 'AWS::AccountId' },
      resource,
    ],
  ],
});

function allActions(statements: Statement[]): string[] {
  return statements.flatMap(actions);
}

describe('Kafka with a SASL/SCRAM secret, into Kafka', () => {
  let q: QueryStack;
  let statements: Statement[];

  beforeAll(() => {
    q = scramSecret();
    statements = functionStatements(q.template);
  });

  it('reads only the named secret, and decrypts it only with its key', () => {
    expect(statementWith(statements, 'secretsmanager:GetSecretValue').Resource).toBe(SECRET_ARN);
    expect(statementWith(statements, 'kms:Decrypt').Resource).toBe(
      'arn:aws:kms:eu-west-1:123456789012:key/0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0',
    );
  });

  it('needs no MSK IAM actions, no VPC actions and no Resource "*"', () => {
    expect(allActions(statements).filter((a) => a.startsWith('kafka-cluster:'))).toEqual([]);
    expect(allActions(statements).filter((a) => a.startsWith('ec2:'))).toEqual([]);
    expect(statements.filter((s) => resources(s).includes('*'))).toEqual([]);
  });

  it('runs outside a VPC', () => {
    q.template.hasResourceProperties('AWS::Lambda::Function', { VpcConfig: Match.absent() });
  });
});

describe('S3 files source into a DynamoDB sink', () => {
  let q: QueryStack;
  let statements: Statement[];

  beforeAll(() => {
    q = s3FilesIntoDynamoDb();
    statements = functionStatements(q.template);
  });

  it('reads only the objects under the source prefix, and lists only that prefix', () => {
    const read = statements.filter((s) => JSON.stringify(s.Resource).includes('landing-bucket'));
    expect(read).toEqual([
      {
        Action: 's3:GetObject',
        Effect: 'Allow',
        Resource: partitionArn(':s3:::landing-bucket/clicks/*'),
      },
      {
        Action: 's3:ListBucket',
        Effect: 'Allow',
        Resource: partitionArn(':s3:::landing-bucket'),
        Condition: { StringLike: { 's3:prefix': ['clicks/*'] } },
      },
    ]);
  });

  it('writes items of the sink table only, and reads its key schema', () => {
    const sink = statementWith(statements, 'dynamodb:BatchWriteItem');
    expect(actions(sink).sort()).toEqual([
      'dynamodb:BatchWriteItem',
      'dynamodb:DescribeTable',
      'dynamodb:PutItem',
    ]);
    expect(sink.Resource).toEqual(regionalArn(':dynamodb:', ':table/click-counts'));
    expect(sink.Condition).toBeUndefined();
  });

  it('has no Kafka, Secrets Manager or EC2 permissions', () => {
    const foreign = allActions(statements).filter((a) =>
      ['kafka-cluster:', 'secretsmanager:', 'ec2:', 'kms:'].some((p) => a.startsWith(p)),
    );
    expect(foreign).toEqual([]);
  });

  it('tells the function the source and sink with their defaults', () => {
    const variables = (
      Object.values(q.template.findResources('AWS::Lambda::Function'))[0] as {
        Properties: { Environment: { Variables: Record<string, string> } };
      }
    ).Properties.Environment.Variables;
    expect(JSON.parse(variables[ENV.source])).toEqual({
      kind: 's3-files',
      bucket: 'landing-bucket',
      prefix: 'clicks/',
      format: 'json',
      maxBytesPerTrigger: 64 * 1024 * 1024,
    });
    expect(JSON.parse(variables[ENV.sink])).toEqual({
      kind: 'dynamodb',
      tableName: 'click-counts',
    });
  });
});

describe('An existing checkpoint table and state bucket', () => {
  let q: QueryStack;
  let statements: Statement[];

  beforeAll(() => {
    q = existingTableAndBucket();
    statements = functionStatements(q.template);
  });

  it('creates neither a table nor a bucket', () => {
    q.template.resourceCountIs('AWS::DynamoDB::Table', 0);
    q.template.resourceCountIs('AWS::S3::Bucket', 0);
  });

  it('points the function at them, under its state prefix', () => {
    q.template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: {
        Variables: Match.objectLike({
          [ENV.checkpointTable]: 'shared-checkpoints',
          [ENV.stateBucket]: 'shared-state-bucket',
          [ENV.statePrefix]: 'streams',
        }),
      },
    });
  });

  it('still holds the function to its own items and its own prefix', () => {
    const table = statementWith(statements, 'dynamodb:UpdateItem');
    expect(table.Resource).toEqual(regionalArn(':dynamodb:', ':table/shared-checkpoints'));
    expect(table.Condition).toEqual({
      'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': ['query#clicks'] },
    });
    const state = statementWith(statements, 's3:DeleteObject');
    expect(state.Resource).toEqual(partitionArn(':s3:::shared-state-bucket/streams/clicks/*'));
  });

  it('lists the whole source bucket only when the source prefix is empty', () => {
    const lists = statements.filter((s) => actions(s).includes('s3:ListBucket'));
    const landing = lists.find(
      (s) => JSON.stringify(s.Resource) === JSON.stringify(partitionArn(':s3:::landing-bucket')),
    );
    expect(landing?.Condition).toBeUndefined();
    const state = lists.find(
      (s) =>
        JSON.stringify(s.Resource) === JSON.stringify(partitionArn(':s3:::shared-state-bucket')),
    );
    expect(state?.Condition).toEqual({ StringLike: { 's3:prefix': ['streams/clicks/*'] } });
  });

  it('writes the files sink only under its path', () => {
    const sink = statements.filter((s) => JSON.stringify(s.Resource).includes('lake-bucket/'));
    expect(sink).toHaveLength(1);
    expect(actions(sink[0]).sort()).toEqual(['s3:GetObject', 's3:PutObject']);
    expect(sink[0].Resource).toEqual(partitionArn(':s3:::lake-bucket/out/*'));
  });
});
