/**
 * The custom metrics the micro-batch function publishes in embedded metric format, one set per
 * committed batch: namespace `Sluice`, dimension `QueryId`. Alarms and the dashboard read them here,
 * so a metric name is spelled once on the infrastructure side.
 */
import type { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';

/** The CloudWatch namespace of every Sluice metric. */
export const SLUICE_NAMESPACE = 'Sluice';

/** The dimension that tells one query's metrics from another's. */
export const QUERY_ID_DIMENSION = 'QueryId';

/** The metrics a committed batch reports. */
export type SluiceMetricName =
  | 'InputRows'
  | 'ProcessedRowsPerSecond'
  | 'BatchDurationMs'
  | 'WatermarkDelayMs'
  | 'SourceLagRecords'
  | 'StateRows'
  | 'LateRowsDropped'
  | 'BatchesCommitted'
  | 'StateLoadCold';

/** One query's metric, aggregated with `statistic` over `period`. */
export function sluiceMetric(
  queryId: string,
  metricName: SluiceMetricName,
  statistic: string,
  period: Duration,
): cloudwatch.Metric {
  return new cloudwatch.Metric({
    namespace: SLUICE_NAMESPACE,
    metricName,
    dimensionsMap: { [QUERY_ID_DIMENSION]: queryId },
    statistic,
    period,
  });
}
