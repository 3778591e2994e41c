/**
 * IAM for the source a query reads and the sink it writes, derived from the same configuration the
 * function receives, so the role can do what the configuration names and nothing else:
 * - S3 files source: read and list its prefix;
 * - Delta or files sink on S3: read, write and list the table's path (Delta reads its own log);
 * - DynamoDB sink: its key schema and item writes, on that table;
 * - Kafka on MSK with IAM: connect to the cluster, describe and read (or write) that topic only,
 *   and commit offsets to the query's own consumer group (the lag-monitoring copy);
 * - Kafka with SASL/SCRAM or PLAIN: read that one secret (and decrypt it with its key, when given).
 */
import { Arn, Aws, Token } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import { InvalidOptionError } from '../core/errors.js';
import type { KafkaAuth, SinkConfig, SourceConfig } from '../functions/microbatch/configuration.js';
import { repartitionTopic } from '../core/api/query-stage.js';
import { queryGroupId } from '../core/kafka/query-group.js';
import { checkMskClusterArn, mskGroupArn, mskTopicArn } from './msk-arns.js';
import { bucketArnOf, folderPrefix, grantS3Prefix } from './s3-prefix-access.js';

/** Connection details IAM needs beyond the function's configuration. */
export interface KafkaPermissionOptions {
  /** The MSK cluster, when the source or sink authenticates with MSK IAM. */
  readonly mskClusterArn?: string;
  /** The KMS key that encrypts the SASL secret (MSK requires a customer managed key for SCRAM). */
  readonly kafkaSecretKey?: kms.IKey;
}

/** What the DynamoDB sink does: reads the key schema at start, then conditional and batched puts. */
export const DYNAMODB_SINK_ACTIONS = [
  'dynamodb:DescribeTable',
  'dynamodb:PutItem',
  'dynamodb:BatchWriteItem',
] as const;

const SECRET_ARN = /^arn:[a-z-]+:secretsmanager:[a-z0-9-]+:\d{12}:secret:.+-[A-Za-z0-9]{6}$/;

/** Grants `role` reading the source of the query `queryId`. */
export function grantSourceRead(
  role: iam.Role,
  source: SourceConfig,
  queryId: string,
  options: KafkaPermissionOptions,
): void {
  if (source.kind === 's3-files') {
    grantS3Prefix(role, {
      bucketArn: bucketArnOf(source.bucket),
      prefix: folderPrefix(source.prefix),
      actions: ['s3:GetObject'],
      reason: `The S3 files source reads every new file under its prefix '${source.prefix}'.`,
    });
    return;
  }
  grantKafka(role, source.sasl, source.topic, options, {
    cluster: ['kafka-cluster:Connect'],
    topic: ['kafka-cluster:DescribeTopic', 'kafka-cluster:ReadData'],
  });
  if (source.sasl?.mechanism === 'aws-msk-iam') {
    // the source copies each committed batch's offsets to the query's group for Kafka's lag tools
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['kafka-cluster:AlterGroup', 'kafka-cluster:DescribeGroup'],
        resources: [mskGroupArn(options.mskClusterArn!, queryGroupId(queryId))],
      }),
    );
  }
}

/**
 * Grants `role` the repartition topic of a split query (docs/repartition-stage.md) on the source's
 * cluster: stage 1 writes it idempotently, stage 2 reads it.
 */
export function grantRepartitionTopic(
  role: iam.Role,
  source: SourceConfig,
  queryId: string,
  options: KafkaPermissionOptions,
): void {
  if (source.kind !== 'kafka') return;
  grantKafka(role, source.sasl, repartitionTopic(new Map(), queryId), options, {
    cluster: ['kafka-cluster:Connect', 'kafka-cluster:WriteDataIdempotently'],
    topic: [
      'kafka-cluster:CreateTopic',
      'kafka-cluster:DescribeTopic',
      'kafka-cluster:ReadData',
      'kafka-cluster:WriteData',
    ],
  });
}

