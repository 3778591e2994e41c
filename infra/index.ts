/**
 * The CDK entry of Sluice (`sluice/cdk`): the `MicroBatchQuery` construct, which deploys a query as
 * a scheduled Lambda function with its checkpoint table, state bucket, least-privilege role,
 * dead-letter queue, alarms and dashboard. It bundles the function from an entry file in the
 * user's project (`entry`), with the esbuild options the package's own function tests use.
 * `aws-cdk-lib`, `constructs` and `esbuild` are peer dependencies of this entry only.
 */
export {
  MicroBatchQuery,
  type MicroBatchQueryProps,
  type QuerySink,
  type QuerySource,
} from './micro-batch-query.js';
export { type MicroBatchAlarmName } from './micro-batch-alarms.js';
export { MICRO_BATCH_BUNDLING, MICRO_BATCH_RUNTIME } from './function-bundling.js';
