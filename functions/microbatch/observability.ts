/**
 * What the micro-batch function tells CloudWatch, through Powertools for AWS Lambda, priced as
 * CloudWatch bills it (log ingestion by the byte, custom metrics by the metric-hour):
 * - logs: one JSON object per line, each with the query id (and the Lambda request id). At INFO, the
 *   default, a batch is one line (its batchId and whole progress record) and an idle invocation is
 *   none; the start and end of each invocation are DEBUG lines (POWERTOOLS_LOG_LEVEL=DEBUG);
 *   warnings and errors always show;
 * - metrics in embedded metric format (batch-metrics.ts): one set per committed batch and the
 *   invocation's BatchesCommitted, buffered and published once, when the invocation ends (also when it
 *   fails), so CloudWatch receives at most one metrics document per invocation, and none from an
 *   invocation that committed nothing. Only the alarms' metrics unless detailed metrics are on.
 * One instance lives as long as the container; each invocation begins and ends with it.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import type { Context } from 'aws-lambda';
import type { InvocationResult, StreamingQueryProgress } from '../../core/index.js';
import {
  ALARM_METRICS,
  batchMetrics,
  invocationMetrics,
  METRIC_NAMESPACE,
  type MetricValue,
  QUERY_ID_DIMENSION,
} from './batch-metrics.js';

/** Outcomes that end an invocation early for a reason an operator may want to look at. */
const WARNING_KINDS = new Set(['abandoned', 'lease-lost', 'conflict']);

/** How the function observes itself. */
export interface ObservabilityOptions {
  /** The service name on every log line. */
  readonly serviceName: string;
  /** Publish every metric, not only those the alarms read. */
  readonly detailedMetrics: boolean;
}

/** Logs and metrics of one query's function. */
export class FunctionObservability {
  private readonly logger: Logger;
  private readonly metrics: Metrics;
  private readonly detailedMetrics: boolean;
  private batchesCommitted = 0;

  constructor(queryId: string, options: ObservabilityOptions) {
    this.logger = new Logger({ serviceName: options.serviceName, persistentKeys: { queryId } });
    this.metrics = new Metrics({ namespace: METRIC_NAMESPACE, serviceName: options.serviceName });
    this.detailedMetrics = options.detailedMetrics;
    // Powertools adds a `service` dimension by default; the alarms address the metrics by QueryId alone.
    this.metrics.clearDefaultDimensions();
    this.metrics.setDefaultDimensions({ [QUERY_ID_DIMENSION]: queryId });
  }

  /** Starts an invocation: its request id goes on every line until the next one begins. */
  beginInvocation(context: Context, event: unknown): void {
    this.logger.addContext(context);
    this.batchesCommitted = 0;
    this.logger.debug('invocation started', {
      scheduledTime: scheduledTime(event),
      remainingMs: context.getRemainingTimeInMillis(),
    });
  }

  /** One entry of the runner's log (a committed batch, or why the invocation stopped). */
  log(entry: Readonly<Record<string, unknown>>): void {
    const { message, ...attributes } = entry;
    const write = WARNING_KINDS.has(String(attributes.kind)) ? 'warn' : 'info';
    this.logger[write](String(message), attributes);
  }

  /** Records a committed batch's metrics. */
  recordBatch(progress: StreamingQueryProgress): void {
    this.batchesCommitted++;
    this.add(batchMetrics(progress, Date.now()));
  }

  /** Ends an invocation that ran to its end, and publishes its metrics. */
  endInvocation(result: InvocationResult): void {
    this.logger.debug('invocation ended', {
      stoppedBecause: result.stoppedBecause,
      batchIds: result.batches.map((b) => b.batchId),
    });
    this.publish();
  }

  /** Ends an invocation that failed, and publishes the metrics of the batches it did commit. */
  failInvocation(error: unknown): void {
    this.logger.error('invocation failed', error instanceof Error ? error : String(error));
    this.publish();
  }

  private publish(): void {
    this.add(invocationMetrics(this.batchesCommitted));
    // Powertools warns in the log about an empty document; an idle invocation has nothing to say
    if (this.metrics.hasStoredMetrics()) this.metrics.publishStoredMetrics();
  }

  private add(values: readonly MetricValue[]): void {
    for (const v of values) {
      if (this.detailedMetrics || ALARM_METRICS.has(v.name)) {
        this.metrics.addMetric(v.name, v.unit, v.value);
      }
    }
  }
}

/**
 * When the schedule fired, if the event says: EventBridge's `time`, or the `scheduledTime` an
 * EventBridge Scheduler target input can template from `<aws.scheduler.scheduled-time>`.
 */
function scheduledTime(event: unknown): string | undefined {
  if (typeof event !== 'object' || event === null) return undefined;
  const { time, scheduledTime } = event as { time?: unknown; scheduledTime?: unknown };
  const value = scheduledTime ?? time;
  return typeof value === 'string' ? value : undefined;
}
