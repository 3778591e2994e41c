/**
 * cdk-nag's AwsSolutions rules (v3: a policy-validation plugin) over every variant of the construct
 * and the example stack: no finding is left unacknowledged, and every acknowledgement is narrow and
 * carries its reason.
 */
import { App, type CfnElement, Stack, Validations } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import type { IConstruct } from 'constructs';
import { describe, expect, it } from 'vitest';
import { ClickstreamStack } from '../../infra/clickstream-stack.js';
import {
  existingTableAndBucket,
  FIXTURE_ENTRY,
  mskIamInVpc,
  s3FilesIntoDynamoDb,
  scramSecret,
  shardedMskIam,
  unacknowledgedFindings,
} from './query-stack.js';

/** Every acknowledgement under `scope`: the construct path, rule id and reason. */
function acknowledgements(scope: IConstruct): { path: string; id: string; reason: string }[] {
  return scope.node.findAll().flatMap((c) =>
    c.node.metadata
      .filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((m) =>
        Object.entries(m.data as Record<string, string>).map(([id, reason]) => ({
          path: c.node.path,
          id: id.replace(/^annotation::/i, ''),
          reason,
        })),
      ),
  );
}

describe('cdk-nag AwsSolutions checks', () => {
  it('flag an unhardened bucket (the check is live)', () => {
    const stack = new Stack(new App(), 'Bare');
    new s3.Bucket(stack, 'Bucket');
    const errors = unacknowledgedFindings(stack, 'error');
    expect(errors).toContain('AwsSolutions-S1 at Bare/Bucket/Resource');
    expect(errors).toContain('AwsSolutions-S10 at Bare/Bucket/Resource');
  });

  it.each([
    ['Kafka on MSK with IAM, in a VPC, into Delta', () => mskIamInVpc()],
    ['the same as four shards', shardedMskIam],
    ['Kafka with a SCRAM secret, into Kafka', scramSecret],
    ['S3 files into DynamoDB', () => s3FilesIntoDynamoDb()],
    ['an existing table and bucket', existingTableAndBucket],
  ])('leave no error or warning unacknowledged for %s', (_name, build) => {
    const { stack } = build();
    expect(unacknowledgedFindings(stack, 'error')).toEqual([]);
    expect(unacknowledgedFindings(stack, 'warning')).toEqual([]);
  });

  it('leave no error or warning unacknowledged in the example stack', () => {
    const stack = new ClickstreamStack(new App(), 'Example', {
      bootstrapServers: ['b-1.clicks.kafka.eu-west-1.amazonaws.com:9098'],
      topic: 'clicks',
      mskClusterArn:
        'arn:aws:kafka:eu-west-1:123456789012:cluster/clicks/11111111-2222-3333-4444-555555555555-1',
      entry: FIXTURE_ENTRY,
    });
    expect(unacknowledgedFindings(stack, 'error')).toEqual([]);
    expect(unacknowledgedFindings(stack, 'warning')).toEqual([]);
  });

  it('acknowledge only named findings on specific resources, each with a reason', () => {
    const { stack, query } = mskIamInVpc();
    const id = (c: IConstruct) => stack.getLogicalId(c.node.defaultChild as CfnElement);
    const found = acknowledgements(stack);
    for (const ack of found) {
      expect(ack.reason.length).toBeGreaterThan(40);
      expect(ack.path).not.toBe('Test');
      expect(ack.path).not.toBe('Test/Query');
    }
    const wildcards = found.filter((a) => a.id.startsWith('AwsSolutions-IAM5'));
    expect(wildcards.every((a) => /^AwsSolutions-IAM5\[Resource::.+\]$/.test(a.id))).toBe(true);
    expect(found.map((a) => `${a.path} ${a.id}`).sort()).toEqual(
      [
        'Test/Query/DeadLetterQueue AwsSolutions-SQS3',
        'Test/Query/Function AwsSolutions-L1',
        'Test/Query/Role AwsSolutions-IAM5[Resource::*]',
        `Test/Query/Role AwsSolutions-IAM5[Resource::<${id(query.stateBucket)}.Arn>/sluice/clicks/*]`,
        'Test/Query/Role AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::lake-bucket/tables/click_counts/*]',
        `Test/Query/ScheduleRole AwsSolutions-IAM5[Resource::<${id(query.fn)}.Arn>:*]`,
        'Test/Query/StateBucket AwsSolutions-S1',
      ].sort(),
    );
  });
});
