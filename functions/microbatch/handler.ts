/**
 * The micro-batch Lambda handler: a thin adapter from a scheduled invocation to core's runner.
 *
 * `microBatchHandler(queryModule)` runs at cold start (the entry file calls it at module scope): it
 * reads and validates the configuration, installs the AWS Kafka credentials (Secrets Manager, MSK
 * IAM), creates the AWS clients and builds the query, so a bad setting fails the container's
 * initialisation with a message naming the variable. Each invocation
 * then runs micro-batches (docs/architecture.md section 3) while its time budget allows:
 * - it starts no batch it cannot expect to finish before the Lambda timeout minus the safety margin,
 *   and abandons, before its commit, a batch that still overruns;
 * - with a trigger interval shorter than the schedule, it runs a batch every interval until the
 *   schedule's period is over, so a one-minute schedule drives a ten-second trigger.
 * A query with parallelism above 1 runs the shard the event names (`{"shard": i}`, invocation-shard.ts).
 * Another invocation holding the query, or committing first, is a normal outcome: logged and
 * returned. Any other error fails the invocation (Lambda then retries it or sends it to the
 * dead-letter queue); the checkpoint makes the next attempt re-run the batch exactly. A damaged
 * checkpoint (an edited record, a lost head item) is such an error, so the alarm sees it.
 */
import type { Context } from 'aws-lambda';
import { awsKafkaCredentials, useKafkaCredentials } from '../../core/aws/index.js';
import type { InvocationStop } from '../../core/index.js';
import { type AwsClients, createAwsClients } from './aws-clients.js';
import { readConfiguration } from './configuration.js';
import { invocationShard } from './invocation-shard.js';
import { FunctionObservability } from './observability.js';
import type { QueryModule } from './query-module.js';
import { QueryRuntime } from './query-runtime.js';

/** Options of {@link microBatchHandler}, for tests and local runs. */
export interface MicroBatchHandlerOptions {
  /** Where the configuration is read from. @default process.env */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Clients to use instead of new ones from the SDK's default resolution. */
  readonly clients?: AwsClients;
}

/** What an invocation did. */
export interface MicroBatchResult {
  /** How many batches this invocation committed. */
  readonly batchesCommitted: number;
  /** Their ids, in order. */
  readonly batchIds: readonly number[];
  /** The input rows of those batches. */
  readonly numInputRows: number;
  /** Why it stopped: its period or time budget was over, no new data, or another invocation held the query. */
  readonly stoppedBecause: InvocationStop;
}

/** A Lambda handler for scheduled invocations. */
export type MicroBatchHandler = (event: unknown, context: Context) => Promise<MicroBatchResult>;

/** The service name in logs when POWERTOOLS_SERVICE_NAME is not set. */
const DEFAULT_SERVICE_NAME = 'sluice-microbatch';

/** Builds the handler of `queryModule`, validating the configuration now (at cold start). */
export function microBatchHandler(
  queryModule: QueryModule,
  options: MicroBatchHandlerOptions = {},
): MicroBatchHandler {
  const env = options.env ?? process.env;
  const config = readConfiguration(env);
  // Kafka's SASL secrets and MSK IAM tokens come from AWS in Lambda; core's Kafka connector knows no SDK.
  useKafkaCredentials(awsKafkaCredentials);
  const runtime = new QueryRuntime(
    config,
    queryModule,
    options.clients ?? createAwsClients(config),
  );
  const observability = new FunctionObservability(config.queryId, {
    serviceName: env.POWERTOOLS_SERVICE_NAME?.trim() || DEFAULT_SERVICE_NAME,
    detailedMetrics: config.detailedMetrics,
  });

  return async (event, context) => {
    observability.beginInvocation(context, event);
    try {
      const shard = invocationShard(event, config);
      const result = await runtime.runInvocation(
        {
          remainingMs: () => context.getRemainingTimeInMillis(),
          safetyMarginMs: config.safetyMarginMs,
          triggerIntervalMs: config.triggerIntervalMs,
          runForMs: config.scheduleIntervalMs,
          log: (entry) => observability.log(entry),
          onProgress: (progress) => observability.recordBatch(progress),
        },
        shard,
      );
      observability.endInvocation(result);
      return {
        batchesCommitted: result.batches.length,
        batchIds: result.batches.map((b) => b.batchId),
        numInputRows: result.batches.reduce((n, b) => n + b.numInputRows, 0),
        stoppedBecause: result.stoppedBecause,
      };
    } catch (error) {
      observability.failInvocation(error);
      throw error;
    }
  };
}
