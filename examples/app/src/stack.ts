/**
 * The deployment: one MicroBatchQuery reading the clicks topic and appending the counts to a Delta
 * table. `node lib/src/stack.js` synthesizes it into cdk.out (offline: esbuild bundles locally).
 */
import { fileURLToPath } from 'node:url';
import { App, Stack } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { MicroBatchQuery } from 'sluice/cdk';

const app = new App({ outdir: 'cdk.out' });
const stack = new Stack(app, 'ClickCounts');
const lake = new s3.Bucket(stack, 'Lake');
new MicroBatchQuery(stack, 'ClickCounts', {
  queryId: 'click-counts',
  entry: fileURLToPath(new URL('../../src/handler.ts', import.meta.url)),
  source: { kind: 'kafka', bootstrapServers: ['broker-1:9092'], topic: 'clicks' },
  sink: { kind: 'delta', bucket: lake.bucketName, path: 'click-counts/' },
});
app.synth();
