/**
 * A `MicroBatchQuery`'s props, checked and completed with their defaults before any resource is
 * created, so a mistake fails `cdk synth` with the prop's name rather than a deployment or a cold
 * start. The function re-checks what it receives; these checks exist to fail earlier.
 */
import { Duration } from 'aws-cdk-lib';
import { validateKeyPrefix, validateQueryId } from '../core/checkpoint/checkpoint-identifiers.js';
import { InvalidOptionError } from '../core/errors.js';
import type { SinkConfig, SourceConfig } from '../functions/microbatch/configuration.js';
import { checkNoBatchTriggers } from './micro-batch-alarms.js';
import type { MicroBatchQueryProps } from './micro-batch-query.js';
import { parseSink, parseSource } from './query-config.js';
import { checkKafkaOptions } from './source-sink-permissions.js';
import { type TriggerSchedule, triggerSchedule } from './trigger-schedule.js';

/** The checked settings of one query. */
export interface MicroBatchSettings {
  readonly queryId: string;
  readonly source: SourceConfig;
  readonly sink: SinkConfig;
  readonly trigger: TriggerSchedule;
  readonly timeout: Duration;
  readonly safetyMargin: Duration;
  readonly leaseDuration: Duration;
  readonly statePrefix: string;
  readonly noBatchTriggers: number;
  /** Whether the function publishes every metric, not only the alarms'. */
  readonly detailedMetrics: boolean;
  /** How long Lambda keeps an invocation waiting behind a running one: at most one period. */
  readonly maxEventAge: Duration;
  /** How many shards the query runs as. */
  readonly parallelism: number;
  /** The stages each shard runs: [0] for a query that is not split, [1, 2] for one that is. */
  readonly stages: readonly number[];
}

const MAX_TIMEOUT = Duration.minutes(15);
const MAX_LAMBDA_EVENT_AGE = Duration.hours(6);

/** Checks `props` and fills in the defaults their docs state. */
export function resolveSettings(props: MicroBatchQueryProps): MicroBatchSettings {
  const source = parseSource(props.source);
  const sink = parseSink(props.sink);
  checkKafkaOptions(source, sink, props);
  checkNetwork(props);
  const trigger = triggerSchedule(props.triggerInterval ?? Duration.minutes(1));
  const timeout = props.timeout ?? defaultTimeout(trigger.scheduleInterval);
  const safetyMargin = props.safetyMargin ?? Duration.seconds(5);
  checkTimeout(timeout, safetyMargin);
  return {
    queryId: validateQueryId(props.queryId, 'queryId'),
    source,
    sink,
    trigger,
    timeout,
    safetyMargin,
    leaseDuration: checkLeaseDuration(props.leaseDuration ?? Duration.seconds(30)),
    statePrefix: validateKeyPrefix(props.statePrefix ?? 'sluice', 'statePrefix'),
    noBatchTriggers: checkNoBatchTriggers(props.noBatchTriggers ?? 5, trigger.scheduleInterval),
    detailedMetrics: props.detailedMetrics ?? props.dashboard ?? false,
    maxEventAge: minDuration(trigger.scheduleInterval, MAX_LAMBDA_EVENT_AGE),
    parallelism: checkParallelism(props.parallelism ?? 1),
    stages: props.repartitionStage ? checkRepartitionStage(source, props.parallelism ?? 1) : [0],
  };
}

/** A repartition stage goes through a topic on the source's Kafka cluster, between several shards. */
function checkRepartitionStage(source: SourceConfig, parallelism: number): readonly number[] {
  if (source.kind !== 'kafka' || parallelism < 2) {
    throw new InvalidOptionError(
      `repartitionStage needs a Kafka source and a parallelism above 1 (the source is ${source.kind}, the parallelism ${parallelism}): the stages meet in a topic on the source's cluster, and one shard needs no repartitioning (docs/repartition-stage.md).`,
    );
  }
  return [1, 2];
}

/**
 * At most this many shards: each is one schedule and one concurrent function (an account's default
 * Lambda concurrency is 1,000, and its default quota of schedules a million).
 */
const MAX_PARALLELISM = 500;

/** A whole number of shards, from 1 to MAX_PARALLELISM. */
function checkParallelism(parallelism: number): number {
  if (!Number.isInteger(parallelism) || parallelism < 1 || parallelism > MAX_PARALLELISM) {
    throw new InvalidOptionError(
      `parallelism ${parallelism} is invalid: use a whole number of shards from 1 to ${MAX_PARALLELISM}, at most the source's partitions (docs/scale-out.md).`,
    );
  }
  return parallelism;
}

/** A lease under a second would lapse between the renewals of a live batch. */
function checkLeaseDuration(leaseDuration: Duration): Duration {
  if (leaseDuration.toMilliseconds() < 1000) {
    throw new InvalidOptionError(
      `leaseDuration ${leaseDuration.toHumanString()} is too short for a batch to renew it: use at least 1 second (30 seconds by default).`,
    );
  }
  return leaseDuration;
}

function checkNetwork(props: MicroBatchQueryProps): void {
  if (!props.vpc && (props.vpcSubnets || props.securityGroups)) {
    throw new InvalidOptionError(
      'vpcSubnets and securityGroups need vpc: set vpc to the VPC the function runs in.',
    );
  }
}

/** A period plus a minute for its last batch, within Lambda's 15 minutes. */
function defaultTimeout(scheduleInterval: Duration): Duration {
  return minDuration(scheduleInterval.plus(Duration.minutes(1)), MAX_TIMEOUT);
}

function checkTimeout(timeout: Duration, safetyMargin: Duration): void {
  if (timeout.toMilliseconds() > MAX_TIMEOUT.toMilliseconds()) {
    throw new InvalidOptionError(
      `timeout ${timeout.toHumanString()} exceeds Lambda's 15 minutes; lower it, and cap the batch size (e.g. maxOffsetsPerTrigger) so a batch fits.`,
    );
  }
  if (safetyMargin.toMilliseconds() >= timeout.toMilliseconds()) {
    throw new InvalidOptionError(
      `safetyMargin ${safetyMargin.toHumanString()} leaves no time for a batch within timeout ${timeout.toHumanString()}; lower safetyMargin or raise timeout.`,
    );
  }
}

function minDuration(a: Duration, b: Duration): Duration {
  return a.toMilliseconds() <= b.toMilliseconds() ? a : b;
}
