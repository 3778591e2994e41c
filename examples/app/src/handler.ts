/** The Lambda function's entry: the construct bundles this file. */
import { microBatchHandler } from 'sluice/lambda';
import { clickCountsQuery } from './query.js';

/** The handler Lambda calls on every scheduled trigger. */
export const handler = microBatchHandler(clickCountsQuery);
