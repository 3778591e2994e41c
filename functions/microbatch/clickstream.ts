/**
 * The canonical clickstream pipeline's function: the entry the `MicroBatchQuery` construct bundles.
 * Its configuration (Kafka topic, Delta table, checkpoint) comes from the environment; the query is
 * examples/clickstream-query.ts.
 */
import { clickstreamQuery } from '../../examples/clickstream-query.js';
import { microBatchHandler } from './handler.js';

/** The Lambda handler (`clickstream.handler`). */
export const handler = microBatchHandler(clickstreamQuery);
