/**
 * MicroBatchQuery with `parallelism: 4`: one schedule per shard, each naming its shard in the event;
 * the function may run four copies at once and is told the parallelism; its checkpoint grant covers
 * the query's item collection and its shards' and nothing else; the unsharded query's template is
 * unchanged.
 */
import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { ENV } from '../../functions/microbatch/configuration.js';
import { ClickstreamStack } from '../../infra/clickstream-stack.js';
import {
  functionStatements,
  mskIamInVpc,
  type QueryStack,
  roleStatements,
  shardedMskIam,
  statementWith,
} from './query-stack.js';

let sharded: QueryStack;
let unsharded: QueryStack;

beforeAll(() => {
  sharded = shardedMskIam();
  unsharded = mskIamInVpc();
});

interface ScheduleProperties {
  readonly Description: string;
  readonly Target: { readonly Arn: unknown; readonly Input: string };
}

function schedules(q: QueryStack): ScheduleProperties[] {
  return Object.values(q.template.findResources('AWS::Scheduler::Schedule')).map(
    (r) => (r as { Properties: ScheduleProperties }).Properties,
  );
}

/** A schedule's input event without its scheduler placeholders. */
function inputOf(schedule: ScheduleProperties): Record<string, unknown> {
  const event = JSON.parse(schedule.Target.Input) as Record<string, unknown>;
  delete event.scheduledTime;
  return event;
}

function functionProperties(q: QueryStack): Record<string, unknown> {
  const [fn] = Object.values(q.template.findResources('AWS::Lambda::Function'));
  return (fn as { Properties: Record<string, unknown> }).Properties;
}

describe('MicroBatchQuery with parallelism 4', () => {
  it('fans the trigger out with one schedule per shard, each naming its shard', () => {
    const found = schedules(sharded);
    expect(found.map(inputOf)).toEqual([0, 1, 2, 3].map((shard) => ({ queryId: 'clicks', shard })));
    expect(new Set(found.map((s) => JSON.stringify(s.Target.Arn))).size).toBe(1);
    expect(found.map((s) => s.Description)).toContain(
      'Triggers Sluice query clicks shard 3 every 1 minute',
    );
    expect(sharded.query.schedules).toHaveLength(4);
    // one role invokes the function for every schedule
    expect(Object.keys(sharded.template.findResources('AWS::IAM::Role'))).toHaveLength(2);
  });

  it('lets four copies of the function run at once and tells it the parallelism', () => {
    const props = functionProperties(sharded);
    expect(props.ReservedConcurrentExecutions).toBe(4);
    const env = (props.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(env[ENV.parallelism]).toBe('4');
    expect(env[ENV.shard]).toBeUndefined();
  });

  it("reads and writes only the query's own item collection and its shards'", () => {
    const table = statementWith(functionStatements(sharded.template), 'dynamodb:UpdateItem');
    expect(table.Condition).toEqual({
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['query#clicks', 'query#clicks#*'] },
    });
  });

  it('keeps the state grant under <statePrefix>/<queryId>/, where the shards keep theirs', () => {
    const state = statementWith(functionStatements(sharded.template), 's3:DeleteObject');
    expect(JSON.stringify(state.Resource)).toContain('/sluice/clicks/*');
  });

  it('leaves the template of an unsharded query as it was', () => {
    const [only] = schedules(unsharded);
    expect(schedules(unsharded)).toHaveLength(1);
    expect(inputOf(only)).toEqual({ queryId: 'clicks' });
    expect(functionProperties(unsharded).ReservedConcurrentExecutions).toBe(1);
    const env = (functionProperties(unsharded).Environment as { Variables: object }).Variables;
    expect(env).not.toHaveProperty(ENV.parallelism);
    unsharded.template.hasResourceProperties('AWS::Scheduler::Schedule', {
      Target: Match.objectLike({
        RetryPolicy: { MaximumRetryAttempts: 0, MaximumEventAgeInSeconds: 60 },
      }),
    });
    expect(roleStatements(unsharded.template, 'QueryScheduleRole').length).toBeGreaterThan(0);
  });

  it.each([0, 1.5, 501])('refuses parallelism %s, naming it', (parallelism) => {
    expect(() => mskIamInVpc({ parallelism })).toThrow(`parallelism ${parallelism} is invalid`);
  });
});

describe('MicroBatchQuery with parallelism 2 and a repartition stage', () => {
  let split: QueryStack;
  beforeAll(() => {
    split = mskIamInVpc({ parallelism: 2, repartitionStage: true });
  });

  it('schedules stage 1 and stage 2 of every shard, each event naming both', () => {
    expect(schedules(split).map(inputOf)).toEqual([
      { queryId: 'clicks', stage: 1, shard: 0 },
      { queryId: 'clicks', stage: 1, shard: 1 },
      { queryId: 'clicks', stage: 2, shard: 0 },
      { queryId: 'clicks', stage: 2, shard: 1 },
    ]);
    expect(schedules(split).map((s) => s.Description)).toContain(
      'Triggers Sluice query clicks stage 2 shard 1 every 1 minute',
    );
    expect(functionProperties(split).ReservedConcurrentExecutions).toBe(4);
  });

  it('grants the repartition topic on the source cluster: created, written idempotently and read', () => {
    const topic = statementWith(functionStatements(split.template), 'kafka-cluster:WriteData');
    expect(JSON.stringify(topic.Resource)).toContain('/sluice-clicks-repartition');
    expect(topic.Action).toEqual(
      expect.arrayContaining(['kafka-cluster:CreateTopic', 'kafka-cluster:ReadData']),
    );
    expect(() =>
      statementWith(functionStatements(split.template), 'kafka-cluster:WriteDataIdempotently'),
    ).not.toThrow();
    // the unsplit query's role has no such grant
    expect(JSON.stringify(functionStatements(sharded.template))).not.toContain('repartition');
  });

  it('refuses a repartition stage with one shard, naming the setting', () => {
    expect(() => mskIamInVpc({ repartitionStage: true })).toThrow(
      /repartitionStage needs a Kafka source and a parallelism above 1/,
    );
  });
});

describe('the canonical ClickstreamStack with parallelism 4', () => {
  it('runs its query split: the category it counts is parsed from the events, so both stages are scheduled', () => {
    const template = Template.fromStack(
      new ClickstreamStack(new App(), 'Clicks', {
        bootstrapServers: ['b-1.clicks.kafka.eu-west-1.amazonaws.com:9098'],
        topic: 'clicks',
        mskClusterArn:
          'arn:aws:kafka:eu-west-1:123456789012:cluster/clicks/11111111-2222-3333-4444-555555555555-1',
        parallelism: 4,
      }),
    );
    const events = Object.values(template.findResources('AWS::Scheduler::Schedule')).map((r) =>
      inputOf((r as { Properties: ScheduleProperties }).Properties),
    );
    expect(events.filter((e) => e.stage === 1)).toHaveLength(4);
    expect(events.filter((e) => e.stage === 2)).toHaveLength(4);
    expect(events.filter((e) => e.stage === undefined)).toEqual([]);
  });
});
