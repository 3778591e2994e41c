/**
 * The alarms of one query. Each evaluates over the schedule's period, since the function publishes
 * once per invocation:
 * - errors: an invocation failed (it is not retried; the next tick re-runs the batch);
 * - duration: an invocation came close to the Lambda timeout, so batches are about to be abandoned;
 * - watermark delay and source lag: the query is falling behind its input;
 * - no batch committed: nothing committed for several triggers in a row. Missing data breaches,
 *   because a function that never starts publishes nothing. A source that goes quiet also trips it.
 *
 * Every alarm is billed by the month, running or idle, so by default a query gets three
 * (DEFAULT_ALARMS): errors, no batch committed, and one falling-behind alarm — source lag where the
 * source reports its latest offsets (Kafka), the watermark delay where it does not (S3 files). A
 * failing or overrunning query trips the first two whatever else it does; the others warn earlier.
 */
import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sns from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { InvalidOptionError } from '../core/errors.js';
import { sluiceMetric } from './sluice-metrics.js';

/** The name of one of a query's alarms. */
export type MicroBatchAlarmName =
  'errors' | 'duration' | 'watermarkDelay' | 'sourceLag' | 'noBatchCommitted';

/** The alarms a query gets by default, by its source: source lag needs a source that reports it. */
export function defaultAlarms(sourceKind: 'kafka' | 's3-files'): MicroBatchAlarmName[] {
  return ['errors', sourceKind === 'kafka' ? 'sourceLag' : 'watermarkDelay', 'noBatchCommitted'];
}

/** What the alarms watch and when they fire. */
export interface MicroBatchAlarmsProps {
  /** Which alarms to create. */
  readonly enabled: readonly MicroBatchAlarmName[];
  /** The query whose metrics are watched. */
  readonly queryId: string;
  /** The micro-batch function. */
  readonly fn: lambda.IFunction;
  /** The function's timeout: the duration alarm fires at `durationAlarmRatio` of it. */
  readonly timeout: Duration;
  /** The schedule's period: the alarms' evaluation period. */
  readonly scheduleInterval: Duration;
  /** Fire when now minus the watermark exceeds this for `FALLING_BEHIND_TRIGGERS` periods. */
  readonly watermarkDelayThreshold: Duration;
  /** Fire when the source holds more unread records than this for `FALLING_BEHIND_TRIGGERS` periods. */
  readonly sourceLagThreshold: number;
  /** Consecutive triggers without a committed batch before the stalled alarm fires. */
  readonly noBatchTriggers: number;
  /** Receives every alarm's state changes. @default no action */
  readonly alarmTopic?: sns.ITopic;
}

/** Share of the timeout at which the duration alarm fires. */
export const DURATION_ALARM_RATIO = 0.85;

/** Consecutive periods (at most a day's worth) the watermark and lag alarms wait for, so one slow batch does not page. */
export const FALLING_BEHIND_TRIGGERS = 3;

/** The query's alarms, exposed so callers can add actions or composite alarms. */
export class MicroBatchAlarms extends Construct {
  /** Any failed invocation. */
  readonly errors?: cloudwatch.Alarm;
  /** The longest invocation came within 15% of the timeout. */
  readonly duration?: cloudwatch.Alarm;
  /** The event-time watermark lags the wall clock by more than the threshold. */
  readonly watermarkDelay?: cloudwatch.Alarm;
  /** The source has more unread records than the threshold. */
  readonly sourceLag?: cloudwatch.Alarm;
  /** No batch committed for `noBatchTriggers` triggers. */
  readonly noBatchCommitted?: cloudwatch.Alarm;

