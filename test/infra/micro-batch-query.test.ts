/**
 * The MicroBatchQuery construct, read from its synthesized template: what it creates, how the
 * schedule triggers the function, what the function is told, and what it is allowed to do.
 * The canonical deployment: Kafka on MSK with IAM auth, in a VPC, into a Delta table on S3.
 */
import { Duration } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ENV,
  sinkConfigSchema,
  sourceConfigSchema,
} from '../../functions/microbatch/configuration.js';
import {
  actions,
  CLUSTER_ARN,
  functionStatements,
  mskIamInVpc,
  type QueryStack,
  resources,
  roleStatements,
  s3FilesIntoDynamoDb,
  type Statement,
  statementWith,
} from './query-stack.js';

let canonical: QueryStack;

beforeAll(() => {
  canonical = mskIamInVpc();
});

function functionProperties(q: QueryStack): Record<string, unknown> {
  const functions = Object.values(q.template.findResources('AWS::Lambda::Function'));
  expect(functions).toHaveLength(1);
  return (functions[0] as { Properties: Record<string, unknown> }).Properties;
}

function environment(q: QueryStack): Record<string, unknown> {
  return (functionProperties(q).Environment as { Variables: Record<string, unknown> }).Variables;
}

/** The logical id of the one resource of `type`. */
function logicalId(q: QueryStack, type: string): string {
  const ids = Object.keys(q.template.findResources(type));
  expect(ids).toHaveLength(1);
  return ids[0];
}

describe('MicroBatchQuery resources', () => {
  it('creates an on-demand checkpoint table keyed pk/sk with PITR, TTL on expiresAt, retained', () => {
    canonical.template.hasResource('AWS::DynamoDB::Table', {
      Properties: {
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
        AttributeDefinitions: Match.arrayWith([
          { AttributeName: 'pk', AttributeType: 'S' },
          { AttributeName: 'sk', AttributeType: 'S' },
        ]),
        BillingMode: 'PAY_PER_REQUEST',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
      },
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
    });
  });

  it('creates a private, encrypted state bucket with lifecycle rules for garbage', () => {
    canonical.template.hasResourceProperties('AWS::S3::Bucket', {
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [
          { ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } },
        ],
      },
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      VersioningConfiguration: { Status: 'Enabled' },
      LifecycleConfiguration: {
        Rules: [
          Match.objectLike({
            Status: 'Enabled',
            AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 },
            NoncurrentVersionExpiration: { NoncurrentDays: 7 },
          }),
        ],
      },
    });
  });

  it('denies non-TLS requests to the state bucket and to the dead-letter queue', () => {
    const denyInsecure = Match.objectLike({
      Effect: 'Deny',
      Condition: { Bool: { 'aws:SecureTransport': 'false' } },
    });
    canonical.template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: logicalId(canonical, 'AWS::S3::Bucket') },
      PolicyDocument: { Statement: Match.arrayWith([denyInsecure]) },
    });
    canonical.template.hasResourceProperties('AWS::SQS::QueuePolicy', {
      Queues: [{ Ref: logicalId(canonical, 'AWS::SQS::Queue') }],
      PolicyDocument: { Statement: Match.arrayWith([denyInsecure]) },
    });
  });

  it('sends failed asynchronous invocations to an encrypted dead-letter queue, without retries', () => {
    const queue = logicalId(canonical, 'AWS::SQS::Queue');
    canonical.template.hasResourceProperties('AWS::SQS::Queue', { SqsManagedSseEnabled: true });
    expect(functionProperties(canonical).DeadLetterConfig).toEqual({
      TargetArn: { 'Fn::GetAtt': [queue, 'Arn'] },
    });
    canonical.template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      MaximumRetryAttempts: 0,
      MaximumEventAgeInSeconds: 60,
    });
  });

  it('runs one copy at a time on arm64 nodejs22.x, in the VPC with the given security group', () => {
    const fn = functionProperties(canonical);
    expect(fn).toMatchObject({
      ReservedConcurrentExecutions: 1,
      Runtime: 'nodejs22.x',
      Architectures: ['arm64'],
      MemorySize: 1024,
      Timeout: 120,
      Handler: 'index.handler',
      VpcConfig: {
        SubnetIds: ['subnet-0123456789abcdef0', 'subnet-0123456789abcdef1'],
        SecurityGroupIds: ['sg-0123456789abcdef0'],
      },
    });
    expect(fn.LoggingConfig).toEqual({
      LogGroup: { Ref: logicalId(canonical, 'AWS::Logs::LogGroup') },
    });
    canonical.template.hasResourceProperties('AWS::Logs::LogGroup', { RetentionInDays: 30 });
  });

  it('takes memory, timeout, architecture and trigger from props', () => {
    const q = s3FilesIntoDynamoDb({
      memorySize: 2048,
      timeout: Duration.minutes(4),
      architecture: lambda.Architecture.X86_64,
      triggerInterval: Duration.minutes(5),
    });
    expect(functionProperties(q)).toMatchObject({
      MemorySize: 2048,
      Timeout: 240,
      Architectures: ['x86_64'],
    });
    expect(environment(q)[ENV.scheduleInterval]).toBe('300 seconds');
    q.template.hasResourceProperties('AWS::Scheduler::Schedule', {
      ScheduleExpression: 'rate(5 minutes)',
    });
  });
});

