/**
 * Template-test helpers: a stack holding one MicroBatchQuery bundled from the tiny fixture entry,
 * the variants the issue names (MSK IAM in a VPC, SASL/SCRAM, S3 files into DynamoDB, existing
 * table and bucket), the function role's policy statements, and cdk-nag's findings.
 */
import { fileURLToPath } from 'node:url';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { MicroBatchQuery, type MicroBatchQueryProps } from '../../infra/micro-batch-query.js';

/** A handler that esbuild bundles in milliseconds. */
export const FIXTURE_ENTRY = fileURLToPath(new URL('./fixtures/handler.ts', import.meta.url));

/** An MSK cluster ARN of the documented shape. */
export const CLUSTER_ARN =
  'arn:aws:kafka:eu-west-1:123456789012:cluster/clicks-cluster/1a2b3c4d-5e6f-7a8b-9c0d-112233445566-3';

/** A complete Secrets Manager ARN (with the random suffix). */
export const SECRET_ARN =
  'arn:aws:secretsmanager:eu-west-1:123456789012:secret:AmazonMSK_clicks-AbC123';

/** A synthesized query. */
export interface QueryStack {
  readonly stack: Stack;
  readonly query: MicroBatchQuery;
  readonly template: Template;
}

type Props = Omit<MicroBatchQueryProps, 'entry' | 'queryId'> &
  Partial<Pick<MicroBatchQueryProps, 'entry' | 'queryId'>>;

/** A stack with one query; `extra` builds props that need the stack (VPC, existing resources). */
export function queryStack(
  props: Props,
  extra: (stack: Stack) => Partial<MicroBatchQueryProps> = () => ({}),
): QueryStack {
  // CDK's built-in CloudFormation schema validation costs seconds per synth; these tests assert the
  // template themselves, and the example app's synth test runs the validation
  const stack = new Stack(new App({ builtinCloudFormationValidation: false }), 'Test');
  const query = new MicroBatchQuery(stack, 'Query', {
    queryId: 'clicks',
    entry: FIXTURE_ENTRY,
    ...props,
    ...extra(stack),
  });
  return { stack, query, template: Template.fromStack(stack) };
}

/** Kafka on MSK with IAM auth, in a VPC, into a Delta table: the canonical deployment. */
export function mskIamInVpc(changes: Partial<MicroBatchQueryProps> = {}): QueryStack {
  return queryStack(
    {
      source: {
        kind: 'kafka',
        bootstrapServers: ['b-1.clicks.kafka.eu-west-1.amazonaws.com:9098'],
        topic: 'clicks',
        ssl: true,
        sasl: { mechanism: 'aws-msk-iam' },
        startingOffsets: 'earliest',
        failOnDataLoss: true,
      },
      sink: { kind: 'delta', bucket: 'lake-bucket', path: 'tables/click_counts/' },
      mskClusterArn: CLUSTER_ARN,
      ...changes,
    },
    (stack) => ({
      vpc: ec2.Vpc.fromVpcAttributes(stack, 'Vpc', {
        vpcId: 'vpc-0123456789abcdef0',
        availabilityZones: ['eu-west-1a', 'eu-west-1b'],
        privateSubnetIds: ['subnet-0123456789abcdef0', 'subnet-0123456789abcdef1'],
      }),
      securityGroups: [
        ec2.SecurityGroup.fromSecurityGroupId(stack, 'MskClients', 'sg-0123456789abcdef0'),
      ],
    }),
  );
}

