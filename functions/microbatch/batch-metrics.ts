/**
 * The CloudWatch metrics of the micro-batch function: their names (the `MicroBatchQuery` construct's
 * alarms and dashboard use the same ones), and the values one committed batch and one invocation
 * report. All are published in namespace `Sluice` with the single dimension `QueryId`.
 *
 * Each metric name is a CloudWatch custom metric, billed for every hour it receives a value, so by
 * default the function publishes only the ones the construct's alarms read (ALARM_METRICS); the
 * others are for the opt-in dashboard.
 */
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { StreamingQueryProgress } from '../../core/index.js';
import { parseTimestamp } from '../../core/types/timestamp-text.js';

/** The CloudWatch namespace of every Sluice metric. */
export const METRIC_NAMESPACE = 'Sluice';

/** The one dimension of every Sluice metric: the configured query id. */
export const QUERY_ID_DIMENSION = 'QueryId';

/** The metric names. */
export const METRIC = {
  inputRows: 'InputRows',
  processedRowsPerSecond: 'ProcessedRowsPerSecond',
  batchDurationMs: 'BatchDurationMs',
  watermarkDelayMs: 'WatermarkDelayMs',
  sourceLagRecords: 'SourceLagRecords',
  stateRows: 'StateRows',
  lateRowsDropped: 'LateRowsDropped',
  batchesCommitted: 'BatchesCommitted',
  stateLoadCold: 'StateLoadCold',
} as const;

/** The metrics the construct's alarms read: all the function publishes unless told otherwise. */
export const ALARM_METRICS: ReadonlySet<MetricValue['name']> = new Set([
  METRIC.watermarkDelayMs,
  METRIC.sourceLagRecords,
  METRIC.batchesCommitted,
]);

/** One value of one metric. */
export interface MetricValue {
  readonly name: (typeof METRIC)[keyof typeof METRIC];
  readonly unit: (typeof MetricUnit)[keyof typeof MetricUnit];
  readonly value: number;
}

/**
 * The values a committed batch reports. `nowMs` is when it is reported: the watermark delay is how
 * far the watermark trails the clock, so it grows when the query falls behind its input. Values the
 * batch does not have (no watermark yet, a source that does not report its latest offsets, a
 * stateless query's state) are left out rather than reported as zero.
 */
export function batchMetrics(progress: StreamingQueryProgress, nowMs: number): MetricValue[] {
  const values: MetricValue[] = [
    { name: METRIC.inputRows, unit: MetricUnit.Count, value: progress.numInputRows },
    {
      name: METRIC.processedRowsPerSecond,
      unit: MetricUnit.CountPerSecond,
      value: progress.processedRowsPerSecond,
    },
    {
      name: METRIC.batchDurationMs,
      unit: MetricUnit.Milliseconds,
      value: progress.durationMs.triggerExecution,
    },
    { name: METRIC.lateRowsDropped, unit: MetricUnit.Count, value: progress.lateRowsDropped },
  ];
  const watermarkMicros =
    progress.eventTime.watermark === undefined
      ? null
      : parseTimestamp(progress.eventTime.watermark);
  if (watermarkMicros !== null) {
    values.push({
      name: METRIC.watermarkDelayMs,
      unit: MetricUnit.Milliseconds,
      value: nowMs - watermarkMicros / 1000,
    });
  }
  const lag = sourceLag(progress);
  if (lag !== undefined) {
    values.push({ name: METRIC.sourceLagRecords, unit: MetricUnit.Count, value: lag });
  }
  if (progress.stateLoad !== 'none') {
    const rows = progress.stateOperators.reduce((n, s) => n + s.numRowsTotal, 0);
    values.push(
      { name: METRIC.stateRows, unit: MetricUnit.Count, value: rows },
      {
        name: METRIC.stateLoadCold,
        unit: MetricUnit.Count,
        value: progress.stateLoad === 'cold' ? 1 : 0,
      },
    );
  }
  return values;
}

/**
 * What an invocation reports once: how many batches it committed, only when it committed some. The
 * stalled alarm treats a period without data as one without a batch, so a zero would tell it nothing
 * more, while it would keep the metric billed through every idle hour.
 */
export function invocationMetrics(batchesCommitted: number): MetricValue[] {
  if (batchesCommitted === 0) return [];
  return [{ name: METRIC.batchesCommitted, unit: MetricUnit.Count, value: batchesCommitted }];
}

/**
 * Records the sources could have read beyond the batch's end: the sum over sources, and over the
 * offsets' leaves (Kafka: topic, then partition), of latest minus end. Undefined when no source
 * reports its latest offsets (Spark's `SourceProgress.latestOffset`).
 */
function sourceLag(progress: StreamingQueryProgress): number | undefined {
  let lag: number | undefined;
  for (const source of progress.sources) {
    if (source.latestOffset === undefined || source.latestOffset === null) continue;
    lag = (lag ?? 0) + offsetDistance(source.latestOffset, source.endOffset);
  }
  return lag;
}

/** How far `latest` is ahead of `end`, summed over the numeric leaves they share. */
function offsetDistance(latest: unknown, end: unknown): number {
  if (typeof latest === 'number') return typeof end === 'number' ? Math.max(0, latest - end) : 0;
  if (typeof latest !== 'object' || latest === null || typeof end !== 'object' || end === null) {
    return 0;
  }
  const ends = end as Record<string, unknown>;
  return Object.entries(latest).reduce(
    (n, [key, value]) => n + offsetDistance(value, ends[key]),
    0,
  );
}
