/**
 * The ARNs MSK IAM authorizes against. A topic's ARN is its cluster's with `topic` in place of
 * `cluster` and the topic name appended:
 *   arn:aws:kafka:<region>:<account>:cluster/<clusterName>/<clusterUuid>
 *   arn:aws:kafka:<region>:<account>:topic/<clusterName>/<clusterUuid>/<topic>
 * and a consumer group's likewise with `group`.
 * A cluster ARN that is a token (a cluster in the same app) is rewritten with intrinsic functions.
 */
import { Fn, Token } from 'aws-cdk-lib';
import { InvalidOptionError } from '../core/errors.js';

const CLUSTER_ARN = /^arn:[a-z-]+:kafka:[a-z0-9-]+:\d{12}:cluster\/[^/]+\/[^/]+$/;
const CLUSTER_MARKER = ':cluster/';

/** Checks that `arn` is an MSK cluster ARN (tokens pass: they resolve at deploy time). */
export function checkMskClusterArn(arn: string): string {
  if (!Token.isUnresolved(arn) && !CLUSTER_ARN.test(arn)) {
    throw new InvalidOptionError(
      `mskClusterArn '${arn}' is not an MSK cluster ARN; expected arn:aws:kafka:<region>:<account>:cluster/<name>/<uuid>.`,
    );
  }
  return arn;
}

/** The ARN of `topic` on the cluster `clusterArn`. */
export function mskTopicArn(clusterArn: string, topic: string): string {
  return mskResourceArn(clusterArn, 'topic', topic);
}

/** The ARN of the consumer group `group` on the cluster `clusterArn`. */
export function mskGroupArn(clusterArn: string, group: string): string {
  return mskResourceArn(clusterArn, 'group', group);
}

function mskResourceArn(clusterArn: string, kind: 'topic' | 'group', name: string): string {
  if (!Token.isUnresolved(clusterArn)) {
    return `${clusterArn.replace(CLUSTER_MARKER, `:${kind}/`)}/${name}`;
  }
  const parts = Fn.split(CLUSTER_MARKER, clusterArn);
  return Fn.join('', [Fn.select(0, parts), `:${kind}/`, Fn.select(1, parts), '/', name]);
}
