/**
 * MSK IAM resource ARNs: a topic's ARN from its cluster's, for literal ARNs and for tokens.
 */
import { Stack } from 'aws-cdk-lib';
import * as cdk from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { checkMskClusterArn, mskTopicArn } from '../../infra/msk-arns.js';

const CLUSTER =
  'arn:aws:kafka:eu-west-1:123456789012:cluster/clicks/11111111-2222-3333-4444-555555555555-2';

describe('mskTopicArn', () => {
  it('swaps cluster for topic and appends the topic name', () => {
    expect(mskTopicArn(CLUSTER, 'clicks.v1')).toBe(
      'arn:aws:kafka:eu-west-1:123456789012:topic/clicks/11111111-2222-3333-4444-555555555555-2/clicks.v1',
    );
  });

  it('keeps the partition of other AWS partitions', () => {
    const cn = 'arn:aws-cn:kafka:cn-north-1:123456789012:cluster/c/uuid-1';
    expect(mskTopicArn(cn, 't')).toBe('arn:aws-cn:kafka:cn-north-1:123456789012:topic/c/uuid-1/t');
  });

  it('builds the same ARN at deploy time from a cluster ARN token', () => {
    const stack = new Stack();
    const parameter = new cdk.CfnParameter(stack, 'Cluster', { type: 'String' });
    const rendered = stack.resolve(mskTopicArn(parameter.valueAsString, 'clicks'));
    expect(evaluate(rendered, { Cluster: CLUSTER })).toBe(mskTopicArn(CLUSTER, 'clicks'));
  });
});

describe('checkMskClusterArn', () => {
  it.each([
    'arn:aws:kafka:eu-west-1:123456789012:topic/clicks/uuid/t',
    'clicks',
    'arn:aws:kafka:eu-west-1:123456789012:cluster/clicks',
  ])('refuses %s', (arn) => {
    expect(() => checkMskClusterArn(arn)).toThrow(/not an MSK cluster ARN/);
  });

  it('accepts a cluster ARN and a token', () => {
    expect(checkMskClusterArn(CLUSTER)).toBe(CLUSTER);
    const token = new cdk.CfnParameter(new Stack(), 'P', { type: 'String' }).valueAsString;
    expect(checkMskClusterArn(token)).toBe(token);
  });
});

/** Evaluates the intrinsic functions mskTopicArn uses, with `refs` as parameter values. */
function evaluate(node: unknown, refs: Record<string, string>): unknown {
  if (typeof node === 'string') return node;
  const fn = node as Record<string, unknown>;
  if ('Ref' in fn) return refs[fn.Ref as string];
  if ('Fn::Join' in fn) {
    const [sep, parts] = fn['Fn::Join'] as [string, unknown[]];
    return parts.map((p) => evaluate(p, refs)).join(sep);
  }
  if ('Fn::Split' in fn) {
    const [sep, text] = fn['Fn::Split'] as [string, unknown];
    return (evaluate(text, refs) as string).split(sep);
  }
  if ('Fn::Select' in fn) {
    const [index, list] = fn['Fn::Select'] as [number, unknown];
    return (evaluate(list, refs) as string[])[index];
  }
  throw new Error(`Unexpected intrinsic ${JSON.stringify(node)}`);
}