  constructor(scope: Construct, id: string, props: MicroBatchAlarmsProps) {
    super(scope, id);
    const period = props.scheduleInterval;
    const on = (name: MicroBatchAlarmName) => props.enabled.includes(name);
    if (on('errors')) {
      this.errors = new cloudwatch.Alarm(this, 'Errors', {
        alarmDescription: `Sluice query ${props.queryId}: an invocation failed; see the function's log and the dead-letter queue.`,
        metric: props.fn.metricErrors({ period, statistic: 'Sum' }),
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
    }
    if (on('duration')) {
      this.duration = new cloudwatch.Alarm(this, 'Duration', {
        alarmDescription: `Sluice query ${props.queryId}: an invocation ran close to the timeout; raise timeout or memory, or lower the batch size.`,
        metric: props.fn.metricDuration({ period, statistic: 'Maximum' }),
        threshold: Math.floor(props.timeout.toMilliseconds() * DURATION_ALARM_RATIO),
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
    }
    if (on('watermarkDelay')) {
      this.watermarkDelay = new cloudwatch.Alarm(this, 'WatermarkDelay', {
        alarmDescription: `Sluice query ${props.queryId}: the watermark is more than ${props.watermarkDelayThreshold.toHumanString()} behind the clock.`,
        metric: sluiceMetric(props.queryId, 'WatermarkDelayMs', 'Maximum', period),
        threshold: props.watermarkDelayThreshold.toMilliseconds(),
        evaluationPeriods: Math.min(FALLING_BEHIND_TRIGGERS, periodsPerDay(period)),
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
    }
    if (on('sourceLag')) {
      this.sourceLag = new cloudwatch.Alarm(this, 'SourceLag', {
        alarmDescription: `Sluice query ${props.queryId}: more than ${props.sourceLagThreshold} source records are waiting.`,
        metric: sluiceMetric(props.queryId, 'SourceLagRecords', 'Maximum', period),
        threshold: props.sourceLagThreshold,
        evaluationPeriods: Math.min(FALLING_BEHIND_TRIGGERS, periodsPerDay(period)),
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
    }
    if (on('noBatchCommitted')) {
      this.noBatchCommitted = new cloudwatch.Alarm(this, 'NoBatchCommitted', {
        alarmDescription: `Sluice query ${props.queryId}: no batch committed for ${props.noBatchTriggers} triggers (stuck, failing, or an idle source).`,
        metric: sluiceMetric(props.queryId, 'BatchesCommitted', 'Sum', period),
        threshold: 1,
        evaluationPeriods: props.noBatchTriggers,
        comparisonOperator: cloudwatch.ComparisonOperator.LESS_THAN_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.BREACHING,
      });
    }
    if (props.alarmTopic) {
      const action = new actions.SnsAction(props.alarmTopic);
      for (const alarm of this.all()) {
        alarm.addAlarmAction(action);
        alarm.addOkAction(action);
      }
    }
  }

  /** Every alarm of the query. */
  all(): cloudwatch.Alarm[] {
    return [
      this.errors,
      this.duration,
      this.watermarkDelay,
      this.sourceLag,
      this.noBatchCommitted,
    ].filter((alarm) => alarm !== undefined);
  }
}

/** Checks that the stalled alarm's window fits CloudWatch's limit of one day of evaluation. */
export function checkNoBatchTriggers(noBatchTriggers: number, scheduleInterval: Duration): number {
  if (!Number.isInteger(noBatchTriggers) || noBatchTriggers < 1) {
    throw new InvalidOptionError(
      `noBatchTriggers must be a positive integer, not ${noBatchTriggers}.`,
    );
  }
  if (noBatchTriggers > periodsPerDay(scheduleInterval)) {
    throw new InvalidOptionError(
      `noBatchTriggers ${noBatchTriggers} times the schedule of ${scheduleInterval.toHumanString()} exceeds the one day an alarm can evaluate; use at most ${periodsPerDay(scheduleInterval)}.`,
    );
  }
  return noBatchTriggers;
}

function periodsPerDay(period: Duration): number {
  return Math.floor(Duration.days(1).toSeconds() / period.toSeconds());
}