/** Kafka with SASL/SCRAM credentials in Secrets Manager (customer managed key) into Kafka. */
export function scramSecret(): QueryStack {
  const sasl = { mechanism: 'scram-sha-512', secretArn: SECRET_ARN } as const;
  return queryStack(
    {
      source: {
        kind: 'kafka',
        bootstrapServers: ['broker-1.example.com:9096'],
        topic: 'clicks',
        ssl: true,
        sasl,
        startingOffsets: 'latest',
        failOnDataLoss: true,
      },
      sink: {
        kind: 'kafka',
        bootstrapServers: ['broker-1.example.com:9096'],
        topic: 'click-counts',
        ssl: true,
        sasl,
      },
    },
    (stack) => ({
      kafkaSecretKey: kms.Key.fromKeyArn(
        stack,
        'SecretKey',
        'arn:aws:kms:eu-west-1:123456789012:key/0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0',
      ),
    }),
  );
}

/** The canonical deployment (MSK IAM in a VPC, into Delta) as four shards. */
export function shardedMskIam(): QueryStack {
  return mskIamInVpc({ parallelism: 4 });
}

/** Files arriving in S3 into a DynamoDB table, every 5 minutes. */
export function s3FilesIntoDynamoDb(
  props: Partial<MicroBatchQueryProps> = {},
  extra?: (stack: Stack) => Partial<MicroBatchQueryProps>,
): QueryStack {
  return queryStack(
    {
      source: { kind: 's3-files', bucket: 'landing-bucket', prefix: 'clicks/', format: 'json' },
      sink: { kind: 'dynamodb', tableName: 'click-counts' },
      ...props,
    },
    extra,
  );
}

/** A query that shares an existing checkpoint table and state bucket. */
export function existingTableAndBucket(): QueryStack {
  return queryStack(
    {
      source: { kind: 's3-files', bucket: 'landing-bucket', prefix: '', format: 'parquet' },
      sink: { kind: 'files', bucket: 'lake-bucket', path: 'out', format: 'parquet' },
      statePrefix: 'streams',
    },
    (stack) => ({
      checkpointTable: dynamodb.Table.fromTableName(stack, 'Checkpoints', 'shared-checkpoints'),
      stateBucket: s3.Bucket.fromBucketName(stack, 'State', 'shared-state-bucket'),
    }),
  );
}

/** A policy statement as CloudFormation renders it. */
export interface Statement {
  readonly Effect: string;
  readonly Action: string | string[];
  readonly Resource: unknown;
  readonly Condition?: Record<string, Record<string, unknown>>;
}

/** The statements of the policies attached to the role with logical id prefix `rolePrefix`. */
export function roleStatements(template: Template, rolePrefix: string): Statement[] {
  const policies = Object.values(template.findResources('AWS::IAM::Policy')) as {
    Properties: { Roles: { Ref: string }[]; PolicyDocument: { Statement: Statement[] } };
  }[];
  return policies
    .filter((p) => p.Properties.Roles.some((r) => r.Ref.startsWith(rolePrefix)))
    .flatMap((p) => p.Properties.PolicyDocument.Statement);
}

/** The statements of the micro-batch function's role. */
export function functionStatements(template: Template): Statement[] {
  return roleStatements(template, 'QueryRole');
}

/** The statement granting `action`, which must exist exactly once. */
export function statementWith(statements: Statement[], action: string): Statement {
  const found = statements.filter((s) => actions(s).includes(action));
  if (found.length !== 1) {
    throw new Error(`Expected one statement with ${action}, found ${found.length}`);
  }
  return found[0];
}

/** A statement's actions as a list. */
export function actions(statement: Statement): string[] {
  return typeof statement.Action === 'string' ? [statement.Action] : statement.Action;
}

/** A statement's resources as a list. */
export function resources(statement: Statement): unknown[] {
  return Array.isArray(statement.Resource) ? statement.Resource : [statement.Resource];
}

/** cdk-nag AwsSolutions findings that are neither fixed nor acknowledged, as `rule at path`. */
export function unacknowledgedFindings(scope: IConstruct, severity: 'error' | 'warning'): string[] {
  const report = new AwsSolutionsChecks().validateScope(scope);
  return report.violations
    .filter((v) => v.severity === severity)
    .flatMap((v) => v.violatingResources.map((r) => `${v.ruleName} at ${r.constructPath}`));
}
