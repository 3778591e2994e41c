import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: root, overrideConfigFile: path.join(root, 'eslint.config.js') });

/** The messages of the layering rule for a file at `file` (relative to the root) importing `source`. */
async function restrictions(file: string, source: string): Promise<string[]> {
  const code = `import { x } from '${source}';\nexport const y = x;\n`;
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('the layering of core is enforced by ESLint', () => {
  it.each([
    {
      file: 'core/exec/probe.ts',
      source: '../aws/dynamodb-sink.js',
      says: /engine.*never imports core\/aws/,
    },
    {
      file: 'core/exec/probe.ts',
      source: '../kafka/kafka-source.js',
      says: /never imports core\/aws, core\/kafka/,
    },
    { file: 'core/plan/probe.ts', source: '../api/column.js', says: /or core\/api/ },
    { file: 'core/functions/probe.ts', source: '../api/column.js', says: /or core\/api/ },
    { file: 'core/columnar/probe.ts', source: '../kafka/kafka-schema.js', says: /engine/ },
    { file: 'core/state/probe.ts', source: '@aws-sdk/client-s3', says: /no AWS SDK/ },
    { file: 'core/types/probe.ts', source: 'kafkajs', says: /no Kafka client/ },
    {
      file: 'core/expr/probe.ts',
      source: '../functions/builtin-functions.js',
      says: /FunctionTable/,
    },
    {
      file: 'core/streaming/probe.ts',
      source: '../../functions/microbatch/handler.js',
      says: /never imports the Lambda functions/,
    },
    {
      file: 'core/index.ts',
      source: '../infra/micro-batch-query.js',
      says: /never imports the Lambda functions, the CDK app or the CLI/,
    },
    { file: 'core/sinks/probe.ts', source: 'aws-cdk-lib', says: /no CDK/ },
    {
      file: 'core/kafka/probe.ts',
      source: '../aws/sasl-secret.js',
      says: /supplies Kafka credentials from outside/,
    },
    { file: 'core/aws/probe.ts', source: '../api/object-store-urls.js', says: /Adapters/ },
    { file: 'core/kafka/probe.ts', source: '../streaming/query-driver.js', says: /Adapters/ },
    { file: 'core/streaming/probe.ts', source: '../../cli/program.js', says: /or the CLI/ },
    { file: 'cli/probe.ts', source: '../functions/microbatch/handler.js', says: /through core/ },
    { file: 'cli/probe.ts', source: 'aws-cdk-lib', says: /The CLI knows no CDK/ },
  ])('$file may not import $source', async ({ file, source, says }) => {
    const messages = await restrictions(file, source);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(says);
  });

  it.each([
    { file: 'core/exec/probe.ts', source: '../expr/binder.js' },
    { file: 'core/exec/probe.ts', source: '../functions/builtin-functions.js' },
    { file: 'core/plan/probe.ts', source: '../functions/builtin-functions.js' },
    { file: 'core/functions/probe.ts', source: '../expr/bound-expression.js' },
    { file: 'core/api/probe.ts', source: '../kafka/kafka-source.js' },
    { file: 'core/aws/probe.ts', source: '../kafka/kafka-credentials.js' },
    { file: 'core/aws/probe.ts', source: '@aws-sdk/client-s3' },
    { file: 'core/index.ts', source: './functions/builtin-functions.js' },
    { file: 'functions/microbatch/probe.ts', source: '../../core/aws/index.js' },
    { file: 'cli/probe.ts', source: '../core/aws/index.js' },
  ])('$file may import $source', async ({ file, source }) => {
    expect(await restrictions(file, source)).toEqual([]);
  });
});