/** Grants `role` writing the sink. */
export function grantSinkWrite(
  role: iam.Role,
  sink: SinkConfig,
  options: KafkaPermissionOptions,
): void {
  switch (sink.kind) {
    case 'delta':
    case 'files':
      grantS3Prefix(role, {
        bucketArn: bucketArnOf(sink.bucket),
        prefix: folderPrefix(sink.path),
        actions: ['s3:GetObject', 's3:PutObject'],
        reason: `The ${sink.kind} sink writes data files and its log under the table path '${sink.path}', and reads its log back.`,
      });
      return;
    case 'dynamodb':
      role.addToPrincipalPolicy(
        new iam.PolicyStatement({
          actions: [...DYNAMODB_SINK_ACTIONS],
          resources: [dynamoDbTableArn(sink.tableName)],
        }),
      );
      return;
    case 'kafka':
      grantKafka(role, sink.sasl, sink.topic, options, {
        cluster: ['kafka-cluster:Connect', 'kafka-cluster:WriteDataIdempotently'],
        topic: ['kafka-cluster:DescribeTopic', 'kafka-cluster:WriteData'],
      });
  }
}

/**
 * Checks that the Kafka options are present where the configuration needs them, used where given,
 * and ARNs of the right kind (a partial secret ARN would be granted nothing).
 */
export function checkKafkaOptions(
  source: SourceConfig,
  sink: SinkConfig,
  options: KafkaPermissionOptions,
): void {
  const mechanisms = [source, sink].flatMap((c) => ('sasl' in c && c.sasl ? [c.sasl] : []));
  const usesIam = mechanisms.some((m) => m.mechanism === 'aws-msk-iam');
  const usesSecret = mechanisms.some((m) => m.mechanism !== 'aws-msk-iam');
  if (usesIam && !options.mskClusterArn) {
    throw new InvalidOptionError(
      `Kafka authenticates with aws-msk-iam: set mskClusterArn to the MSK cluster's ARN, so the function's role can be granted that cluster's topic.`,
    );
  }
  if (!usesIam && options.mskClusterArn) {
    throw new InvalidOptionError(
      `mskClusterArn is set, but neither source nor sink uses sasl.mechanism 'aws-msk-iam'; remove it or use MSK IAM authentication.`,
    );
  }
  if (options.mskClusterArn) checkMskClusterArn(options.mskClusterArn);
  for (const m of mechanisms) if (m.mechanism !== 'aws-msk-iam') checkSecretArn(m.secretArn);
  if (!usesSecret && options.kafkaSecretKey) {
    throw new InvalidOptionError(
      `kafkaSecretKey is set, but neither source nor sink reads a SASL secret; remove it or configure sasl.secretArn.`,
    );
  }
}

function grantKafka(
  role: iam.Role,
  sasl: KafkaAuth | undefined,
  topic: string,
  options: KafkaPermissionOptions,
  actions: { readonly cluster: string[]; readonly topic: string[] },
): void {
  if (sasl === undefined) return;
  if (sasl.mechanism === 'aws-msk-iam') {
    const cluster = options.mskClusterArn!;
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({ actions: actions.cluster, resources: [cluster] }),
    );
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({ actions: actions.topic, resources: [mskTopicArn(cluster, topic)] }),
    );
    return;
  }
  role.addToPrincipalPolicy(
    new iam.PolicyStatement({
      actions: ['secretsmanager:GetSecretValue'],
      resources: [sasl.secretArn],
    }),
  );
  options.kafkaSecretKey?.grantDecrypt(role);
}

function checkSecretArn(arn: string): string {
  if (!Token.isUnresolved(arn) && !SECRET_ARN.test(arn)) {
    throw new InvalidOptionError(
      `sasl.secretArn '${arn}' is not a complete Secrets Manager ARN; use the full ARN, with the 6-character suffix Secrets Manager appends to the name.`,
    );
  }
  return arn;
}

function dynamoDbTableArn(tableName: string): string {
  return Arn.format({
    partition: Aws.PARTITION,
    service: 'dynamodb',
    region: Aws.REGION,
    account: Aws.ACCOUNT_ID,
    resource: 'table',
    resourceName: tableName,
  });
}
