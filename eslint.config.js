// ESLint flat config: typescript-eslint's recommended type-aware rules for all TypeScript sources,
// and the layering of core (docs/architecture.md section 1) as import restrictions.
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';

/** The engine's folders: they know no adapter (AWS, Kafka) and not the DataFrame API above them. */
const ENGINE = ['plan', 'expr', 'functions', 'exec', 'state', 'types', 'columnar'];
/** The adapters: they implement the engine's small interfaces and know nothing of what drives them. */
const ADAPTERS = ['aws', 'kafka'];
/** The CDK and Lambda packages, which neither core nor the CLI may import. */
const CDK_AND_LAMBDA = [
  'aws-cdk-lib',
  'aws-cdk-lib/*',
  'constructs',
  'aws-lambda',
  '@aws-lambda-powertools/*',
];
/** How deep below core/ a source file may sit for the rules to know where core/ and the root are. */
const MAX_DEPTH = 4;

/** The relative prefix that climbs `levels` folders ('./' for none). */
const up = (levels) => (levels === 0 ? '\\./' : '(\\.\\./){' + levels + '}');

/** Imports that no file of core may have, from a file `depth` folders below core/ (1: core/x.ts). */
function coreRestrictions(depth) {
  return [
    {
      regex: `^${up(depth)}(functions|infra|cli)/`,
      message:
        'core never imports the Lambda functions, the CDK app or the CLI: they depend on core, not the reverse.',
    },
    {
      group: CDK_AND_LAMBDA,
      message: 'core knows no CDK and no Lambda types: they belong in infra/ and functions/.',
    },
  ];
}

/** Imports engine folder `folder` may not have, from a file `depth` folders below core/ (2: core/exec/x.ts). */
function engineRestrictions(folder, depth) {
  const restrictions = [
    {
      regex: `^${up(depth - 1)}(aws|kafka|api)/`,
      message:
        'The engine (plan, expr, functions, exec, state, types, columnar) never imports core/aws, core/kafka or core/api: adapters and the API depend on the engine, not the reverse.',
    },
    {
      group: ['@aws-sdk/*', '@smithy/*', 'kafkajs', 'aws-msk-iam-sasl-signer-js'],
      message:
        'The engine knows no AWS SDK and no Kafka client: they live in core/aws and core/kafka.',
    },
  ];
  if (folder !== 'expr') return restrictions;
  return [
    ...restrictions,
    {
      regex: `^${up(depth - 1)}functions/`,
      message:
        "core/expr never imports core/functions: the functions implement the expression layer's FunctionTable, and the binder gets the table from its Scope.",
    },
  ];
}

/** Imports adapter `folder` may not have, from a file `depth` folders below core/ (2: core/aws/x.ts). */
function adapterRestrictions(folder, depth) {
  const restrictions = [
    {
      regex: `^${up(depth - 1)}(api|streaming)/`,
      message:
        "Adapters (core/aws, core/kafka) implement the engine's interfaces; they never import the DataFrame API or the query driver.",
    },
  ];
  if (folder !== 'kafka') return restrictions;
  return [
    ...restrictions,
    {
      regex: `^${up(depth - 1)}aws/`,
      message:
        'core/kafka never imports core/aws: the AWS adapter supplies Kafka credentials from outside (useKafkaCredentials), so Kafka loads no AWS SDK.',
    },
  ];
}

/** The file globs of folder `folder` (or of core itself) at exactly `depth` folders below core/. */
function filesAt(folder, depth) {
  const inner = Array.from({ length: depth - (folder ? 2 : 1) }, () => '*/').join('');
  return folder ? [`core/${folder}/${inner}*.ts`] : [`core/${inner}*.ts`];
}

/** One block per folder and depth, since each block's rule options replace, not extend, the others'. */
function layeringBlocks() {
  const blocks = [];
  for (let depth = 1; depth <= MAX_DEPTH; depth++) {
    blocks.push({ files: filesAt(undefined, depth), patterns: coreRestrictions(depth) });
    if (depth === 1) continue;
    for (const folder of ENGINE) {
      blocks.push({
        files: filesAt(folder, depth),
        patterns: [...coreRestrictions(depth), ...engineRestrictions(folder, depth)],
      });
    }
    for (const folder of ADAPTERS) {
      blocks.push({
        files: filesAt(folder, depth),
        patterns: [...coreRestrictions(depth), ...adapterRestrictions(folder, depth)],
      });
    }
  }
  return blocks.map(({ files, patterns }) => ({
    files,
    rules: { 'no-restricted-imports': ['error', { patterns }] },
  }));
}

export default tseslint.config(
  { ignores: ['node_modules/**', 'cdk.out/**', 'dist/**', 'lib/**', 'examples/app/**'] },
  eslint.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  ...layeringBlocks(),
  {
    files: ['cli/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./(functions|infra)/',
              message:
                'The CLI runs queries and reads checkpoints through core; it never imports the Lambda functions or the CDK app.',
            },
            { group: CDK_AND_LAMBDA, message: 'The CLI knows no CDK and no Lambda types.' },
          ],
        },
      ],
    },
  },
);