describe('MicroBatchQuery schedule', () => {
  it('ticks every minute with no flexible window, no retries, a one-minute event age and the DLQ', () => {
    const queue = logicalId(canonical, 'AWS::SQS::Queue');
    canonical.template.hasResourceProperties('AWS::Scheduler::Schedule', {
      ScheduleExpression: 'rate(1 minute)',
      FlexibleTimeWindow: { Mode: 'OFF' },
      State: 'ENABLED',
      Target: Match.objectLike({
        Arn: { 'Fn::GetAtt': [logicalId(canonical, 'AWS::Lambda::Function'), 'Arn'] },
        RetryPolicy: { MaximumRetryAttempts: 0, MaximumEventAgeInSeconds: 60 },
        DeadLetterConfig: { Arn: { 'Fn::GetAtt': [queue, 'Arn'] } },
      }),
    });
  });

  it('lets the schedule role invoke this function only', () => {
    const fn = logicalId(canonical, 'AWS::Lambda::Function');
    const statements = roleStatements(canonical.template, 'QueryScheduleRole');
    const invoke = statementWith(statements, 'lambda:InvokeFunction');
    expect(resources(invoke)).toEqual([
      { 'Fn::GetAtt': [fn, 'Arn'] },
      { 'Fn::Join': ['', [{ 'Fn::GetAtt': [fn, 'Arn'] }, ':*']] },
    ]);
    canonical.template.hasResourceProperties('AWS::IAM::Role', {
      AssumeRolePolicyDocument: {
        Statement: [
          Match.objectLike({
            Principal: { Service: 'scheduler.amazonaws.com' },
            Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } },
          }),
        ],
      },
    });
  });
});

describe('MicroBatchQuery function configuration', () => {
  it('passes the checkpoint, trigger and schedule in the environment variables of the contract', () => {
    const env = environment(canonical);
    expect(env).toMatchObject({
      [ENV.queryId]: 'clicks',
      [ENV.checkpointTable]: { Ref: logicalId(canonical, 'AWS::DynamoDB::Table') },
      [ENV.stateBucket]: { Ref: logicalId(canonical, 'AWS::S3::Bucket') },
      [ENV.statePrefix]: 'sluice',
      [ENV.triggerInterval]: '60 seconds',
      [ENV.scheduleInterval]: '60 seconds',
      [ENV.safetyMarginMs]: '5000',
      [ENV.leaseDurationMs]: '30000',
      NODE_OPTIONS: '--enable-source-maps',
    });
  });

  it("passes source and sink as JSON that the function's own schemas accept unchanged", () => {
    const env = environment(canonical);
    const source = JSON.parse(env[ENV.source] as string);
    const sink = JSON.parse(env[ENV.sink] as string);
    expect(sourceConfigSchema.parse(source)).toEqual(source);
    expect(sinkConfigSchema.parse(sink)).toEqual(sink);
    expect(source).toMatchObject({
      kind: 'kafka',
      topic: 'clicks',
      sasl: { mechanism: 'aws-msk-iam' },
    });
    expect(sink).toEqual({ kind: 'delta', bucket: 'lake-bucket', path: 'tables/click_counts/' });
  });

  it('runs sub-minute triggers inside a one-minute schedule', () => {
    const q = s3FilesIntoDynamoDb({ triggerInterval: Duration.seconds(10) });
    expect(environment(q)).toMatchObject({
      [ENV.triggerInterval]: '10 seconds',
      [ENV.scheduleInterval]: '60 seconds',
    });
    q.template.hasResourceProperties('AWS::Scheduler::Schedule', {
      ScheduleExpression: 'rate(1 minute)',
    });
  });
});

