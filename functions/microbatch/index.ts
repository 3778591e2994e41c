/**
 * The Lambda entry of Sluice (`sluice/lambda`): what a function's entry file needs to run a query
 * as scheduled micro-batches. The entry declares its query and hands it to the handler:
 *
 * ```ts
 * import { col, from_json } from 'sluice';
 * import { defineQuery, microBatchHandler } from 'sluice/lambda';
 *
 * export const handler = microBatchHandler(
 *   defineQuery({ outputMode: 'append', query: (input) => input.select(...) }),
 * );
 * ```
 *
 * Where the query reads and writes, and its checkpoint, come from the environment the
 * `MicroBatchQuery` construct (`sluice/cdk`) sets.
 */
export {
  microBatchHandler,
  type MicroBatchHandler,
  type MicroBatchHandlerOptions,
  type MicroBatchResult,
} from './handler.js';
export { defineQuery, type QueryModule } from './query-module.js';
export type { AwsClients } from './aws-clients.js';
