/**
 * The monthly bill of the canonical pipeline run as 100 shards at a million events a second, from
 * the cost model of monthly-bill.ts: the fixed part from the ClickstreamStack synthesized with
 * `parallelism: 100` (its query splits at the repartition stage, so 100 shards of each of its two
 * stages: 200 schedules), the variable part from the invocation that `npm run bench:deploy`
 * measures at 10,000 events a second (one shard's share), priced for each stage's invocation (an
 * upper bound: each stage does part of that invocation's work, stage 1 parsing the events and
 * writing them to the repartition topic, stage 2 reading them back, counting and writing the
 * sink), and the request rates each shard puts on DynamoDB and S3 against their per-partition
 * limits.
 * Not a benchmark: it measures nothing itself. Run `npm run bench:deploy` and update MEASURED
 * from its "warm invocation, 10,000 events/s" line when the engine changes. `npx tsx bench/shard-sizing.ts`
 */
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { ClickstreamStack } from '../infra/clickstream-stack.js';
import {
  SCHEDULER_USD_PER_INVOCATION,
  STEP_FUNCTIONS_USD_PER_STATE_TRANSITION,
} from './aws-prices.js';
import { billTotal, deployedQuery, type MeasuredInvocation, monthlyBill } from './monthly-bill.js';

const SHARDS = 100;
const EVENTS_PER_SECOND = 1_000_000;

/**
 * `npm run bench:deploy`, 2026-12-02, "warm invocation, 10,000 events/s": 600,000 events in one
 * invocation of the one-minute schedule.
 */
const MEASURED: MeasuredInvocation = {
  durationMs: 3454,
  logBytes: 2239,
  metricNames: 3,
  dynamoDbWriteUnits: 19,
  dynamoDbReadUnits: 1,
  s3PutClass: 1,
  s3GetClass: 0,
  sqsRequests: 0,
};
/** The same run: bytes stored by one query (one shard's share) after it. */
const STORED = { checkpointTableBytes: 25_946, stateBucketBytes: 2_467 };

/** DynamoDB's and S3's per-partition (per-prefix) request limits. */
const LIMITS = { wcuPerSecond: 1_000, rcuPerSecond: 3_000, s3PutPerSecond: 3_500 };

const template = Template.fromStack(
  new ClickstreamStack(new App({ builtinCloudFormationValidation: false }), 'Sharded', {
    bootstrapServers: ['b-1.clicks.kafka.us-east-1.amazonaws.com:9098'],
    topic: 'clicks',
    mskClusterArn:
      'arn:aws:kafka:us-east-1:123456789012:cluster/clicks/1a2b3c4d-5e6f-7a8b-9c0d-112233445566-3',
    parallelism: SHARDS,
  }),
).toJSON();
const query = deployedQuery(template);
/** Each shard runs both stages, each a micro-batch stream of its own (schedule, item collection). */
const STAGES = 2;
const streams = SHARDS * STAGES;
const perShardInvocations = query.invocationsPerMonth / streams;
const secondsPerMonth = 730 * 3600;
const perShardPerSecond = (units: number) => (units * perShardInvocations) / secondsPerMonth;

console.log(
  `${SHARDS} shards of ${STAGES} stages, ${EVENTS_PER_SECOND / SHARDS} events/s each: ${query.invocationsPerMonth} invocations a month (${perShardInvocations} per stage and shard)`,
);
console.log(
  `per (stage, shard) item collection: ${perShardPerSecond(MEASURED.dynamoDbWriteUnits).toFixed(2)} WCU/s of ${LIMITS.wcuPerSecond}, ${perShardPerSecond(MEASURED.dynamoDbReadUnits).toFixed(3)} RCU/s of ${LIMITS.rcuPerSecond}; whole table ${(streams * perShardPerSecond(MEASURED.dynamoDbWriteUnits)).toFixed(1)} WCU/s`,
);
console.log(
  `state PUTs: ${perShardPerSecond(MEASURED.s3PutClass).toFixed(3)}/s per (stage, shard) prefix, ${(streams * perShardPerSecond(MEASURED.s3PutClass)).toFixed(2)}/s under the query's prefix, of ${LIMITS.s3PutPerSecond}`,
);
for (const factor of [1, 2]) {
  const lines = monthlyBill(query, {
    invocation: MEASURED,
    dynamoDbStoredBytes: STORED.checkpointTableBytes * streams,
    s3StoredBytes: STORED.stateBucketBytes * streams,
    durationFactor: factor,
  });
  console.log(
    `\nMonthly bill, Lambda ${factor === 1 ? 'as fast as' : 'twice as slow as'} the measuring machine (USD)`,
  );
  for (const l of lines) console.log(`  ${l.item.padEnd(26)} ${l.usd.toFixed(2).padStart(9)}`);
  console.log(`  ${'total'.padEnd(26)} ${billTotal(lines).toFixed(2).padStart(9)}`);
}

// The fan-out's own cost: one schedule per stage and shard (what the construct does), against one
// schedule starting a Step Functions Distributed Map over them each tick: the execution's start,
// the Map state and its end, and per stage and shard a child execution's start, its Lambda task
// and its end.
const ticks = perShardInvocations;
const transitionsPerTick = 3 + streams * 3;
console.log('\nFan-out per month (USD)');
console.log(
  `  one schedule per stage, shard: ${(query.invocationsPerMonth * SCHEDULER_USD_PER_INVOCATION).toFixed(2)} (${query.invocationsPerMonth} Scheduler invocations)`,
);
console.log(
  `  Distributed Map per tick:      ${(ticks * (SCHEDULER_USD_PER_INVOCATION + transitionsPerTick * STEP_FUNCTIONS_USD_PER_STATE_TRANSITION)).toFixed(2)} (${ticks} schedule invocations, ${ticks * transitionsPerTick} state transitions)`,
);
