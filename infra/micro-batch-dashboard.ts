/**
 * One query's CloudWatch dashboard, laid out like Spark's streaming UI: the alarms on top, then
 * throughput (input rows, processed rows/s), latency (batch duration, watermark delay, source lag),
 * state (rows, cold loads, late rows dropped) and the function itself (invocations, errors,
 * throttles, duration, dead letters).
 */
import type { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { MicroBatchAlarms } from './micro-batch-alarms.js';
import { type SluiceMetricName, sluiceMetric } from './sluice-metrics.js';

/** What the dashboard shows. */
export interface MicroBatchDashboardProps {
  /** The query whose metrics are shown. */
  readonly queryId: string;
  /** The micro-batch function. */
  readonly fn: lambda.IFunction;
  /** Failed invocations land here. */
  readonly deadLetterQueue: sqs.IQueue;
  /** The query's alarms, shown as a status row. */
  readonly alarms: MicroBatchAlarms;
  /** The schedule's period: one data point per invocation. */
  readonly scheduleInterval: Duration;
}

const WIDTH = 8;

/** The dashboard of one micro-batch query. */
export class MicroBatchDashboard extends Construct {
  /** The CloudWatch dashboard. */
  readonly dashboard: cloudwatch.Dashboard;

  constructor(scope: Construct, id: string, props: MicroBatchDashboardProps) {
    super(scope, id);
    const period = props.scheduleInterval;
    const metric = (name: SluiceMetricName, statistic: string) =>
      sluiceMetric(props.queryId, name, statistic, period);
    const graph = (title: string, metrics: cloudwatch.IMetric[]) =>
      new cloudwatch.GraphWidget({ title, left: metrics, width: WIDTH });
    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      widgets: [
        [
          new cloudwatch.AlarmStatusWidget({
            title: `Sluice query ${props.queryId}`,
            alarms: props.alarms.all(),
            width: 3 * WIDTH,
          }),
        ],
        [
          graph('Input rows per batch', [metric('InputRows', 'Sum')]),
          graph('Processed rows per second', [metric('ProcessedRowsPerSecond', 'Average')]),
          graph('Batches committed', [metric('BatchesCommitted', 'Sum')]),
        ],
        [
          graph('Batch duration (ms)', [
            metric('BatchDurationMs', 'Average'),
            metric('BatchDurationMs', 'Maximum'),
          ]),
          graph('Watermark delay (ms)', [metric('WatermarkDelayMs', 'Maximum')]),
          graph('Source lag (records)', [metric('SourceLagRecords', 'Maximum')]),
        ],
        [
          graph('State rows', [metric('StateRows', 'Maximum')]),
          graph('Cold state loads', [metric('StateLoadCold', 'Sum')]),
          graph('Late rows dropped', [metric('LateRowsDropped', 'Sum')]),
        ],
        [
          graph('Invocations, errors, throttles', [
            props.fn.metricInvocations({ period }),
            props.fn.metricErrors({ period }),
            props.fn.metricThrottles({ period }),
          ]),
          graph('Invocation duration (ms)', [
            props.fn.metricDuration({ period, statistic: 'Average' }),
            props.fn.metricDuration({ period, statistic: 'Maximum' }),
          ]),
          graph('Dead letters', [
            props.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period }),
          ]),
        ],
      ],
    });
  }
}
