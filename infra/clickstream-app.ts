/**
 * The example CDK app: the canonical clickstream pipeline, checked by cdk-nag's AwsSolutions rules
 * on every synth (an unacknowledged finding fails the synth). Connection details come from context values, e.g.
 *   npx cdk synth -c kafkaBootstrapServers=b-1.x.kafka.eu-west-1.amazonaws.com:9098 \
 *     -c kafkaTopic=clicks -c mskClusterArn=arn:aws:kafka:eu-west-1:123456789012:cluster/x/uuid
 * and default to placeholders so that a fresh clone synthesizes without any of them.
 */
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { InvalidOptionError } from '../core/errors.js';
import { ClickstreamStack, type ExistingNetwork } from './clickstream-stack.js';

/** Placeholders for a synth without context; deploying them fails until real values are given. */
export const PLACEHOLDER_CONTEXT = {
  kafkaBootstrapServers: 'b-1.clickstream.placeholder.c1.kafka.us-east-1.amazonaws.com:9098',
  kafkaTopic: 'clicks',
  mskClusterArn:
    'arn:aws:kafka:us-east-1:123456789012:cluster/clickstream/00000000-0000-0000-0000-000000000000-1',
} as const;

/** Builds the app: the clickstream stack and the cdk-nag checks. */
export function buildApp(app: App = new App()): App {
  const context = (key: keyof typeof PLACEHOLDER_CONTEXT): string =>
    String(app.node.tryGetContext(key) ?? PLACEHOLDER_CONTEXT[key]);
  new ClickstreamStack(app, 'SluiceClickstream', {
    description: 'Sluice: clickstream from Kafka, counted per 10-minute window, into a Delta table',
    bootstrapServers: list(context('kafkaBootstrapServers')),
    topic: context('kafkaTopic'),
    mskClusterArn: context('mskClusterArn'),
    network: network(app),
  });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return app;
}

/** The VPC from context `vpcId`, `subnetIds` and `securityGroupIds` (comma-separated), if given. */
function network(app: App): ExistingNetwork | undefined {
  const vpcId = app.node.tryGetContext('vpcId') as string | undefined;
  if (!vpcId) return undefined;
  const subnetIds = list(String(app.node.tryGetContext('subnetIds') ?? ''));
  if (subnetIds.length === 0) {
    throw new InvalidOptionError(
      `Context vpcId=${vpcId} needs subnetIds: the comma-separated private subnets the function runs in.`,
    );
  }
  return {
    vpcId,
    subnetIds,
    securityGroupIds: list(String(app.node.tryGetContext('securityGroupIds') ?? '')),
  };
}

function list(text: string): string[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}
