/**
 * `MicroBatchQuery`: one streaming query deployed as scheduled micro-batches in Lambda
 * (docs/architecture.md sections 3 and 7).
 *
 *   EventBridge Scheduler (rate = max(trigger, 1 minute), no flexible window, no retries)
 *     -> micro-batch function (reserved concurrency 1; failed or stale invocations -> DLQ)
 *        -> checkpoint table (its own items only) + state bucket (its own prefix only)
 *        -> source (read only) -> sink (write only)
 *   + the recommended alarms, on the three custom metrics the function publishes by default;
 *     the other metrics and a dashboard are opt-in (`detailedMetrics`, `dashboard`), since each
 *     custom metric and each dashboard is billed by the month whether the query runs or idles.
 *
 * Reserved concurrency 1 keeps a second copy of the query from starting while one runs; the lease
 * would make it harmless, but it would still cost an invocation. A missed tick is not retried, by the
 * scheduler or by Lambda, because the next tick runs the same next batch.
 *
 * With `parallelism: N` above 1 the query runs as N shards (docs/scale-out.md): one schedule per
 * shard, each invoking the function with `{"shard": i}`, reserved concurrency N, and the checkpoint
 * grant covering the query's item collection and its shards' (`query#<queryId>#*`). One schedule per
 * shard rather than a Step Functions Distributed Map: cheaper, and one shard failing stops no other
 * (infra/README.md).
 */