describe('MicroBatchQuery permissions (least privilege)', () => {
  let statements: Statement[];

  beforeAll(() => {
    statements = functionStatements(canonical.template);
  });

  it('has no managed policies and no Action "*"', () => {
    canonical.template.hasResourceProperties('AWS::IAM::Role', {
      AssumeRolePolicyDocument: Match.objectLike({
        Statement: [Match.objectLike({ Principal: { Service: 'lambda.amazonaws.com' } })],
      }),
      ManagedPolicyArns: Match.absent(),
    });
    for (const s of statements) {
      expect(s.Effect).toBe('Allow');
      for (const action of actions(s)) expect(action).not.toContain('*');
    }
  });

  it('uses Resource "*" only for the VPC network-interface actions', () => {
    const starred = statements.filter((s) => resources(s).includes('*'));
    expect(starred.flatMap(actions).every((a) => a.startsWith('ec2:'))).toBe(true);
    expect(starred.flatMap(actions)).toContain('ec2:CreateNetworkInterface');
  });

  it('reads and writes only its own items in the checkpoint table', () => {
    const table = statementWith(statements, 'dynamodb:UpdateItem');
    expect(actions(table).sort()).toEqual([
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:Query',
      'dynamodb:UpdateItem',
    ]);
    expect(table.Resource).toEqual({
      'Fn::GetAtt': [logicalId(canonical, 'AWS::DynamoDB::Table'), 'Arn'],
    });
    expect(table.Condition).toEqual({
      'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': ['query#clicks'] },
    });
  });

  it('reads, writes and deletes only under <statePrefix>/<queryId>/ in the state bucket', () => {
    const bucketArn = { 'Fn::GetAtt': [logicalId(canonical, 'AWS::S3::Bucket'), 'Arn'] };
    const state = statementWith(statements, 's3:DeleteObject');
    expect(actions(state).sort()).toEqual(['s3:DeleteObject', 's3:GetObject', 's3:PutObject']);
    expect(state.Resource).toEqual({ 'Fn::Join': ['', [bucketArn, '/sluice/clicks/*']] });
    const lists = statements.filter(
      (s) =>
        actions(s).includes('s3:ListBucket') &&
        JSON.stringify(s.Resource) === JSON.stringify(bucketArn),
    );
    expect(lists).toHaveLength(1);
    expect(lists[0].Condition).toEqual({ StringLike: { 's3:prefix': ['sluice/clicks/*'] } });
  });

  it('connects to the MSK cluster and reads only the source topic', () => {
    expect(statementWith(statements, 'kafka-cluster:Connect').Resource).toBe(CLUSTER_ARN);
    const read = statementWith(statements, 'kafka-cluster:ReadData');
    expect(actions(read).sort()).toEqual(['kafka-cluster:DescribeTopic', 'kafka-cluster:ReadData']);
    expect(read.Resource).toBe(
      'arn:aws:kafka:eu-west-1:123456789012:topic/clicks-cluster/1a2b3c4d-5e6f-7a8b-9c0d-112233445566-3/clicks',
    );
    expect(statements.flatMap(actions)).not.toContain('kafka-cluster:WriteData');
  });

  it("commits offsets only to the query's own consumer group", () => {
    const group = statementWith(statements, 'kafka-cluster:AlterGroup');
    expect(actions(group).sort()).toEqual([
      'kafka-cluster:AlterGroup',
      'kafka-cluster:DescribeGroup',
    ]);
    expect(group.Resource).toBe(
      'arn:aws:kafka:eu-west-1:123456789012:group/clicks-cluster/1a2b3c4d-5e6f-7a8b-9c0d-112233445566-3/sluice-clicks',
    );
  });

  it('writes the Delta table only under its path, and lists only that path', () => {
    const lake = { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':s3:::lake-bucket']] };
    const objects = statements.filter((s) => JSON.stringify(s.Resource).includes('lake-bucket/'));
    expect(objects).toHaveLength(1);
    expect(actions(objects[0]).sort()).toEqual(['s3:GetObject', 's3:PutObject']);
    expect(objects[0].Resource).toEqual({
      'Fn::Join': [
        '',
        ['arn:', { Ref: 'AWS::Partition' }, ':s3:::lake-bucket/tables/click_counts/*'],
      ],
    });
    const list = statements.find((s) => JSON.stringify(s.Resource) === JSON.stringify(lake));
    expect(list).toMatchObject({
      Action: 's3:ListBucket',
      Condition: { StringLike: { 's3:prefix': ['tables/click_counts/*'] } },
    });
  });

  it('writes its log group and its dead-letter queue, nothing else', () => {
    expect(statementWith(statements, 'logs:PutLogEvents').Resource).toEqual({
      'Fn::GetAtt': [logicalId(canonical, 'AWS::Logs::LogGroup'), 'Arn'],
    });
    expect(statementWith(statements, 'sqs:SendMessage').Resource).toEqual({
      'Fn::GetAtt': [logicalId(canonical, 'AWS::SQS::Queue'), 'Arn'],
    });
  });
});

