/**
 * How CDK's NodejsFunction bundles the micro-batch function: functions/bundle-options.ts's esbuild options
 * (one minified ESM file with a source map, the AWS SDK inside, a `createRequire` banner for the
 * CommonJS dependencies), so the deployed bundle is the one the function's tests load. esbuild runs
 * locally, never in Docker, so synth works offline.
 */
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as nodejs from 'aws-cdk-lib/aws-lambda-nodejs';
import { BUNDLE_OPTIONS } from '../functions/bundle-options.js';

/** The Lambda runtime the bundle targets. */
export const MICRO_BATCH_RUNTIME = lambda.Runtime.NODEJS_22_X;

/** NodejsFunction bundling settings for the micro-batch function. */
export const MICRO_BATCH_BUNDLING: nodejs.BundlingOptions = {
  minify: BUNDLE_OPTIONS.minify,
  sourceMap: BUNDLE_OPTIONS.sourcemap,
  target: BUNDLE_OPTIONS.target,
  format: nodejs.OutputFormat.ESM,
  mainFields: [...BUNDLE_OPTIONS.mainFields],
  banner: BUNDLE_OPTIONS.banner.js,
  keepNames: BUNDLE_OPTIONS.keepNames,
  esbuildArgs: { '--legal-comments': BUNDLE_OPTIONS.legalComments },
  bundleAwsSDK: true,
  forceDockerBundling: false,
};