import { Aws, Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as nodejs from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import * as targets from 'aws-cdk-lib/aws-scheduler-targets';
import type * as sns from 'aws-cdk-lib/aws-sns';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { ENV } from '../functions/microbatch/configuration.js';
import { grantCheckpointItems, grantStateObjects } from './checkpoint-permissions.js';
import { createCheckpointTable, createStateBucket } from './checkpoint-resources.js';
import { MICRO_BATCH_BUNDLING, MICRO_BATCH_RUNTIME } from './function-bundling.js';
import { defaultAlarms, MicroBatchAlarms, type MicroBatchAlarmName } from './micro-batch-alarms.js';
import { MicroBatchDashboard } from './micro-batch-dashboard.js';
import { type MicroBatchSettings, resolveSettings } from './micro-batch-settings.js';
import type { QuerySink, QuerySource } from './query-config.js';
import {
  grantRepartitionTopic,
  grantSinkWrite,
  grantSourceRead,
} from './source-sink-permissions.js';
import { intervalSetting, type TriggerSchedule } from './trigger-schedule.js';
import { vpcNetworkStatement } from './vpc-network-access.js';
import { acknowledgeWildcardResource } from './wildcard-acknowledgement.js';

export type { QuerySink, QuerySource } from './query-config.js';

/** Properties of a `MicroBatchQuery`. */
export interface MicroBatchQueryProps {
  /**
   * Stable id of the query: its checkpoint items (`query#<queryId>`), state prefix and metric
   * dimension. 1 to 128 letters, digits, `.`, `-` or `_`. Changing it starts the query afresh.
   */
  readonly queryId: string;
  /** The function's entry file: a query module wrapped by `microBatchHandler`, exporting the handler. */
  readonly entry: string;
  /** The exported handler's name. @default 'handler' */
  readonly handler?: string;
  /** The stream the query reads (the function's `SLUICE_SOURCE`, defaults filled in). */
  readonly source: QuerySource;
  /** Where the results go (the function's `SLUICE_SINK`, defaults filled in). */
  readonly sink: QuerySink;
  /**
   * Time between batch starts. A minute or more becomes the schedule's rate (whole minutes, at most
   * a day); less runs as several batches per invocation of a one-minute schedule (it must divide
   * the minute). @default Duration.minutes(1)
   */
  readonly triggerInterval?: Duration;
  /**
   * How many shards the query runs as, each reading its share of the source's partitions (Kafka
   * partition p goes to shard p mod N; files by a hash of their key) with its own checkpoint items
   * and state prefix. At most the Kafka topic's partitions, or shards sit idle. Fixed by the query's
   * first run: a deployment with another value is refused by the function. @default 1
   */
  readonly parallelism?: number;
  /**
   * The query is split at a repartition stage (docs/repartition-stage.md): its first stateful
   * operator is not keyed by the source's partitioning. Each shard then runs as stage 1 and stage 2,
   * each with its own schedule (`{"stage": s, "shard": i}`), through the topic
   * `sluice-<queryId>-repartition` on the source's cluster, which the role is granted. Needs a Kafka
   * source and a parallelism above 1. @default false
   */
  readonly repartitionStage?: boolean;
  /** The function's memory in MB (CPU grows with it). @default 1024 */
  readonly memorySize?: number;
  /**
   * The function's timeout. @default the schedule's period plus one minute (at most 15 minutes), so
   * the last batch of a period can finish
   */
  readonly timeout?: Duration;
  /** Time kept free before the timeout for the commit and the lease release. @default 5 seconds */
  readonly safetyMargin?: Duration;
  /**
   * How long the query's lease lasts. A running batch renews it at every step and during long ones,
   * so this bounds how long a crashed invocation holds the query; it must outlast the longest
   * synchronous stretch of a batch (the query's execution over one batch's rows). @default 30 seconds
   */
  readonly leaseDuration?: Duration;
  /** @default lambda.Architecture.ARM_64 */
  readonly architecture?: lambda.Architecture;
  /** An existing checkpoint table (string keys `pk`, `sk`; TTL on `expiresAt`). @default a new table */
  readonly checkpointTable?: dynamodb.ITable;
  /** An existing bucket for state files. @default a new bucket */
  readonly stateBucket?: s3.IBucket;
  /** Key prefix in the state bucket, before the query id. @default 'sluice' */
  readonly statePrefix?: string;
  /** What happens to a created table and bucket when they leave the stack. @default RemovalPolicy.RETAIN */
  readonly removalPolicy?: RemovalPolicy;
  /** The VPC to run in, e.g. to reach an MSK cluster's private brokers. @default no VPC */
  readonly vpc?: ec2.IVpc;
  /** Subnets in `vpc`; they need a route to DynamoDB and S3 (NAT or gateway endpoints). @default private subnets with egress */
  readonly vpcSubnets?: ec2.SubnetSelection;
  /** Security groups the brokers admit. @default one new group that allows all outbound traffic */
  readonly securityGroups?: ec2.ISecurityGroup[];
  /** The MSK cluster; required when the source or sink authenticates with `aws-msk-iam`. @default none */
  readonly mskClusterArn?: string;
  /** The customer managed key of a SASL/SCRAM secret, to decrypt it. @default none */
  readonly kafkaSecretKey?: kms.IKey;
  /** The watermark alarm fires when now minus the watermark exceeds this. Set above the query's watermark delay. @default Duration.hours(1) */
  readonly watermarkDelayThreshold?: Duration;
  /** The lag alarm fires when more source records than this wait. @default 100_000 */
  readonly sourceLagThreshold?: number;
  /** Consecutive triggers without a committed batch before the stalled alarm fires. @default 5 */
  readonly noBatchTriggers?: number;
  /**
   * Which alarms to create: 'errors', 'duration', 'watermarkDelay', 'sourceLag', 'noBatchCommitted'.
   * Each is billed by the month ($0.10) whether the query runs or idles.
   * @default errors, noBatchCommitted, and sourceLag for a Kafka source or watermarkDelay for S3 files
   */
  readonly enabledAlarms?: readonly MicroBatchAlarmName[];
  /** Receives the alarms' state changes. @default no alarm actions */
  readonly alarmTopic?: sns.ITopic;
  /** How long the function's log is kept. @default logs.RetentionDays.ONE_MONTH */
  readonly logRetention?: logs.RetentionDays;
  /**
   * Publish every metric of a batch (input rows, speed, durations, state rows, cold loads, late
   * rows), not only the three the alarms read. Each is one more CloudWatch custom metric, billed
   * for every hour the query commits a batch (about $0.30 a month each when it runs all the time).
   * @default the value of `dashboard`
   */
  readonly detailedMetrics?: boolean;
  /**
   * Create the query's CloudWatch dashboard (about $3 a month beyond an account's first three).
   * It shows the detailed metrics, so it turns them on unless `detailedMetrics` is false.
   * @default false
   */
  readonly dashboard?: boolean;
}

/** A streaming query run as scheduled micro-batches in Lambda. */
export class MicroBatchQuery extends Construct {
  /** The checkpoint table (created or given). */
  readonly checkpointTable: dynamodb.ITable;
  /** The state bucket (created or given). */
  readonly stateBucket: s3.IBucket;
  /** The micro-batch function. */
  readonly fn: nodejs.NodejsFunction;
  /** The function's execution role. */
  readonly role: iam.Role;
  /** Failed invocations, expired ticks and undeliverable schedule events. */
  readonly deadLetterQueue: sqs.Queue;
  /** The schedule that triggers the function (shard 0's, when the query runs as shards). */
  readonly schedule: scheduler.Schedule;
  /** One schedule per shard, in shard order (the one `schedule` of an unsharded query). */
  readonly schedules: readonly scheduler.Schedule[];
  /** The trigger interval and the schedule's period. */
  readonly trigger: TriggerSchedule;
  /** The recommended alarms. */
  readonly alarms: MicroBatchAlarms;
  /** The query's dashboard, when the `dashboard` prop asked for one. */
  readonly dashboard?: MicroBatchDashboard;

  constructor(scope: Construct, id: string, props: MicroBatchQueryProps) {
    super(scope, id);
    const settings = resolveSettings(props);
    const removalPolicy = props.removalPolicy ?? RemovalPolicy.RETAIN;
    this.trigger = settings.trigger;
    this.checkpointTable =
      props.checkpointTable ?? createCheckpointTable(this, 'CheckpointTable', removalPolicy);
    this.stateBucket = props.stateBucket ?? createStateBucket(this, 'StateBucket', removalPolicy);
    this.deadLetterQueue = this.createDeadLetterQueue();
    this.role = this.createRole(settings, props);
    this.fn = this.createFunction(settings, props);
    const scheduleRole = this.createScheduleRole();
    this.schedules =
      settings.parallelism === 1
        ? [this.createSchedule('Schedule', settings.queryId, scheduleRole)]
        : settings.stages.flatMap((stage) =>
            Array.from({ length: settings.parallelism }, (_, shard) =>
              this.createSchedule(scheduleId(stage, shard), settings.queryId, scheduleRole, {
                stage,
                shard,
              }),
            ),
          );
    this.schedule = this.schedules[0];
    this.alarms = new MicroBatchAlarms(this, 'Alarms', {
      enabled: props.enabledAlarms ?? defaultAlarms(props.source.kind),
      queryId: settings.queryId,
      fn: this.fn,
      timeout: settings.timeout,
      scheduleInterval: this.trigger.scheduleInterval,
      watermarkDelayThreshold: props.watermarkDelayThreshold ?? Duration.hours(1),
      sourceLagThreshold: props.sourceLagThreshold ?? 100_000,
      noBatchTriggers: settings.noBatchTriggers,
      alarmTopic: props.alarmTopic,
    });
    if (props.dashboard) {
      this.dashboard = new MicroBatchDashboard(this, 'Dashboard', {
        queryId: settings.queryId,
        fn: this.fn,
        deadLetterQueue: this.deadLetterQueue,
        alarms: this.alarms,
        scheduleInterval: this.trigger.scheduleInterval,
      });
    }
  }

  /** Where failed invocations (not retried), stale ticks and undeliverable schedule events go. */
  private createDeadLetterQueue(): sqs.Queue {
    const queue = new sqs.Queue(this, 'DeadLetterQueue', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    Validations.of(queue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        'This queue is itself the dead-letter queue of the function and its schedule; messages wait here for inspection.',
    });
    return queue;
  }

  /** The execution role: no managed policies, only the grants the configuration calls for. */
  private createRole(settings: MicroBatchSettings, props: MicroBatchQueryProps): iam.Role {
    const role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `Sluice micro-batch query ${settings.queryId}`,
    });
    grantCheckpointItems(role, this.checkpointTable, settings.queryId, settings.parallelism);
    grantStateObjects(role, this.stateBucket, settings.statePrefix, settings.queryId);
    grantSourceRead(role, settings.source, settings.queryId, props);
    if (settings.stages.length > 1) {
      grantRepartitionTopic(role, settings.source, settings.queryId, props);
    }
    grantSinkWrite(role, settings.sink, props);
    if (props.vpc) {
      role.addToPrincipalPolicy(vpcNetworkStatement());
      acknowledgeWildcardResource(
        role,
        '*',
        'Lambda creates, describes and deletes the network interfaces of a VPC function; these EC2 actions cannot be scoped to resources known at deploy time.',
      );
    }
    return role;
  }

  /** The function, bundled from `entry`, one copy at a time, told its configuration by environment. */
  private createFunction(
    settings: MicroBatchSettings,
    props: MicroBatchQueryProps,
  ): nodejs.NodejsFunction {
    const logGroup = new logs.LogGroup(this, 'Log', {
      retention: props.logRetention ?? logs.RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    logGroup.grantWrite(this.role);
    const fn = new nodejs.NodejsFunction(this, 'Function', {
      description: `Sluice micro-batch query ${settings.queryId}`,
      entry: props.entry,
      handler: props.handler ?? 'handler',
      runtime: MICRO_BATCH_RUNTIME,
      architecture: props.architecture ?? lambda.Architecture.ARM_64,
      memorySize: props.memorySize ?? 1024,
      timeout: settings.timeout,
      role: this.role,
      logGroup,
      reservedConcurrentExecutions: settings.parallelism * settings.stages.length,
      deadLetterQueue: this.deadLetterQueue,
      retryAttempts: 0,
      maxEventAge: settings.maxEventAge,
      vpc: props.vpc,
      vpcSubnets: props.vpcSubnets,
      securityGroups: props.securityGroups,
      bundling: MICRO_BATCH_BUNDLING,
      environment: this.environment(settings),
    });
    Validations.of(fn).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        'The bundle targets nodejs22.x, the runtime Sluice is built and tested on; moving to a newer runtime is a tested upgrade, not a silent one.',
    });
    return fn;
  }

  /** The function's configuration, in the variables functions/microbatch/configuration.ts reads. */
  private environment(settings: MicroBatchSettings): Record<string, string> {
    const stack = Stack.of(this);
    return {
      [ENV.queryId]: settings.queryId,
      [ENV.checkpointTable]: this.checkpointTable.tableName,
      [ENV.stateBucket]: this.stateBucket.bucketName,
      [ENV.statePrefix]: settings.statePrefix,
      [ENV.triggerInterval]: intervalSetting(settings.trigger.triggerInterval),
      [ENV.scheduleInterval]: intervalSetting(settings.trigger.scheduleInterval),
      [ENV.safetyMarginMs]: String(settings.safetyMargin.toMilliseconds()),
      [ENV.leaseDurationMs]: String(settings.leaseDuration.toMilliseconds()),
      [ENV.source]: stack.toJsonString(settings.source),
      [ENV.sink]: stack.toJsonString(settings.sink),
      [ENV.detailedMetrics]: String(settings.detailedMetrics),
      ...(settings.parallelism === 1 ? {} : { [ENV.parallelism]: String(settings.parallelism) }),
      // the bundle ships its source map so that stack traces in the log name the TypeScript source
      NODE_OPTIONS: '--enable-source-maps',
    };
  }

  /**
   * The schedule: a fixed rate with no flexible window, so batches start on time; no retries and a
   * one-minute event age, since the next tick runs the same batch. A shard's schedule names its
   * shard in the event, and its stage when the query is split.
   */
  private createSchedule(
    id: string,
    queryId: string,
    role: iam.Role,
    of?: { readonly stage: number; readonly shard: number },
  ): scheduler.Schedule {
    const which =
      of === undefined ? '' : `${of.stage === 0 ? '' : ` stage ${of.stage}`} shard ${of.shard}`;
    return new scheduler.Schedule(this, id, {
      description: `Triggers Sluice query ${queryId}${which} every ${this.trigger.scheduleInterval.toHumanString()}`,
      schedule: scheduler.ScheduleExpression.rate(this.trigger.scheduleInterval),
      timeWindow: scheduler.TimeWindow.off(),
      target: new targets.LambdaInvoke(this.fn, {
        role,
        retryAttempts: 0,
        maxEventAge: Duration.minutes(1),
        deadLetterQueue: this.deadLetterQueue,
        input: scheduler.ScheduleTargetInput.fromObject({
          queryId,
          ...(of === undefined ? {} : of.stage === 0 ? { shard: of.shard } : of),
          scheduledTime: scheduler.ContextAttribute.scheduledTime,
        }),
      }),
    });
  }

  /** The role the schedule invokes the function with (LambdaInvoke adds the invoke grant). */
  private createScheduleRole(): iam.Role {
    const role = new iam.Role(this, 'ScheduleRole', {
      assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID } },
      }),
      description: 'Invokes one Sluice micro-batch function on its schedule',
    });
    acknowledgeWildcardResource(
      role,
      `${this.fn.functionArn}:*`,
      "CDK's invoke grant covers the function's own versions and aliases; no other function.",
    );
    return role;
  }
}

/** A shard's schedule's construct id: the names of an unsplit query's schedules are kept. */
function scheduleId(stage: number, shard: number): string {
  return stage === 0 ? `ShardSchedule${shard}` : `Stage${stage}ShardSchedule${shard}`;
}
