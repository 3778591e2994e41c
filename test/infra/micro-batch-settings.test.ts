/**
 * The construct's props are checked before anything is created: each mistake fails synth with a
 * message naming the prop, and the defaults follow the trigger.
 */
import { Duration, Stack } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as kms from 'aws-cdk-lib/aws-kms';
import { describe, expect, it } from 'vitest';
import { InvalidOptionError } from '../../core/errors.js';
import type { MicroBatchQueryProps, QuerySource } from '../../infra/micro-batch-query.js';
import { resolveSettings } from '../../infra/micro-batch-settings.js';
import { CLUSTER_ARN, FIXTURE_ENTRY, SECRET_ARN } from './query-stack.js';

const base: MicroBatchQueryProps = {
  queryId: 'clicks',
  entry: FIXTURE_ENTRY,
  source: { kind: 'kafka', bootstrapServers: ['b:9092'], topic: 'clicks' },
  sink: { kind: 'delta', bucket: 'lake', path: 'tables/clicks' },
};

function failure(props: Partial<MicroBatchQueryProps>): Error {
  try {
    resolveSettings({ ...base, ...props });
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidOptionError);
    return error as Error;
  }
  throw new Error('expected the props to be refused');
}

const iamSource: QuerySource = {
  kind: 'kafka',
  bootstrapServers: ['b:9098'],
  topic: 'clicks',
  sasl: { mechanism: 'aws-msk-iam' },
};

describe('resolveSettings defaults', () => {
  it('triggers every minute with a two-minute timeout, a five-second margin and a 30-second lease', () => {
    const settings = resolveSettings(base);
    expect(settings.leaseDuration.toSeconds()).toBe(30);
    expect(settings.trigger.scheduleInterval.toSeconds()).toBe(60);
    expect(settings.timeout.toSeconds()).toBe(120);
    expect(settings.safetyMargin.toSeconds()).toBe(5);
    expect(settings.statePrefix).toBe('sluice');
    expect(settings.noBatchTriggers).toBe(5);
    expect(settings.maxEventAge.toSeconds()).toBe(60);
  });

  it('gives a long trigger a period plus a minute, capped at 15 minutes', () => {
    expect(
      resolveSettings({ ...base, triggerInterval: Duration.minutes(5) }).timeout.toMinutes(),
    ).toBe(6);
    expect(
      resolveSettings({ ...base, triggerInterval: Duration.hours(1) }).timeout.toMinutes(),
    ).toBe(15);
  });

  it('lets a stale tick wait at most one period, and never past Lambda’s six hours', () => {
    expect(
      resolveSettings({ ...base, triggerInterval: Duration.minutes(5) }).maxEventAge.toMinutes(),
    ).toBe(5);
    expect(
      resolveSettings({
        ...base,
        triggerInterval: Duration.hours(12),
        noBatchTriggers: 2,
      }).maxEventAge.toHours(),
    ).toBe(6);
  });
});

describe('resolveSettings refuses', () => {
  it('a query id that is unsafe in a key or prefix', () => {
    expect(failure({ queryId: 'clicks/v2' }).message).toMatch(/queryId/);
    expect(failure({ queryId: '' }).message).toMatch(/queryId/);
    for (const queryId of ['.', '..']) {
      expect(failure({ queryId }).message).toMatch(`queryId='${queryId}' is invalid`);
    }
  });

  it('a source or sink the function would refuse, naming the field', () => {
    expect(failure({ sink: { kind: 'delta', bucket: 'lake', path: '/abs' } }).message).toMatch(
      /sink\.path/,
    );
    expect(
      failure({ source: { kind: 's3-files', bucket: 'in', format: 'xml' as 'json' } }).message,
    ).toMatch(/source\.format/);
  });

  it('MSK IAM without the cluster ARN, and a cluster ARN nobody uses', () => {
    expect(failure({ source: iamSource }).message).toMatch(/mskClusterArn/);
    expect(failure({ mskClusterArn: CLUSTER_ARN }).message).toMatch(/mskClusterArn is set/);
  });

  it('a cluster ARN or secret ARN of the wrong shape', () => {
    const topicArn = CLUSTER_ARN.replace(':cluster/', ':topic/');
    expect(failure({ source: iamSource, mskClusterArn: topicArn }).message).toMatch(
      /not an MSK cluster ARN/,
    );
    const partial = SECRET_ARN.replace(/-[A-Za-z0-9]{6}$/, '');
    const scram: QuerySource = {
      ...iamSource,
      sasl: { mechanism: 'scram-sha-512', secretArn: partial },
    };
    expect(failure({ source: scram }).message).toMatch(/complete/);
  });

  it('a secret key without a secret', () => {
    const key = kms.Key.fromKeyArn(new Stack(), 'K', 'arn:aws:kms:eu-west-1:123456789012:key/k');
    expect(failure({ kafkaSecretKey: key }).message).toMatch(/kafkaSecretKey/);
    const scram: QuerySource = {
      ...iamSource,
      sasl: { mechanism: 'scram-sha-512', secretArn: SECRET_ARN },
    };
    expect(resolveSettings({ ...base, source: scram, kafkaSecretKey: key }).queryId).toBe('clicks');
  });

  it('subnets or security groups without a VPC', () => {
    const stack = new Stack();
    const sg = ec2.SecurityGroup.fromSecurityGroupId(stack, 'Sg', 'sg-0123456789abcdef0');
    expect(failure({ securityGroups: [sg] }).message).toMatch(/need vpc/);
  });

  it('a trigger the schedule cannot honour', () => {
    expect(failure({ triggerInterval: Duration.seconds(45) }).message).toMatch(/triggerInterval/);
  });

  it('a timeout over 15 minutes, or one the safety margin fills', () => {
    expect(failure({ timeout: Duration.minutes(20) }).message).toMatch(/15 minutes/);
    expect(
      failure({ timeout: Duration.seconds(5), safetyMargin: Duration.seconds(5) }).message,
    ).toMatch(/safetyMargin/);
  });

  it('a lease too short for a batch to renew it', () => {
    expect(failure({ leaseDuration: Duration.millis(500) }).message).toMatch(
      /leaseDuration 500 millis is too short.*at least 1 second/,
    );
  });

  it("a state prefix with a '/' at either end, an empty segment or a '.' or '..' segment", () => {
    expect(failure({ statePrefix: '/sluice' }).message).toMatch(/statePrefix/);
    expect(failure({ statePrefix: 'sluice/' }).message).toMatch(/statePrefix/);
    for (const statePrefix of ['../../etc', 'teams/./growth', 'teams//growth']) {
      expect(failure({ statePrefix }).message).toMatch(`statePrefix='${statePrefix}' is invalid`);
    }
    expect(resolveSettings({ ...base, statePrefix: 'teams/growth' }).statePrefix).toBe(
      'teams/growth',
    );
  });

  it('a stalled-alarm window longer than the day CloudWatch evaluates', () => {
    expect(failure({ triggerInterval: Duration.hours(6), noBatchTriggers: 5 }).message).toMatch(
      /noBatchTriggers/,
    );
    expect(failure({ noBatchTriggers: 0 }).message).toMatch(/noBatchTriggers/);
  });
});
