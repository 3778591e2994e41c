/**
 * Clicks counted per category in 10-minute event-time windows, with a 15-minute watermark: the
 * query of this project, written once and run as a stream in Lambda and as a batch in its test.
 */
import { col, type DataFrame, from_json, window } from 'sluice';
import { defineQuery } from 'sluice/lambda';

/** A click event as the topic carries it, in JSON. */
export const CLICK_SCHEMA = 'ts TIMESTAMP, category STRING, user STRING';

/** Clicks per category and window, from rows whose `value` holds a click as JSON. */
export function clickCounts(input: DataFrame): DataFrame {
  return input
    .select(from_json(col('value').cast('string'), CLICK_SCHEMA).alias('click'))
    .select('click.*')
    .withWatermark('ts', '15 minutes')
    .groupBy(window(col('ts'), '10 minutes'), col('category'))
    .count();
}

/** The query the function runs: each window appended once, when the watermark has passed it. */
export const clickCountsQuery = defineQuery({ outputMode: 'append', query: clickCounts });