describe('MicroBatchQuery alarms and dashboard', () => {
  function alarm(q: QueryStack, idPart: string): Record<string, unknown> {
    const found = Object.entries(q.template.findResources('AWS::CloudWatch::Alarm')).filter(
      ([id]) => id.includes(idPart),
    );
    expect(found).toHaveLength(1);
    return (found[0][1] as { Properties: Record<string, unknown> }).Properties;
  }

  const ALL_ALARMS = [
    'errors',
    'duration',
    'watermarkDelay',
    'sourceLag',
    'noBatchCommitted',
  ] as const;
  const alarmIds = (q: QueryStack) =>
    Object.keys(q.template.findResources('AWS::CloudWatch::Alarm'))
      .map((id) => /Alarms([A-Za-z]+?)[0-9A-F]{8}$/.exec(id)?.[1])
      .sort();

  it('creates three alarms by default: errors, falling behind by the source, and no batch committed', () => {
    expect(alarmIds(canonical)).toEqual(['Errors', 'NoBatchCommitted', 'SourceLag']);
    // files report no latest offsets, so the watermark tells that the query falls behind
    expect(alarmIds(s3FilesIntoDynamoDb())).toEqual([
      'Errors',
      'NoBatchCommitted',
      'WatermarkDelay',
    ]);
  });

  it('creates the alarms enabledAlarms names, and no other', () => {
    expect(alarmIds(s3FilesIntoDynamoDb({ enabledAlarms: ['duration'] }))).toEqual(['Duration']);
    expect(alarmIds(s3FilesIntoDynamoDb({ enabledAlarms: ALL_ALARMS }))).toHaveLength(5);
  });

  it('alarms on any function error', () => {
    expect(alarm(canonical, 'Errors')).toMatchObject({
      Namespace: 'AWS/Lambda',
      MetricName: 'Errors',
      Statistic: 'Sum',
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
  });

  it('alarms, when enabled, when the longest invocation reaches 85% of the timeout', () => {
    expect(alarm(s3FilesIntoDynamoDb({ enabledAlarms: ['duration'] }), 'Duration')).toMatchObject({
      MetricName: 'Duration',
      Statistic: 'Maximum',
      Threshold: 102_000,
    });
  });

  it('alarms on watermark delay and source lag from the Sluice metrics of this query', () => {
    const dimensions = [{ Name: 'QueryId', Value: 'clicks' }];
    const q = s3FilesIntoDynamoDb({ enabledAlarms: ALL_ALARMS });
    expect(alarm(q, 'WatermarkDelay')).toMatchObject({
      Namespace: 'Sluice',
      MetricName: 'WatermarkDelayMs',
      Dimensions: dimensions,
      Threshold: 3_600_000,
      ComparisonOperator: 'GreaterThanThreshold',
      EvaluationPeriods: 3,
    });
    expect(alarm(q, 'SourceLag')).toMatchObject({
      Namespace: 'Sluice',
      MetricName: 'SourceLagRecords',
      Dimensions: dimensions,
      Threshold: 100_000,
    });
  });

  it('alarms when no batch committed for N triggers, treating missing data as breaching', () => {
    expect(alarm(canonical, 'NoBatchCommitted')).toMatchObject({
      Namespace: 'Sluice',
      MetricName: 'BatchesCommitted',
      Statistic: 'Sum',
      Period: 60,
      EvaluationPeriods: 5,
      Threshold: 1,
      ComparisonOperator: 'LessThanThreshold',
      TreatMissingData: 'breaching',
    });
  });

  it('takes thresholds from props and evaluates over the schedule period', () => {
    const q = s3FilesIntoDynamoDb({
      enabledAlarms: ['watermarkDelay', 'sourceLag', 'noBatchCommitted'],
      triggerInterval: Duration.minutes(2),
      watermarkDelayThreshold: Duration.minutes(20),
      sourceLagThreshold: 5_000,
      noBatchTriggers: 3,
    });
    expect(alarm(q, 'WatermarkDelay')).toMatchObject({ Threshold: 1_200_000, Period: 120 });
    expect(alarm(q, 'SourceLag')).toMatchObject({ Threshold: 5_000, Period: 120 });
    expect(alarm(q, 'NoBatchCommitted')).toMatchObject({ EvaluationPeriods: 3, Period: 120 });
  });

  it("creates no dashboard and asks the function for only the alarms' metrics by default", () => {
    canonical.template.resourceCountIs('AWS::CloudWatch::Dashboard', 0);
    expect(canonical.query.dashboard).toBeUndefined();
    expect(environment(canonical)[ENV.detailedMetrics]).toBe('false');
  });

  it('publishes every metric with detailedMetrics, without a dashboard', () => {
    const q = s3FilesIntoDynamoDb({ detailedMetrics: true });
    q.template.resourceCountIs('AWS::CloudWatch::Dashboard', 0);
    expect(environment(q)[ENV.detailedMetrics]).toBe('true');
  });

  it("builds, on request, a dashboard with the query's metrics, alarms and dead letters, and turns the metrics it shows on", () => {
    const q = s3FilesIntoDynamoDb({ dashboard: true });
    expect(environment(q)[ENV.detailedMetrics]).toBe('true');
    const dashboards = Object.values(q.template.findResources('AWS::CloudWatch::Dashboard'));
    expect(dashboards).toHaveLength(1);
    const body = JSON.stringify(
      (dashboards[0] as { Properties: { DashboardBody: unknown } }).Properties.DashboardBody,
    );
    for (const metric of [
      'InputRows',
      'ProcessedRowsPerSecond',
      'BatchDurationMs',
      'WatermarkDelayMs',
      'SourceLagRecords',
      'StateRows',
      'LateRowsDropped',
      'BatchesCommitted',
      'StateLoadCold',
      'ApproximateNumberOfMessagesVisible',
    ]) {
      expect(body).toContain(metric);
    }
    expect(body).toContain('alarm');
  });

  it('keeps the detailed metrics off under a dashboard when detailedMetrics is false', () => {
    const q = s3FilesIntoDynamoDb({ dashboard: true, detailedMetrics: false });
    q.template.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
    expect(environment(q)[ENV.detailedMetrics]).toBe('false');
  });
});
