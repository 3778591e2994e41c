/**
 * The example app: the canonical clickstream pipeline bundled from the real function entry, with
 * connection details from context, checked by cdk-nag during synth; and `npx cdk synth` of a fresh
 * checkout, run with no AWS credentials and (where the machine allows a network namespace) no network.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { describe, expect, it } from 'vitest';
import { ENV } from '../../functions/microbatch/configuration.js';
import { buildApp, PLACEHOLDER_CONTEXT } from '../../infra/clickstream-app.js';
import { CLICK_COUNTS_PATH, CLICKSTREAM_ENTRY } from '../../infra/clickstream-stack.js';
import { tempDir } from '../support/temp-dir.js';

const CLUSTER =
  'arn:aws:kafka:eu-west-1:123456789012:cluster/clicks/11111111-2222-3333-4444-555555555555-1';

interface CfnTemplate {
  readonly Resources: Record<string, { Type: string; Properties: Record<string, unknown> }>;
}

function resourcesOf(template: CfnTemplate, type: string) {
  return Object.values(template.Resources).filter((r) => r.Type === type);
}

function functionOf(template: CfnTemplate) {
  const functions = resourcesOf(template, 'AWS::Lambda::Function');
  expect(functions).toHaveLength(1);
  return functions[0].Properties as {
    Environment: { Variables: Record<string, unknown> };
    VpcConfig?: unknown;
  };
}

/** The asset directory of the function's bundle in a cloud assembly. */
function bundleFile(outdir: string): string {
  const assets = readdirSync(outdir).filter((d) => d.startsWith('asset.'));
  expect(assets).toHaveLength(1);
  return path.join(outdir, assets[0], 'index.mjs');
}

describe('the example app', () => {
  it('bundles the clickstream function and synthesizes with context values, cdk-nag passing', () => {
    expect(existsSync(CLICKSTREAM_ENTRY)).toBe(true);
    const outdir = tempDir('sluice-cdk-');
    const app = buildApp(
      new App({
        outdir,
        context: {
          kafkaBootstrapServers: 'b-1.clicks:9098, b-2.clicks:9098',
          kafkaTopic: 'page-views',
          mskClusterArn: CLUSTER,
          vpcId: 'vpc-0123456789abcdef0',
          subnetIds: 'subnet-0123456789abcdef0,subnet-0123456789abcdef1',
          securityGroupIds: 'sg-0123456789abcdef0',
        },
      }),
    );
    const assembly = app.synth();
    const template = assembly.getStackByName('SluiceClickstream').template as CfnTemplate;
    const fn = functionOf(template);
    expect(JSON.parse(fn.Environment.Variables[ENV.source] as string)).toMatchObject({
      kind: 'kafka',
      bootstrapServers: ['b-1.clicks:9098', 'b-2.clicks:9098'],
      topic: 'page-views',
      sasl: { mechanism: 'aws-msk-iam' },
    });
    expect(JSON.stringify(fn.Environment.Variables[ENV.sink])).toContain(CLICK_COUNTS_PATH);
    expect(fn.VpcConfig).toEqual({
      SubnetIds: ['subnet-0123456789abcdef0', 'subnet-0123456789abcdef1'],
      SecurityGroupIds: ['sg-0123456789abcdef0'],
    });
    expect(JSON.stringify(resourcesOf(template, 'AWS::IAM::Policy'))).toContain(
      CLUSTER.replace(':cluster/', ':topic/') + '/page-views',
    );
    expect(statSync(bundleFile(outdir)).size).toBeGreaterThan(100_000);
  }, 300_000);

  it('fails its synth on a cdk-nag finding nobody acknowledged', () => {
    const app = buildApp(
      new App({ outdir: tempDir('sluice-cdk-'), context: { 'aws:cdk:bundling-stacks': [] } }),
    );
    new s3.Bucket(app.node.findChild('SluiceClickstream') as Stack, 'Unhardened');
    expect(() => app.synth()).toThrow(/AwsSolutions-S1/);
  });

  it('refuses a VPC from context without subnets', () => {
    const app = new App({ context: { vpcId: 'vpc-0123456789abcdef0' } });
    expect(() => buildApp(app)).toThrow(/subnetIds/);
  });
});

describe('npx cdk synth', () => {
  it('synthesizes the example on a fresh checkout with no credentials and no network', () => {
    const outdir = tempDir('sluice-cdk-cli-');
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !k.startsWith('AWS_') && k !== 'NODE_ENV'),
    );
    const command = ['npx', 'cdk', 'synth', '--quiet', '--output', outdir];
    const isolated = spawnSync('unshare', ['-rn', 'true']).status === 0;
    const run = isolated
      ? spawnSync('unshare', ['-rn', ...command], { env, encoding: 'utf8' })
      : spawnSync(command[0], command.slice(1), { env, encoding: 'utf8' });
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    const template = JSON.parse(
      readFileSync(path.join(outdir, 'SluiceClickstream.template.json'), 'utf8'),
    ) as CfnTemplate;
    const source = JSON.parse(functionOf(template).Environment.Variables[ENV.source] as string);
    expect(source.bootstrapServers).toEqual([PLACEHOLDER_CONTEXT.kafkaBootstrapServers]);
    expect(source.topic).toBe(PLACEHOLDER_CONTEXT.kafkaTopic);
    expect(statSync(bundleFile(outdir)).size).toBeGreaterThan(100_000);
    const manifest = JSON.parse(readFileSync(path.join(outdir, 'manifest.json'), 'utf8'));
    expect(manifest.missing, 'context lookups would need AWS').toBeUndefined();
  }, 600_000);
});
