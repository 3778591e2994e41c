/**
 * The CDK app `cdk.json` runs (`npx cdk synth`, `npx cdk deploy`): the clickstream example.
 */
import { buildApp } from './clickstream-app.js';

buildApp().synth();
