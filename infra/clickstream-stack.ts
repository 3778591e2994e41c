/**
 * The canonical pipeline as a stack: clickstream events on a Kafka topic (MSK with IAM auth) ->
 * the micro-batch function running the clickstream query (10-minute windows, counted per category,
 * 15-minute watermark, append) -> a Delta table in a bucket this stack creates. The stack is
 * environment-agnostic and names every external resource by value, so synth needs no AWS account,
 * credentials or network.
 */
import { fileURLToPath } from 'node:url';
import { Duration, Fn, RemovalPolicy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as s3 from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { MicroBatchQuery } from './micro-batch-query.js';

/** The function entry of the canonical pipeline. */
export const CLICKSTREAM_ENTRY = fileURLToPath(
  new URL('../functions/microbatch/clickstream.ts', import.meta.url),
);

/** An existing VPC to run in, named by ids so that no lookup is needed. */
export interface ExistingNetwork {
  /** The VPC of the MSK cluster. */
  readonly vpcId: string;
  /** Private subnets with a route to DynamoDB and S3 (NAT or gateway endpoints). */
  readonly subnetIds: readonly string[];
  /** Security groups the brokers admit. */
  readonly securityGroupIds: readonly string[];
}

/** Where the clickstream comes from. */
export interface ClickstreamStackProps extends StackProps {
  /** The MSK brokers' IAM bootstrap addresses (port 9098, or 9198 for public access). */
  readonly bootstrapServers: readonly string[];
  /** The topic of clickstream events. */
  readonly topic: string;
  /** The MSK cluster's ARN, for the function's IAM grants. */
  readonly mskClusterArn: string;
  /** The VPC to reach private brokers. @default no VPC (brokers with public access) */
  readonly network?: ExistingNetwork;
  /**
   * How many shards the query runs as (docs/scale-out.md); at most the topic's partitions. Above 1
   * the query runs split at its repartition stage (docs/repartition-stage.md): it counts a category
   * parsed out of each event, which no topic's partitioning is known to follow. @default 1
   */
  readonly parallelism?: number;
  /** The function entry. @default CLICKSTREAM_ENTRY */
  readonly entry?: string;
}

/** The Delta table's path in the lake bucket. */
export const CLICK_COUNTS_PATH = 'clickstream/click_counts';

/** Kafka -> micro-batch function -> Delta table on S3. */
export class ClickstreamStack extends Stack {
  /** The bucket that holds the Delta table. */
  readonly lakeBucket: s3.Bucket;
  /** The deployed query. */
  readonly query: MicroBatchQuery;

  constructor(scope: Construct, id: string, props: ClickstreamStackProps) {
    super(scope, id, props);
    this.lakeBucket = new s3.Bucket(this, 'LakeBucket', {
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      removalPolicy: RemovalPolicy.RETAIN,
      lifecycleRules: [{ id: 'garbage', abortIncompleteMultipartUploadAfter: Duration.days(1) }],
    });
    Validations.of(this.lakeBucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        'The example lake bucket is written by one function role; enable server access logs or CloudTrail data events where audit requires them.',
    });
    this.query = new MicroBatchQuery(this, 'Clickstream', {
      queryId: 'clickstream',
      entry: props.entry ?? CLICKSTREAM_ENTRY,
      triggerInterval: Duration.seconds(30),
      source: {
        kind: 'kafka',
        bootstrapServers: [...props.bootstrapServers],
        topic: props.topic,
        ssl: true,
        sasl: { mechanism: 'aws-msk-iam' },
        startingOffsets: 'earliest',
        maxOffsetsPerTrigger: 200_000,
        failOnDataLoss: true,
      },
      sink: { kind: 'delta', bucket: this.lakeBucket.bucketName, path: CLICK_COUNTS_PATH },
      mskClusterArn: props.mskClusterArn,
      ...(props.parallelism === undefined ? {} : { parallelism: props.parallelism }),
      ...((props.parallelism ?? 1) > 1 ? { repartitionStage: true } : {}),
      ...(props.network ? this.networkProps(props.network) : {}),
    });
  }

  /** The VPC, subnets and security groups, imported by id (no lookups). */
  private networkProps(network: ExistingNetwork) {
    return {
      vpc: ec2.Vpc.fromVpcAttributes(this, 'Vpc', {
        vpcId: network.vpcId,
        availabilityZones: Fn.getAzs(),
      }),
      vpcSubnets: {
        subnets: network.subnetIds.map((id) => ec2.Subnet.fromSubnetId(this, `Subnet-${id}`, id)),
      },
      securityGroups: network.securityGroupIds.map((id) =>
        ec2.SecurityGroup.fromSecurityGroupId(this, `SecurityGroup-${id}`, id),
      ),
    };
  }
}
