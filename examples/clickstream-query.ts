/**
 * The canonical clickstream query, as a query module: click events as JSON text, counted per
 * category in 10-minute event-time tumbling windows, with a 15-minute watermark, in append mode (a
 * window is written once, when the watermark has passed its end).
 *
 * The input's `value` column holds the event: text from a file source, binary from Kafka. The cast to
 * string decodes Kafka's bytes as UTF-8 and leaves text as it is, so the same module runs locally
 * over files (`npm start`), in the Lambda function over a topic, and as a batch query in tests.
 */
import { col, type DataFrame, from_json, window } from '../core/index.js';
import { defineQuery } from '../functions/microbatch/query-module.js';

/** The schema of a click event. */
export const EVENT_SCHEMA = 'ts TIMESTAMP, category STRING, user STRING, page STRING';

/** Clicks per category and 10-minute window, from rows whose `value` is a click as JSON. */
export function clickCounts(input: DataFrame): DataFrame {
  return input
    .select(from_json(col('value').cast('string'), EVENT_SCHEMA).alias('event'))
    .select('event.*')
    .withWatermark('ts', '15 minutes')
    .groupBy(window(col('ts'), '10 minutes'), col('category'))
    .count();
}

/** The canonical job's query module. */
export const clickstreamQuery = defineQuery({ outputMode: 'append', query: clickCounts });
